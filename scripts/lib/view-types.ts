/**
 * The admin page's TypeScript types of the answers PHP owns: plugin/admin/src/api/generated/views.ts,
 * written from the routes' own schemas (plugin/includes/Rest/Schemas/, listed by Catalog::all()),
 * which php-cli reads with __() as identity: PHP stays the one source of these shapes.
 * `npm run contracts` writes the file; tests/unit/view-types.test.ts fails while it is stale.
 */
import { spawnSync } from 'child_process';
import fs from 'fs';
import path from 'path';
import { PLUGIN_DIR, ROOT } from './paths';
import { done, fail, step } from './progress';

export const VIEW_TYPES_FILE = path.join( PLUGIN_DIR, 'admin', 'src', 'api', 'generated', 'views.ts' );

/** The subset of JSON Schema the answer schemas use. */
export interface ViewSchema {
	type?: string | string[];
	description?: string;
	enum?: unknown[];
	properties?: Record< string, ViewSchema >;
	required?: string[];
	items?: ViewSchema;
	additionalProperties?: ViewSchema | boolean;
	[ keyword: string ]: unknown;
}

/** Each answer's schema by type name, as PHP builds it (translations left out). */
export function viewSchemas(): Record< string, ViewSchema > {
	const script = `
		define( 'ABSPATH', '/' );
		function __( $text, $domain = 'default' ) { return $text; }
		require ${ JSON.stringify( path.join( PLUGIN_DIR, 'includes', 'autoload.php' ) ) };
		echo json_encode( ServiceIntegration\\Rest\\Schemas\\Catalog::all(), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
	`;
	const result = spawnSync( 'php', [ '-r', script ], { encoding: 'utf8' } );
	if ( result.error || result.status !== 0 || result.stderr ) {
		throw new Error( `php could not read the answer schemas: ${ result.error?.message ?? result.stderr }` );
	}
	return JSON.parse( result.stdout ) as Record< string, ViewSchema >;
}

function indent( depth: number ): string {
	return '\t'.repeat( depth );
}

function comment( text: string | undefined, depth: number ): string {
	return text ? `${ indent( depth ) }/** ${ text.replace( /\*\//g, '*\\/' ) } */\n` : '';
}

/** The named types an object may be written as, by its shape (see shapeOf()). */
export type NamedTypes = Map< string, string >;

/** What makes two object schemas one type: their properties and which are required. */
function shapeOf( schema: ViewSchema ): string | undefined {
	return schema.properties
		? JSON.stringify( { properties: schema.properties, required: schema.required } )
		: undefined;
}

/**
 * One schema as a TypeScript type; `depth` is the indentation of the line it starts on. An
 * object of the same shape as one of `named` is written as that type's name.
 */
export function tsType( schema: ViewSchema, depth: number, named: NamedTypes = new Map() ): string {
	const types = Array.isArray( schema.type ) ? schema.type : [ schema.type ?? 'object' ];
	return types.map( ( type ) => single( schema, type, depth, named ) ).join( ' | ' );
}

/** A literal as the code style writes it (single quotes). */
function literal( value: unknown ): string {
	return typeof value === 'string' ? `'${ value.replace( /[\\']/g, '\\$&' ) }'` : JSON.stringify( value );
}

function single( schema: ViewSchema, type: string, depth: number, named: NamedTypes ): string {
	if ( schema.enum && type !== 'null' ) {
		return schema.enum.map( literal ).join( ' | ' );
	}
	switch ( type ) {
		case 'string':
		case 'boolean':
		case 'null':
			return type;
		case 'integer':
		case 'number':
			return 'number';
		case 'array': {
			const item = schema.items ? tsType( schema.items, depth, named ) : 'unknown';
			return /[|&]/.test( item ) && ! item.startsWith( '{' ) ? `( ${ item } )[]` : `${ item }[]`;
		}
		case 'object':
			return named.get( shapeOf( schema ) ?? '' ) ?? objectType( schema, depth, named );
		default:
			throw new Error( `Unsupported type in an answer schema: ${ type }` );
	}
}

function objectType( schema: ViewSchema, depth: number, named: NamedTypes ): string {
	if ( ! schema.properties ) {
		const value =
			typeof schema.additionalProperties === 'object'
				? tsType( schema.additionalProperties, depth, named )
				: 'unknown';
		return `Record< string, ${ value } >`;
	}
	// Without a `required` list every declared property is always there (as in PaidOrder).
	const required = new Set( schema.required ?? Object.keys( schema.properties ) );
	const lines = Object.entries( schema.properties ).map(
		( [ name, property ] ) =>
			`${ comment( property.description, depth + 1 ) }${ indent( depth + 1 ) }${ name }${
				required.has( name ) ? '' : '?'
			}: ${ tsType( property, depth + 1, named ) };\n`
	);
	return `{\n${ lines.join( '' ) }${ indent( depth ) }}`;
}

/**
 * The whole generated file. An answer that holds another answer's shape (a page of events holds
 * events) names that answer's type rather than writing its fields again.
 */
export function viewTypesTs( schemas: Record< string, ViewSchema > = viewSchemas() ): string {
	const types = Object.entries( schemas ).map( ( [ name, schema ] ) => {
		const others: NamedTypes = new Map(
			Object.entries( schemas )
				.filter( ( [ other ] ) => other !== name )
				.map( ( [ other, otherSchema ] ) => [ shapeOf( otherSchema ) ?? '', other ] )
		);
		others.delete( '' );
		const title = `${ schema.title as string }${ schema.description ? `: ${ schema.description }` : '' }`;
		return `/** ${ title } */\nexport type ${ name } = ${ tsType( schema, 0, others ) };\n`;
	} );
	return `/**
 * Generated by \`npm run contracts\` from the REST answer schemas in plugin/includes/Rest/Schemas/
 * (Catalog::all()): do not edit; change the schema and run it again.
 */

${ types.join( '\n' ) }`;
}

/** npm run contracts' part for these types: writes the file, or with `check` fails while it is stale. */
export function writeViewTypes( check: boolean ): void {
	const file = path.relative( ROOT, VIEW_TYPES_FILE );
	const wanted = viewTypesTs();
	const current = fs.existsSync( VIEW_TYPES_FILE ) ? fs.readFileSync( VIEW_TYPES_FILE, 'utf8' ) : '';
	if ( check ) {
		if ( current !== wanted ) {
			fail( `${ file } is stale: run npm run contracts (then npm run i18n if a description changed).` );
		}
		done( `${ file } matches plugin/includes/Rest/Schemas/` );
		return;
	}
	step( `Writing ${ file } from plugin/includes/Rest/Schemas/` );
	if ( current !== wanted ) {
		fs.mkdirSync( path.dirname( VIEW_TYPES_FILE ), { recursive: true } );
		fs.writeFileSync( VIEW_TYPES_FILE, wanted );
	}
	done( current === wanted ? 'unchanged' : 'written' );
}

/**
 * The admin page's types of the answers PHP owns are generated from the routes' schemas
 * (scripts/lib/view-types.ts): the committed file must be what the schemas make now.
 */
import fs from 'fs';
import { VIEW_TYPES_FILE, tsType, viewSchemas, viewTypesTs, type ViewSchema } from '../../scripts/lib/view-types';

/** One property of one answer's schema (throws when it is not there, so the test says which). */
function property( schemas: Record< string, ViewSchema >, view: string, field: string ): ViewSchema {
	const found = schemas[ view ]?.properties?.[ field ];
	if ( ! found ) {
		throw new Error( `${ view }.${ field } is not in the schemas` );
	}
	return found;
}

describe( "the admin page's types of the answers PHP owns", () => {
	const schemas = viewSchemas();

	it( 'are committed as npm run contracts writes them from the PHP schemas', () => {
		expect( fs.readFileSync( VIEW_TYPES_FILE, 'utf8' ) ).toBe( viewTypesTs( schemas ) );
	} );

	it( 'change when a PHP schema changes (a stale file fails the test above)', () => {
		const changed = structuredClone( schemas );
		property( changed, 'ServiceAccountState', 'role_exists' ).type = 'string';
		expect( viewTypesTs( changed ) ).not.toBe( viewTypesTs( schemas ) );
		expect( viewTypesTs( changed ) ).toContain( '\trole_exists: string;' );
	} );

	it( 'come from core-style schemas: every property typed, described, in the view and edit contexts, read-only', () => {
		for ( const [ name, schema ] of Object.entries( schemas ) ) {
			expect( { name, type: schema.type, $schema: schema.$schema } ).toEqual( {
				name,
				type: 'object',
				$schema: 'http://json-schema.org/draft-04/schema#',
			} );
			expect( typeof schema.title ).toBe( 'string' );
			for ( const [ field, declared ] of Object.entries( schema.properties ?? {} ) ) {
				const where = `${ name }.${ field }`;
				expect( { where, type: typeof declared.type === 'undefined' } ).toEqual( { where, type: false } );
				expect( { where, description: typeof declared.description } ).toEqual( {
					where,
					description: 'string',
				} );
				expect( { where, context: Array.isArray( declared.context ) } ).toEqual( { where, context: true } );
				expect( { where, readonly: declared.readonly } ).toEqual( { where, readonly: true } );
			}
		}
	} );

	it( 'say which fields may be missing or null, as the PHP code answers', () => {
		const types = viewTypesTs( schemas );
		expect( types ).toContain( '\terror?: string;\n' ); // CheckReport: only when the check could not run.
		expect( types ).toContain( '\tpayload?: string;\n' ); // InboundEvent: one event only.
		expect( types ).toContain( '\tlast_used: string | null;\n' );
		expect( types ).toContain( "\tstatus: 'received' | 'processed' | 'failed';\n" );
		expect( property( schemas, 'ServiceAccountState', 'account' ).type ).toEqual( [ 'object', 'null' ] );
	} );

	it.each( [
		[ { type: 'string', enum: [ 'a', "b'c" ] }, "'a' | 'b\\'c'" ],
		[ { type: [ 'integer', 'null' ] }, 'number | null' ],
		[ { type: 'array', items: { type: [ 'string', 'null' ] } }, '( string | null )[]' ],
		[ { type: 'array' }, 'unknown[]' ],
		[ { type: 'object', additionalProperties: { type: 'boolean' } }, 'Record< string, boolean >' ],
		[ { type: 'object' }, 'Record< string, unknown >' ],
		[
			{ type: 'object', properties: { a: { type: 'boolean' }, b: { type: 'string' } }, required: [ 'a' ] },
			'{\n\ta: boolean;\n\tb?: string;\n}',
		],
	] )( 'convert %j to %s', ( schema, type ) => {
		expect( tsType( schema, 0 ) ).toBe( type );
	} );

	it( "write an object of another answer's shape as that answer's type, not its fields again", () => {
		const event = { type: 'object', properties: { id: { type: 'integer' } }, required: [ 'id' ] };
		const named = new Map( [
			[ JSON.stringify( { properties: event.properties, required: event.required } ), 'Event' ],
		] );
		expect( tsType( { type: 'array', items: event }, 0, named ) ).toBe( 'Event[]' );
		expect( tsType( { ...event, type: [ 'object', 'null' ] }, 0, named ) ).toBe( 'Event | null' );
		expect( tsType( { ...event, required: [] }, 0, named ) ).toBe( '{\n\tid?: number;\n}' );
		expect( viewTypesTs( schemas ) ).toContain( '\tevents: InboundEvent[];\n' );
		expect( viewTypesTs( schemas ) ).toContain( 'export type InboundEvent = {\n' );
	} );

	it( 'refuse a schema keyword they cannot express rather than guess', () => {
		expect( () => tsType( { type: 'file' }, 0 ) ).toThrow( 'Unsupported type in an answer schema: file' );
	} );
} );

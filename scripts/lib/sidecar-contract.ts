/**
 * The PHP side of the contract the sidecar owns: plugin/includes/class-sidecar-contract.php,
 * written from sidecar/src/contracts/ (its constants, its request schemas turned into REST
 * route arguments and its answers into the proxy routes' response schemas, both through zod's
 * JSON Schema). `npm run contracts` writes it; the unit test tests/unit/contracts.test.ts fails
 * while the committed file differs from what this makes.
 */
import path from 'path';
import { z } from 'zod';
import {
	API_ERROR_CODES,
	DELIVERY_STATUSES,
	EVENT_ID_PATTERN,
	EVENT_TYPES,
	FORWARDED_HEADER_PREFIX,
	INBOUND_DEADLINE_HEADER,
	INBOUND_OUTCOMES,
	INBOUND_REFUSAL_CODES,
	INBOUND_SCHEMES,
	SOURCE_ID_PATTERN,
	SOURCE_STATUSES,
	STORE_ERROR_CODES,
	TEST_EVENT_TYPE,
} from '../../sidecar/src/contracts/constants';
import { PROXIED_REQUESTS, REPLAY_MAX_LIMIT } from '../../sidecar/src/contracts/requests';
import { phpArray, NO_SHARING, type PartReader, type Sharing } from './php-array';
import { phpLiteral } from './php-literal';
import { findSharedParts, type Json, type SharedPart } from './shared-parts';
import { PLUGIN_DIR } from './paths';
import { responseSchemas, viewProperties } from './sidecar-responses';
import { nullableAsTypeList, tellsWordPress, type JsonSchema } from './wordpress-schema';

export const SIDECAR_CONTRACT_FILE = path.join( PLUGIN_DIR, 'includes', 'class-sidecar-contract.php' );

/** The keys of a JSON Schema a REST route argument keeps, in the order WordPress's own args list them. */
const ARG_KEYS = [
	'description',
	'type',
	'enum',
	'format',
	'pattern',
	'minLength',
	'maxLength',
	'minimum',
	'maximum',
	'items',
	'minItems',
	'maxItems',
	'required',
] as const;

/**
 * One property of zod's JSON Schema as a REST argument (nullable as a type list, see
 * wordpress-schema.ts); defaults stay the sidecar's to apply.
 */
function restArg( schema: JsonSchema, required: boolean ): JsonSchema {
	const source = nullableAsTypeList( schema );
	const arg: JsonSchema = {};
	for ( const key of ARG_KEYS ) {
		if ( key === 'required' ) {
			if ( required ) {
				arg.required = true;
			}
		} else if ( ! tellsWordPress( source, key ) ) {
			continue;
		} else if ( key === 'items' ) {
			arg.items = restArg( source.items as JsonSchema, false );
		} else {
			arg[ key ] = source[ key ];
		}
	}
	return arg;
}

/** Each proxied request's fields as REST route arguments, by request name. */
export function requestArgs(): Record< string, Record< string, JsonSchema > > {
	return Object.fromEntries(
		Object.entries( PROXIED_REQUESTS ).map( ( [ name, schema ] ) => {
			const json = z.toJSONSchema( schema, { io: 'input', unrepresentable: 'any' } ) as JsonSchema;
			const required = new Set( ( json.required as string[] | undefined ) ?? [] );
			const properties = json.properties as Record< string, JsonSchema >;
			return [
				name,
				Object.fromEntries(
					Object.entries( properties ).map( ( [ field, property ] ) => [
						field,
						restArg( property, required.has( field ) ),
					] )
				),
			];
		} )
	);
}

/**
 * How each kind of shared part is read: a field or an argument from the array its function
 * returned; a view's properties by calling the view's function, with the fields when it reads any.
 */
function partReader( readingFields: Set< string > ): PartReader {
	return ( part ) => {
		const [ kind, name ] = part.name.split( ':' ) as [ string, string | undefined ];
		if ( name !== undefined ) {
			return `$${ kind }s[${ phpLiteral( name ) }]`;
		}
		return readingFields.has( kind ) ? `self::${ kind }( $fields )` : `self::${ kind }()`;
	};
}

type PartKind = 'view' | 'field' | 'arg';

/** What a shared part is: a view's properties (named after the view), a field or an argument (named kind:name). */
function kindOf( part: SharedPart ): PartKind {
	return part.name.includes( ':' ) ? ( part.name.split( ':' )[ 0 ] as 'field' | 'arg' ) : 'view';
}

/** The parts of one kind (field or arg), as the array of them its function returns. */
function partsOfKind( kind: string, shared: Map< string, SharedPart > ): Record< string, Json > {
	return Object.fromEntries(
		[ ...shared.values() ]
			.filter( ( part ) => part.name.startsWith( `${ kind }:` ) )
			.map( ( part ) => [ part.name.slice( kind.length + 1 ), part.value ] )
	);
}

/** The body of a view's function. */
function viewBody( part: SharedPart, sharing: Sharing ): string {
	return phpArray( part.value, '\t\t', sharing, 'properties', true );
}

/** The views whose functions read $fields (directly, or through a view they call), found to a fixed point. */
function viewsReadingFields( views: SharedPart[], parts: Map< string, SharedPart > ): Set< string > {
	let reading = new Set( views.map( ( view ) => view.name ) );
	for (;;) {
		const sharing = { parts, read: partReader( reading ) };
		const next = new Set(
			views.filter( ( view ) => viewBody( view, sharing ).includes( '$fields' ) ).map( ( view ) => view.name )
		);
		if ( next.size === reading.size ) {
			return next;
		}
		reading = next;
	}
}

/** A view's function: its properties, reading the recurring fields from $fields when it uses any. */
function viewFunction( part: SharedPart, sharing: Sharing, readsFields: boolean ): string {
	const param = readsFields
		? '\n\t * @param array<string, array<string, mixed>> $fields The recurring fields, from fields().'
		: '';
	return `
	/**
	 * The properties of ${ part.name.replace( /_properties$/, '' ).toUpperCase() } (sidecar/src/contracts/).
	 *${ param }
	 * @return array<string, mixed>
	 */
	private static function ${ part.name }(${ readsFields ? ' array $fields ' : '' }): array {
		return ${ viewBody( part, sharing ) };
	}
`;
}

/** The constants the plugin shares with the sidecar: name, the sidecar's value, what it is. */
function constants(): [ string, unknown, string ][] {
	const whole = ( pattern: RegExp ) => pattern.source.replace( /^\^/, '' ).replace( /\$$/, '' );
	return [
		[ 'EVENT_TYPES', EVENT_TYPES, 'The outbound event types.' ],
		[
			'EVENT_ID_PATTERN',
			whole( EVENT_ID_PATTERN ),
			'An event id, unanchored (no dot: ids are signed as id.timestamp.body).',
		],
		[ 'DELIVERY_STATUSES', DELIVERY_STATUSES, "A delivery's statuses." ],
		[ 'INBOUND_SCHEMES', INBOUND_SCHEMES, 'The signature schemes of inbound sources.' ],
		[ 'SOURCE_STATUSES', SOURCE_STATUSES, "An inbound source's statuses." ],
		[ 'SOURCE_ID_PATTERN', whole( SOURCE_ID_PATTERN ), "An inbound source's slug, unanchored." ],
		[
			'INBOUND_OUTCOMES',
			INBOUND_OUTCOMES,
			'What an entry of the inbound verification log says the sender was told.',
		],
		[
			'INBOUND_REFUSAL_CODES',
			INBOUND_REFUSAL_CODES,
			'The refusals of an inbound verification, passed to the sender unchanged.',
		],
		[
			'STORE_ERROR_CODES',
			STORE_ERROR_CODES,
			"The sidecar's 503 codes about its database: unreachable, or busy (a statement timed out).",
		],
		[ 'TEST_EVENT_TYPE', TEST_EVENT_TYPE, 'The type of a test event, sent to one endpoint on request.' ],
		[
			'API_ERROR_CODES',
			API_ERROR_CODES,
			"The codes of the sidecar API's refusals, each with a translated message (Sidecar_Messages).",
		],
		[
			'INBOUND_DEADLINE_HEADER',
			INBOUND_DEADLINE_HEADER,
			"The header carrying the receiving route's deadline for a verdict (Unix milliseconds).",
		],
		[
			'FORWARDED_HEADER_PREFIX',
			FORWARDED_HEADER_PREFIX,
			"The prefix under which the receiving route forwards a provider's headers.",
		],
		[ 'REPLAY_MAX_LIMIT', REPLAY_MAX_LIMIT, 'The most events one range replay takes.' ],
	];
}

/** The keys every response property has (sidecar-responses.ts), which PHP's read_only() adds back. */
const READ_ONLY_KEYS = [ 'context', 'readonly' ];

/** A response schema without the keys read_only() adds to each of its properties. */
function withoutReadOnly( schema: JsonSchema ): JsonSchema {
	const out: JsonSchema = {};
	for ( const [ key, value ] of Object.entries( schema ) ) {
		if ( key === 'properties' ) {
			out.properties = Object.fromEntries(
				Object.entries( value as Record< string, JsonSchema > ).map( ( [ name, property ] ) => [
					name,
					Object.fromEntries(
						Object.entries( withoutReadOnly( property ) ).filter(
							( [ propertyKey ] ) => ! READ_ONLY_KEYS.includes( propertyKey )
						)
					),
				] )
			);
		} else if ( key === 'items' ) {
			out.items = withoutReadOnly( value as JsonSchema );
		} else {
			out[ key ] = value;
		}
	}
	return out;
}

/** A view's properties, recurring in the answers, become the function named after the view. */
function viewNames(): Map< string, string > {
	return new Map(
		Object.entries( viewProperties() ).map( ( [ name, properties ] ) => [
			JSON.stringify( withoutReadOnly( { properties } ).properties ),
			`${ name.toLowerCase() }_properties`,
		] )
	);
}

/**
 * What a recurring part may be called: a view's properties after the view (a function); a field
 * of the answers or an argument of the requests by its name, or, when another took that name,
 * prefixed with what holds it (entries of field() and arg()); nothing for the rest (inline).
 */
function sharedPartNames( keys: string[], value: unknown, views: Map< string, string > ): string[] {
	const last = keys[ keys.length - 1 ] as string;
	const holder = keys
		.slice( 0, -1 )
		.reverse()
		.find( ( key ) => key !== 'properties' && key !== 'items' );
	if ( last === 'properties' ) {
		const view = views.get( JSON.stringify( value ) );
		return view ? [ view ] : [];
	}
	const isObject = JSON.stringify( value ).includes( '"properties":' );
	if ( keys[ keys.length - 2 ] === 'properties' && ! isObject ) {
		return [ `field:${ last }`, `field:${ holder }.${ last }` ];
	}
	if ( keys[ 0 ] === 'requests' && keys.length === 3 && ! isObject ) {
		return [ `arg:${ last }`, `arg:${ holder }.${ last }` ];
	}
	return [];
}

/** Every `properties` map in $value, at any depth. */
function propertyMaps( value: unknown ): Record< string, unknown >[] {
	if ( value === null || typeof value !== 'object' ) {
		return [];
	}
	const own = ( value as JsonSchema ).properties as Record< string, unknown > | undefined;
	return [ ...( own && ! Array.isArray( value ) ? [ own ] : [] ), ...Object.values( value ).flatMap( propertyMaps ) ];
}

/**
 * The views whose properties begin two or more of the answers' property maps (as they are, or
 * extended, as the delivery with its attempts): shared even when they occur whole only once.
 */
function extendedViews( responses: unknown, views: Map< string, string > ): Map< string, SharedPart > {
	const maps = propertyMaps( responses ).map( ( map ) =>
		Object.entries( map ).map( ( entry ) => JSON.stringify( entry ) )
	);
	const given = new Map< string, SharedPart >();
	for ( const [ json, name ] of views ) {
		const value = JSON.parse( json ) as { [ key: string ]: Json };
		const entries = Object.entries( value ).map( ( entry ) => JSON.stringify( entry ) );
		const uses = maps.filter( ( map ) => entries.every( ( entry, index ) => map[ index ] === entry ) ).length;
		if ( uses >= 2 && entries.length > 1 ) {
			given.set( json, { name, value, path: [ 'responses' ] } );
		}
	}
	return given;
}

/**
 * The lines of requests() that get the arrays its body reads: fields() (which args() may read
 * too) and args(), aligned as WordPress Coding Standards align consecutive assignments.
 */
function requestsReads( body: string, argsReadFields: boolean ): string {
	const reads: [ string, string ][] = [];
	if ( body.includes( '$fields' ) || argsReadFields ) {
		reads.push( [ '$fields', 'self::fields()' ] );
	}
	if ( body.includes( '$args' ) ) {
		reads.push( [ '$args', `self::args(${ argsReadFields ? ' $fields ' : '' })` ] );
	}
	const width = Math.max( 0, ...reads.map( ( [ variable ] ) => variable.length ) );
	return reads.map( ( [ variable, call ] ) => `\t\t${ variable.padEnd( width ) } = ${ call };\n` ).join( '' );
}

/** The whole generated file. */
export function sidecarContractPhp(): string {
	const constLines = constants().map(
		( [ name, value, doc ] ) => `\t/** ${ doc } */\n\tconst ${ name } = ${ phpArray( value, '\t', NO_SHARING ) };\n`
	);
	const requests = requestArgs();
	const responses = Object.fromEntries(
		Object.entries( responseSchemas() ).map( ( [ title, schema ] ) => [ title, withoutReadOnly( schema ) ] )
	);
	const views = viewNames();
	// Found together, the answers first: a part that stands in both is a field of the answers, which
	// an argument reads (answers never read the requests' arguments).
	const parts = findSharedParts(
		{ responses, requests } as { [ key: string ]: Json },
		( keys, value ) => sharedPartNames( keys, value, views ),
		extendedViews( responses, views )
	);
	const ofKind = ( kinds: PartKind[] ) =>
		new Map( [ ...parts ].filter( ( [ , part ] ) => kinds.includes( kindOf( part ) ) ) );
	const viewParts = [ ...ofKind( [ 'view' ] ).values() ];
	const read = partReader( viewsReadingFields( viewParts, ofKind( [ 'view', 'field' ] ) ) );
	// The fields print whole in their own function, the arguments in theirs: neither read from itself.
	const answers: Sharing = { parts: ofKind( [ 'view', 'field' ] ), read };
	const onlyViews: Sharing = { parts: ofKind( [ 'view' ] ), read };
	const argsBody = phpArray( partsOfKind( 'arg', parts ), '\t\t', answers );
	const argsReadFields = argsBody.includes( '$fields' );
	const requestsBody = phpArray( requests, '\t\t', { parts, read } );
	return `<?php
/**
 * Generated by \`npm run contracts\` from sidecar/src/contracts/ (constants.ts, requests.ts,
 * views.ts, responses.ts): do not edit. Change the sidecar's sources and run it again;
 * tests/unit/contracts.test.ts fails while this file differs from them.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The values the plugin shares with the sidecar, the fields of the requests WordPress forwards
 * to it, as the sidecar checks them, and what the sidecar answers. A field that recurs (in the
 * answers, or as an argument too) is an entry of fields(), an argument that recurs one of args(),
 * an argument that is a field with limits of its own is that field plus them, a view that recurs
 * is a function of its own, and a property that is a description, a type and at most one more key
 * is one call of property(). Each description is translated in one place.
 */
final class Sidecar_Contract {

${ constLines.join( '\n' ) }
	/**
	 * Each forwarded request's fields as REST route arguments (description, type, limits), by
	 * request name (PROXIED_REQUESTS in sidecar/src/contracts/requests.ts).
	 *
	 * @return array<string, array<string, array<string, mixed>>>
	 */
	public static function requests(): array {
${ requestsReads( requestsBody, argsReadFields ) }		return ${ requestsBody };
	}

	/**
	 * Each proxy route's response schema (title, properties with descriptions), by title
	 * (PROXIED_RESPONSES in sidecar/src/contracts/responses.ts).
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function responses(): array {
		$fields = self::fields();
		return array_map(
			static fn( array $schema ): array => self::read_only( $schema ),
			${ phpArray( responses, '\t\t\t', answers ) }
		);
	}

	/**
	 * Every property of $schema, at any depth, in both contexts and read-only, as core's
	 * controllers describe their answers (what follows leaves that out).
	 *
	 * @param array<string, mixed> $schema A schema.
	 * @return array<string, mixed>
	 */
	private static function read_only( array $schema ): array {
		foreach ( $schema['properties'] ?? array() as $name => $property ) {
			$schema['properties'][ $name ] = self::read_only( $property ) + array(
				'context'  => array( 'view', 'edit' ),
				'readonly' => true,
			);
		}
		if ( isset( $schema['items'] ) ) {
			$schema['items'] = self::read_only( $schema['items'] );
		}
		return $schema;
	}

	/**
	 * A property or an argument: its description and type, then the rest of its schema, in that
	 * order (what most of those below are, each on one line).
	 *
	 * @param string|string[]      $type        Its JSON Schema type, or types.
	 * @param string               $description What it is, translated.
	 * @param array<string, mixed> $schema      The rest of its schema.
	 * @return array<string, mixed>
	 */
	private static function property( string|array $type, string $description, array $schema = array() ): array {
		return array(
			'description' => $description,
			'type'        => $type,
		) + $schema;
	}
${ viewParts.map( ( part ) => viewFunction( part, answers, answers.read( part ).includes( '$fields' ) ) ).join( '' ) }
	/**
	 * The fields that recur in the answers, by name (prefixed with what holds them where two
	 * differ).
	 *
	 * @return array<string, array<string, mixed>>
	 */
	private static function fields(): array {
		return ${ phpArray( partsOfKind( 'field', parts ), '\t\t', onlyViews ) };
	}

	/**
	 * The arguments that recur in the requests, by name (prefixed with the request where two
	 * differ).
	 *${ argsReadFields ? '\n\t * @param array<string, array<string, mixed>> $fields The recurring fields, from fields().' : '' }
	 * @return array<string, array<string, mixed>>
	 */
	private static function args(${ argsReadFields ? ' array $fields ' : '' }): array {
		return ${ argsBody };
	}
}
`;
}

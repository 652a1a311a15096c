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
	TEST_EVENT_TYPE,
} from '../../sidecar/src/contracts/constants';
import { PROXIED_REQUESTS, REPLAY_MAX_LIMIT } from '../../sidecar/src/contracts/requests';
import { phpLiteral } from './php-literal';
import { PLUGIN_DIR } from './paths';
import { responseSchemas } from './sidecar-responses';
import { nullableAsTypeList, tellsWordPress, type JsonSchema } from './wordpress-schema';

export const SIDECAR_CONTRACT_FILE = path.join( PLUGIN_DIR, 'includes', 'class-sidecar-contract.php' );

const TEXT_DOMAIN = 'service-integration';

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
 * WordPress Coding Standards' column limit for aligned array arrows (WordPress-Core sets
 * WordPress.Arrays.MultipleStatementAlignment's maxColumn to 60): a key ending past it is
 * followed by one space, the others line their arrows up one space after the longest of them.
 */
const ARROW_MAX_COLUMN = 60;

/** The spaces between an array key and its arrow, as WordPress.Arrays.MultipleStatementAlignment wants them (tab width 4). */
function arrowSpaces( inner: string, entries: [ string, unknown ][], name: string ): number {
	const firstColumn = inner.length * 4 + 1;
	const lastColumn = ( key: string ) => firstColumn + phpLiteral( key ).length - 1;
	const aligned = entries
		.map( ( [ key ] ) => lastColumn( key ) )
		.filter( ( column ) => column + 2 <= ARROW_MAX_COLUMN );
	if ( lastColumn( name ) + 2 > ARROW_MAX_COLUMN || aligned.length === 0 ) {
		return 1;
	}
	return Math.max( ...aligned ) + 1 - lastColumn( name );
}

/** A value as WordPress-style PHP (tabs, `array( … )`, aligned arrows); descriptions are translatable. */
function php( value: unknown, indent: string, key?: string ): string {
	if ( Array.isArray( value ) ) {
		return `array( ${ value.map( ( item ) => php( item, indent ) ).join( ', ' ) } )`;
	}
	if ( value !== null && typeof value === 'object' ) {
		const entries = Object.entries( value );
		if ( entries.length === 0 ) {
			// A request without fields (endpoint.test): WordPress Coding Standards want `array()`.
			return 'array()';
		}
		const inner = indent + '\t';
		const lines = entries.map(
			( [ name, item ] ) =>
				`${ inner }${ phpLiteral( name ) }${ ' '.repeat( arrowSpaces( inner, entries, name ) ) }=> ${ php( item, inner, name ) },`
		);
		return `array(\n${ lines.join( '\n' ) }\n${ indent })`;
	}
	if ( key === 'description' ) {
		return `__( ${ phpLiteral( value ) }, '${ TEXT_DOMAIN }' )`;
	}
	return value === null ? 'null' : phpLiteral( value );
}

/** The constants the plugin shares with the sidecar: name, the sidecar's value, what it is. */
function constants(): [ string, unknown, string ][] {
	const whole = ( pattern: RegExp ) => pattern.source.replace( /^\^/, '' ).replace( /\$$/, '' );
	return [
		[ 'EVENT_TYPES', EVENT_TYPES, 'The outbound event types.' ],
		[ 'TEST_EVENT_TYPE', TEST_EVENT_TYPE, 'The type of a test event, sent to one endpoint on request.' ],
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
			'INBOUND_DEADLINE_HEADER',
			INBOUND_DEADLINE_HEADER,
			"The header carrying the receiving route's deadline for a verdict (Unix milliseconds).",
		],
		[
			'FORWARDED_HEADER_PREFIX',
			FORWARDED_HEADER_PREFIX,
			"The prefix under which the receiving route forwards a provider's headers.",
		],
		[
			'API_ERROR_CODES',
			API_ERROR_CODES,
			"The codes of the sidecar API's refusals, each with a translated message (Sidecar_Messages).",
		],
		[ 'REPLAY_MAX_LIMIT', REPLAY_MAX_LIMIT, 'The most events one range replay takes.' ],
	];
}

/** The whole generated file. */
export function sidecarContractPhp(): string {
	const constLines = constants().map(
		( [ name, value, doc ] ) => `\t/** ${ doc } */\n\tconst ${ name } = ${ php( value, '\t' ) };\n`
	);
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
 * to it, as the sidecar checks them, and what the sidecar answers.
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
		return ${ php( requestArgs(), '\t\t' ) };
	}

	/**
	 * Each proxy route's response schema (title, properties with descriptions), by title
	 * (PROXIED_RESPONSES in sidecar/src/contracts/responses.ts).
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public static function responses(): array {
		return ${ php( responseSchemas(), '\t\t' ) };
	}
}
`;
}

import fs from 'fs';
import path from 'path';
import type { RestClient, RestResult } from '../../../scripts/lib/rest-client';
import { ROOT } from '../../../scripts/lib/paths';

/** The plugin's abilities, as WordPress's Abilities API names them. */
export const LIST_PAID_ORDERS = 'service-integration/list-paid-orders';
export const CREATE_MANUFACTURING_ORDER = 'service-integration/create-manufacturing-order';
export const GET_MANUFACTURING_ORDER = 'service-integration/get-manufacturing-order';
export const ABILITIES = '/wp-abilities/v1/abilities';

/** An ability as the listing (GET /wp-abilities/v1/abilities) describes it. */
export interface AbilityInfo {
	name: string;
	label: string;
	description: string;
	category: string;
	input_schema: { type?: string; properties?: Record< string, Record< string, unknown > >; required?: string[] };
	output_schema: { type?: string; properties?: Record< string, Record< string, unknown > > };
	meta: { annotations: Record< string, boolean | null >; show_in_rest?: boolean; [ key: string ]: unknown };
}

/**
 * PHP's bracket notation for a value in a query string (`input[meta][items][0][sku]=…`), the
 * way a GET run of a read-only ability takes its input.
 */
function bracketed( prefix: string, value: unknown, into: URLSearchParams ): URLSearchParams {
	if ( value !== null && typeof value === 'object' ) {
		for ( const [ key, inner ] of Object.entries( value ) ) {
			bracketed( `${ prefix }[${ key }]`, inner, into );
		}
	} else if ( value !== undefined ) {
		into.append( prefix, String( value ) );
	}
	return into;
}

/**
 * Runs an ability over HTTP the way the Abilities API serves it: GET with `input` in the query for
 * a read-only ability, POST with `{ input }` as JSON otherwise (or the method given, to test a
 * wrong one). Each run is written to the transcript (method, path, status, start of the body).
 */
export async function runAbility< T = unknown >(
	client: RestClient,
	name: string,
	input?: unknown,
	method: 'GET' | 'POST' | 'DELETE' = name === CREATE_MANUFACTURING_ORDER ? 'POST' : 'GET',
	who = '-u "$SERVICE"'
): Promise< RestResult< T > > {
	let requestPath = `${ ABILITIES }/${ name }/run`;
	let data: unknown;
	if ( method === 'POST' ) {
		data = input === undefined ? {} : { input };
	} else if ( input !== undefined ) {
		requestPath += `?${ bracketed( 'input', input, new URLSearchParams() ).toString() }`;
	}
	const result = await client.request< T >( { method, path: requestPath, data } );
	transcript( method, requestPath, data, result, who );
	return result;
}

const TRANSCRIPT = path.join( ROOT, 'test-artifacts', 'logs', 'abilities-transcript.log' );

/**
 * Appends one exchange, as curl would show it, to test-artifacts/logs/abilities-transcript.log;
 * `who` is curl's credentials option (the service account's by default, '' for none).
 */
export function transcript(
	method: string,
	requestPath: string,
	data: unknown,
	result: RestResult,
	who = '-u "$SERVICE"'
): void {
	fs.mkdirSync( path.dirname( TRANSCRIPT ), { recursive: true } );
	const body = data === undefined ? '' : ` -H 'content-type: application/json' -d '${ JSON.stringify( data ) }'`;
	const text = result.text.length > 1200 ? `${ result.text.slice( 0, 1200 ) }…` : result.text;
	fs.appendFileSync(
		TRANSCRIPT,
		`$ curl -s ${ who ? `${ who } ` : '' }-X ${ method } "$SITE/wp-json${ requestPath }"${ body }\n< HTTP ${ result.status }\n${ text }\n\n`
	);
}

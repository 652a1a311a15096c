import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import type { InboundScheme } from '../../../sidecar/src/inbound/verify';
import { providerSecret, type SignedWebhook } from '../../support/inbound-signers';
import { adminClient } from './clients';
import { cronUntil } from './cron';
import { readState } from './environment';
import type { InboundEvent, InboundEventPage as EventPage } from '../../../plugin/admin/src/api/generated/views';

/** What senders, the admin proxy routes and the test recorder plugin look like from a test. */
export const RECEIVER_NAMESPACE = 'service-integration-inbound/v1';
export const ADMIN = '/service-integration/v1/inbound';
export const RECORDER_PLUGIN = 'inbound-recorder/inbound-recorder';

export interface Answer< T = any > {
	status: number;
	headers: Headers;
	body: T;
	text: string;
}

export interface SendOptions {
	method?: string;
	contentType?: string | null;
}

/** A sender on the internet: no WordPress credentials, just the provider's headers and body (bytes when it is not text). */
export async function sendWebhook(
	source: string,
	webhook: SignedWebhook | { body: Buffer; headers: Record< string, string > },
	options: SendOptions = {}
): Promise< Answer > {
	const headers: Record< string, string > = { cookie: PLAYGROUND_COOKIE, ...webhook.headers };
	const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
	if ( contentType !== null ) {
		headers[ 'content-type' ] = contentType;
	}
	const method = options.method ?? 'POST';
	const body = typeof webhook.body === 'string' ? webhook.body : new Uint8Array( webhook.body );
	const response = await fetch( receivingUrl( source ), {
		method,
		headers,
		body: method === 'GET' || method === 'HEAD' ? undefined : body,
		redirect: 'manual',
	} );
	const text = await response.text();
	let answer: unknown = text;
	try {
		answer = text ? JSON.parse( text ) : null;
	} catch {
		// Keep the text for the assertion message.
	}
	return { status: response.status, headers: response.headers, body: answer, text };
}

export function receivingUrl( source: string ): string {
	return `${ readState().siteUrl }/wp-json/${ RECEIVER_NAMESPACE }/${ source }`;
}

export interface CreatedSource {
	id: string;
	secret: string;
	receiving_url: string;
	[ key: string ]: unknown;
}

/**
 * Creates a source through the admin proxy, the way a site owner does: Standard Webhooks
 * gets a generated secret (shown once); the other providers issue theirs, which is pasted in.
 */
export async function createSource(
	id: string,
	scheme: InboundScheme,
	extra: Record< string, unknown > = {}
): Promise< CreatedSource > {
	const admin = adminClient();
	await admin.request( { method: 'DELETE', path: `${ ADMIN }/sources/${ id }` } );
	const given = providerSecret( scheme );
	const created = await admin.post< CreatedSource >( `${ ADMIN }/sources`, {
		id,
		scheme,
		...( given ? { secret: given } : {} ),
		...extra,
	} );
	if ( created.status !== 201 ) {
		throw new Error(
			`Could not create source ${ id }: HTTP ${ created.status } ${ JSON.stringify( created.body ) }`
		);
	}
	return { ...created.body, secret: given ?? created.body.secret };
}

/** The events routes' answers, as their schemas say (types generated from plugin/includes/Rest/Schemas/). */
export type { InboundEvent, EventPage };

export async function listEvents( query: Record< string, string | number > = {} ): Promise< EventPage > {
	const search = new URLSearchParams(
		Object.entries( { per_page: 100, ...query } ).map( ( [ k, v ] ) => [ k, String( v ) ] )
	);
	const answer = await adminClient().get< EventPage >( `${ ADMIN }/events?${ search }` );
	if ( answer.status !== 200 ) {
		throw new Error( `Listing events failed: HTTP ${ answer.status } ${ JSON.stringify( answer.body ) }` );
	}
	return answer.body;
}

/** Every stored event (all sources): the "no trace" checks compare this before and after. */
export async function totalEvents(): Promise< number > {
	return ( await listEvents( { per_page: 1 } ) ).total;
}

export async function eventsFor( source: string, eventId: string ): Promise< InboundEvent[] > {
	return ( await listEvents( { source, event_id: eventId } ) ).events;
}

/** The inbound processor's sweep period (Inbound_Processor::SCHEDULE, five minutes). */
export const INBOUND_SWEEP_MS = 5 * 60_000;

/** Inbound_Processor::SWEEP_HOOK: processes what is due, whatever kick was lost. */
export const INBOUND_SWEEP_HOOK = 'service_integration_inbound_sweep';

/** Runs cron until `check` returns a value (support/cron.ts), the inbound sweep catching up a lost kick. */
export function inboundCronUntil< T >(
	check: () => Promise< T | undefined | false >,
	what: string,
	timeoutMs?: number
): Promise< T > {
	return cronUntil( check, what, { catchUpHooks: [ INBOUND_SWEEP_HOOK ], timeoutMs } );
}

export interface RecordedCall {
	hook: 'generic' | 'source';
	source: string;
	event_id: string;
	type: string;
	data: unknown;
	attempt: number;
	threw: boolean;
}

export async function recordedCalls( source?: string, eventId?: string ): Promise< RecordedCall[] > {
	const answer = await adminClient().get< { calls: RecordedCall[] } >( '/inbound-recorder/v1/calls' );
	if ( answer.status !== 200 ) {
		throw new Error( `Reading the recorder failed: HTTP ${ answer.status } ${ JSON.stringify( answer.body ) }` );
	}
	return answer.body.calls.filter(
		( call ) =>
			( source === undefined || call.source === source ) && ( eventId === undefined || call.event_id === eventId )
	);
}

/** Raw text of the recorder's answer (to see 64-bit integers exactly as PHP encoded them). */
export async function recordedCallsText(): Promise< string > {
	const { siteUrl, admin } = readState();
	const response = await fetch( `${ siteUrl }/wp-json/inbound-recorder/v1/calls`, {
		headers: {
			cookie: PLAYGROUND_COOKIE,
			authorization:
				'Basic ' + Buffer.from( `${ admin.username }:${ admin.applicationPassword }` ).toString( 'base64' ),
		},
	} );
	return response.text();
}

export async function failFirst( source: string, eventId: string, times: number ): Promise< void > {
	const answer = await adminClient().post( '/inbound-recorder/v1/fail', { source, event_id: eventId, times } );
	if ( answer.status !== 200 ) {
		throw new Error( `Configuring the recorder failed: HTTP ${ answer.status }` );
	}
}

/** Runs `fn` over `items` with at most `limit` at a time, keeping the results in order. */
export async function pooled< T, R >(
	items: T[],
	limit: number,
	fn: ( item: T, index: number ) => Promise< R >
): Promise< R[] > {
	const results: R[] = new Array( items.length );
	let next = 0;
	await Promise.all(
		Array.from( { length: Math.min( limit, items.length ) }, async () => {
			while ( next < items.length ) {
				const index = next++;
				results[ index ] = await fn( items[ index ] as T, index );
			}
		} )
	);
	return results;
}

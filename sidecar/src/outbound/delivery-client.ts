import type { ClaimedDelivery } from '../model/deliveries';
import type { Endpoint } from '../model/endpoints';
import type { AttemptOutcome } from './retry-policy';
import { postOnce, ResponseTooLargeError, type Canceller } from './http-post';
import { buildDeliveryHeaders } from './signing';
import { createGuardedAgents } from './url-guard';

export interface DeliveryClientOptions {
	allowCidrs: string[];
	timeoutMs: number;
	/** Sent as x-wc-webhook-source to endpoints that want WooCommerce-style headers. */
	sourceUrl?: string;
}

export interface AttemptRequest {
	url: string;
	endpointId: string;
	eventId: string;
	eventType: string;
	payload: string;
	/** Unexpired secrets, newest first: one signature each, so rotation is seamless. */
	secrets: string[];
	wcCompatSignature: boolean;
}

/** The attempt at one claimed delivery, signed with the endpoint's secrets still valid at `now`. */
export function attemptRequestFor( endpoint: Endpoint, claimed: ClaimedDelivery, now: number ): AttemptRequest {
	return {
		url: endpoint.url,
		endpointId: endpoint.id,
		eventId: claimed.eventId,
		eventType: claimed.eventType,
		payload: claimed.payload,
		secrets: endpoint.secrets.filter( ( s ) => s.expiresAt === null || s.expiresAt > now ).map( ( s ) => s.secret ),
		wcCompatSignature: endpoint.wcCompatSignature,
	};
}

export interface AttemptResult {
	outcome: AttemptOutcome;
	statusCode: number | null;
	errorCode: string | null;
	responseExcerpt: string | null;
	startedAt: number;
	durationMs: number;
}

export const RESPONSE_EXCERPT_BYTES = 1024;
// Bodies are read only for the excerpt; a bigger one is cut off and counts as a failure.
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** The first `maxBytes` of text as UTF-8, never splitting a character. */
export function utf8Excerpt( text: string, maxBytes = RESPONSE_EXCERPT_BYTES ): string {
	// Each UTF-16 unit is at least one UTF-8 byte, so maxBytes + 1 units are always enough.
	const bytes = Buffer.from( text.slice( 0, maxBytes + 1 ), 'utf8' );
	if ( bytes.length <= maxBytes ) {
		return bytes.toString( 'utf8' );
	}
	let end = maxBytes;
	while ( end > 0 && ( ( bytes[ end ] as number ) & 0xc0 ) === 0x80 ) {
		end--; // bytes[end] continues a character that started earlier: cut before it
	}
	return bytes.subarray( 0, end ).toString( 'utf8' );
}

/**
 * One webhook attempt over HTTP: signed Standard Webhooks headers, the stored body
 * bytes as-is, no redirects (a 3xx is a failure: following it would let a receiver
 * bounce us to an internal address), no proxy (it would bypass the URL guard), and
 * connections through the guarded agents. Never throws: every failure is an outcome.
 */
export function createDeliveryClient( options: DeliveryClientOptions ) {
	const agents = createGuardedAgents( { allowCidrs: options.allowCidrs } );

	// The attempts in flight, so close() can cut them short.
	const inFlight = new Set< Canceller >();
	let closed = false;

	async function send( request: AttemptRequest ): Promise< AttemptResult > {
		const startedAt = Date.now();
		const started = performance.now();
		const finish = ( result: Omit< AttemptResult, 'startedAt' | 'durationMs' > ): AttemptResult => ( {
			...result,
			startedAt,
			durationMs: Math.round( performance.now() - started ),
		} );

		let headers: Record< string, string >;
		try {
			headers = buildDeliveryHeaders( {
				id: request.eventId,
				timestampSeconds: Math.floor( startedAt / 1000 ), // fresh per attempt; the id stays the same
				body: request.payload,
				secrets: request.secrets,
				...( request.wcCompatSignature && request.secrets[ 0 ]
					? {
							wooCompatSecret: request.secrets[ 0 ],
							topic: request.eventType,
							wooWebhookId: request.endpointId,
							sourceUrl: options.sourceUrl,
						}
					: {} ),
			} );
		} catch ( error ) {
			return finish( {
				outcome: { kind: 'network-error', code: 'ESIGNING' },
				statusCode: null,
				errorCode: 'ESIGNING',
				responseExcerpt: ( error as Error ).message,
			} );
		}

		// The deadline bounds the whole exchange (not just socket idleness), so a receiver
		// trickling bytes cannot hold a delivery slot forever.
		const canceller: Canceller = {};
		let timedOut = false;
		const timer = setTimeout( () => {
			timedOut = true;
			canceller.cancel?.( cancelledError() );
		}, options.timeoutMs );
		inFlight.add( canceller );
		try {
			if ( closed ) {
				throw Object.assign( new Error( 'the delivery client is closed' ), { code: 'ERR_CANCELED' } );
			}
			const response = await postOnce( request.url, Buffer.from( request.payload, 'utf8' ), {
				headers,
				agents,
				canceller,
				maxResponseBytes: MAX_RESPONSE_BYTES,
			} );
			const retryAfter = response.headers[ 'retry-after' ];
			return finish( {
				outcome: {
					kind: 'response',
					status: response.status,
					retryAfterHeader: typeof retryAfter === 'string' ? retryAfter : undefined,
				},
				statusCode: response.status,
				errorCode: null,
				responseExcerpt: utf8Excerpt( response.text ),
			} );
		} catch ( error ) {
			const raw = ( error as { code?: unknown } ).code;
			let code = typeof raw === 'string' && raw !== '' ? raw : 'ERR_UNKNOWN';
			if ( timedOut ) {
				code = 'ETIMEDOUT';
			} else if ( error instanceof ResponseTooLargeError ) {
				code = 'ERESPONSETOOLARGE';
			}
			return finish( {
				outcome: { kind: 'network-error', code },
				statusCode: null,
				errorCode: code,
				responseExcerpt: utf8Excerpt( ( error as Error ).message ?? '' ),
			} );
		} finally {
			clearTimeout( timer );
			inFlight.delete( canceller );
		}
	}

	/** Aborts attempts in flight (they resolve as ERR_CANCELED) and drops the connections. */
	function close(): void {
		closed = true;
		for ( const canceller of inFlight ) {
			canceller.cancel?.( cancelledError() );
		}
		agents.httpAgent.destroy();
		agents.httpsAgent.destroy();
	}

	return { send, close };
}

export type DeliveryClient = ReturnType< typeof createDeliveryClient >;

/** What an attempt cut short (deadline or close()) fails with; a deadline is then told apart as ETIMEDOUT. */
function cancelledError(): Error {
	return Object.assign( new Error( 'the attempt was aborted' ), { code: 'ERR_CANCELED' } );
}

import type { AttemptOutcome, Decision } from '../outbound/retry-policy';

/**
 * The bounded label values of the delivery metrics. Never a URL, an event id or an error
 * message: only these words (and the endpoint id, of which there are few).
 */
export const DELIVERY_OUTCOMES = [
	'success', // 2xx
	'http_4xx',
	'http_5xx',
	'http_other', // 3xx (redirects are not followed) or any other status that is not 2xx, 4xx, 5xx
	'timeout', // no complete answer within SIDECAR_DELIVERY_TIMEOUT_MS
	'dns', // the host name did not resolve
	'connection_error', // refused, reset, TLS, a response over 1 MB, …
	'blocked', // the URL guard refused the address (SIDECAR_ALLOW_PRIVATE_CIDRS)
	'other', // the attempt could not be made: signing failed, an invalid URL, cancelled at shutdown
] as const;
export type DeliveryOutcome = ( typeof DELIVERY_OUTCOMES )[ number ];

export const GIVE_UP_REASONS = [ 'attempts_exhausted', 'blocked', 'endpoint_gone' ] as const;
export type GiveUpReason = ( typeof GIVE_UP_REASONS )[ number ];

/** gone: the receiver answered 410; failing: no success for SIDECAR_DISABLE_AFTER_HOURS; owner: the disable route. */
export const DISABLE_REASONS = [ 'gone', 'failing', 'owner' ] as const;
export type DisableReason = ( typeof DISABLE_REASONS )[ number ];

const TIMEOUT_CODES = new Set( [ 'ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT' ] );
const DNS_CODES = new Set( [
	'ENOTFOUND',
	'EAI_AGAIN',
	'EAI_FAIL',
	'EAI_NONAME',
	'EAI_NODATA',
	'ENODATA',
	'ESERVFAIL',
	'ENONAME',
	'EREFUSED',
] );
const OTHER_CODES = new Set( [ 'ESIGNING', 'ERR_INVALID_URL', 'ERR_BAD_PROTOCOL', 'ERR_CANCELED' ] );

/** The outcome class of one attempt. */
export function classifyAttempt( outcome: AttemptOutcome ): DeliveryOutcome {
	if ( outcome.kind === 'response' ) {
		const { status } = outcome;
		if ( status >= 200 && status < 300 ) {
			return 'success';
		}
		if ( status >= 400 && status < 500 ) {
			return 'http_4xx';
		}
		if ( status >= 500 && status < 600 ) {
			return 'http_5xx';
		}
		return 'http_other';
	}
	if ( outcome.code === 'EBLOCKED' ) {
		return 'blocked';
	}
	if ( TIMEOUT_CODES.has( outcome.code ) ) {
		return 'timeout';
	}
	if ( DNS_CODES.has( outcome.code ) ) {
		return 'dns';
	}
	if ( OTHER_CODES.has( outcome.code ) ) {
		return 'other';
	}
	return 'connection_error';
}

/** Why a delivery failed for good, or null when the decision is not a give-up. */
export function giveUpReason( decision: Decision, outcome: DeliveryOutcome ): GiveUpReason | null {
	if ( decision.action === 'disable-endpoint' ) {
		return 'endpoint_gone';
	}
	if ( decision.action === 'give-up' ) {
		return outcome === 'blocked' ? 'blocked' : 'attempts_exhausted';
	}
	return null;
}

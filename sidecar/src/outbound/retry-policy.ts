/** 410 Gone: the receiver asks to be sent nothing more; the endpoint is disabled. */
export function saysGone( outcome: AttemptOutcome ): boolean {
	return outcome.kind === 'response' && outcome.status === 410;
}

/**
 * What to do after a delivery attempt. Pure: no I/O; randomness and clock are injectable.
 *
 * Rules (attemptNumber is 1-based and names the attempt just made):
 *  - 2xx                          → succeeded.
 *  - 410 Gone                     → disable-endpoint (the receiver told us to stop).
 *  - network error 'EBLOCKED'     → give-up (URL guard refusal is permanent; retrying won't help).
 *  - no scheduled attempt left    → give-up.
 *  - anything else (3xx, since redirects are not followed; other 4xx/5xx;
 *    network errors)              → retry after scheduleSeconds[attemptNumber] ± jitter.
 *  - 429/502/503/504 and timeouts (ETIMEDOUT/ECONNABORTED) mean "overloaded":
 *                                   delay is at least overloadPenaltySeconds.
 *  - 429/503 with Retry-After     → delay = max(delay, min(retryAfter, 24h)); we never retry
 *                                   sooner than asked, and cap it so one header can't park us.
 * scheduleSeconds[i] is the delay before attempt i+1, so scheduleSeconds[0] (attempt 1)
 * is normally 0 and the schedule length is the total number of attempts.
 */

export interface RetryPolicyConfig {
	scheduleSeconds: number[];
	jitterRatio: number;
	overloadPenaltySeconds: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicyConfig = Object.freeze( {
	// Standard Webhooks' example schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h,
	// 20 h, 24 h: 75 h 35 min) and one more day, so that a receiver down for three days still gets
	// every event from retries alone even when jitter shortens each delay by 20 % (99.6 h nominal,
	// 79.7 h at the shortest), and all retries end before SIDECAR_DISABLE_AFTER_HOURS (120 h).
	scheduleSeconds: Object.freeze( [ 0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400, 86400 ] ) as number[],
	jitterRatio: 0.2,
	overloadPenaltySeconds: 60,
} );

export type AttemptOutcome =
	{ kind: 'response'; status: number; retryAfterHeader?: string } | { kind: 'network-error'; code: string };

export type Decision =
	| { action: 'succeeded' }
	| { action: 'retry'; delaySeconds: number; reason: string }
	| { action: 'give-up'; reason: string }
	| { action: 'disable-endpoint'; reason: string };

const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;
const OVERLOAD_STATUSES = new Set( [ 429, 502, 503, 504 ] );
const RETRY_AFTER_STATUSES = new Set( [ 429, 503 ] );
const TIMEOUT_CODES = new Set( [ 'ETIMEDOUT', 'ECONNABORTED' ] );

function describe( outcome: AttemptOutcome ): string {
	if ( outcome.kind === 'network-error' ) {
		return `network error ${ outcome.code }`;
	}
	const note = outcome.status >= 300 && outcome.status < 400 ? ' (redirects are not followed)' : '';
	return `HTTP ${ outcome.status }${ note }`;
}

function jittered( seconds: number, ratio: number, random: () => number ): number {
	const factor = 1 + ratio * ( 2 * random() - 1 );
	return Math.max( 0, seconds * factor );
}

export function decide(
	outcome: AttemptOutcome,
	attemptNumber: number,
	config: RetryPolicyConfig,
	random: () => number = Math.random,
	nowMs: number = Date.now()
): Decision {
	if ( ! Number.isInteger( attemptNumber ) || attemptNumber < 1 ) {
		throw new RangeError( `attemptNumber must be a positive integer, got ${ attemptNumber }` );
	}
	if ( outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300 ) {
		return { action: 'succeeded' };
	}
	const what = describe( outcome );
	if ( saysGone( outcome ) ) {
		return { action: 'disable-endpoint', reason: `${ what }: endpoint is gone` };
	}
	if ( outcome.kind === 'network-error' && outcome.code === 'EBLOCKED' ) {
		return { action: 'give-up', reason: `${ what }: destination blocked by URL guard` };
	}
	const scheduled = config.scheduleSeconds[ attemptNumber ];
	if ( scheduled === undefined ) {
		return { action: 'give-up', reason: `${ what }: attempts exhausted after ${ attemptNumber }` };
	}

	let delay = jittered( scheduled, config.jitterRatio, random );
	const overloaded =
		outcome.kind === 'response' ? OVERLOAD_STATUSES.has( outcome.status ) : TIMEOUT_CODES.has( outcome.code );
	if ( overloaded ) {
		delay = Math.max( delay, config.overloadPenaltySeconds );
	}
	if ( outcome.kind === 'response' && RETRY_AFTER_STATUSES.has( outcome.status ) ) {
		const retryAfter = parseRetryAfter( outcome.retryAfterHeader, nowMs );
		if ( retryAfter !== undefined ) {
			delay = Math.max( delay, Math.min( retryAfter, MAX_RETRY_AFTER_SECONDS ) );
		}
	}
	// Millisecond precision is plenty for a scheduler and keeps logs readable.
	const delaySeconds = Math.round( delay * 1000 ) / 1000;
	return { action: 'retry', delaySeconds, reason: what };
}

const DELTA_SECONDS = /^\d+$/;
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850_DATE = /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/**
 * Retry-After (RFC 9110 §10.2.3) in whole seconds from nowMs; undefined if absent or
 * malformed. Date.parse alone accepts far too much ("1", "2024"), so the three
 * HTTP-date shapes are matched explicitly; asctime has no zone and means GMT.
 */
export function parseRetryAfter( value: string | undefined, nowMs: number ): number | undefined {
	if ( value === undefined ) {
		return undefined;
	}
	const trimmed = value.trim();
	if ( DELTA_SECONDS.test( trimmed ) ) {
		// An absurdly long value still means "a long time"; callers clamp it.
		return Math.min( Number( trimmed ), Number.MAX_SAFE_INTEGER );
	}
	let whenMs: number;
	if ( IMF_FIXDATE.test( trimmed ) || RFC850_DATE.test( trimmed ) ) {
		whenMs = Date.parse( trimmed );
	} else if ( ASCTIME_DATE.test( trimmed ) ) {
		whenMs = Date.parse( `${ trimmed } GMT` );
	} else {
		return undefined;
	}
	if ( Number.isNaN( whenMs ) ) {
		return undefined;
	}
	return Math.max( 0, Math.ceil( ( whenMs - nowMs ) / 1000 ) );
}

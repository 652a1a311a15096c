import { attemptErrorView } from '../outbound/attempt-error';
import type { EndpointDisabledNotice } from './notices';

/**
 * The automatic disabling rule, of the dispatcher and the health sweep of the maintenance, on
 * both stores: an endpoint whose failure streak (no success since
 * `failingSince`) has lasted disableAfterMs (SIDECAR_DISABLE_AFTER_HOURS) is disabled.
 * Returns the reason to record, or null while the endpoint may keep failing.
 */
export function failingDisableReason(
	failingSince: number | null,
	now: number,
	disableAfterMs: number
): string | null {
	if ( failingSince === null || now - failingSince < disableAfterMs ) {
		return null;
	}
	const hours = Math.round( ( ( now - failingSince ) / 3_600_000 ) * 10 ) / 10;
	return `failing without a success since ${ new Date( failingSince ).toISOString() } (${ hours } h)`;
}

/**
 * What the log's `endpoint disabled` line adds when an endpoint is disabled automatically: what
 * is held, and how to send it (a field of its own, so the message stays one to search for).
 */
export const ENDPOINT_DISABLED_HINT =
	'its deliveries are held until it is enabled again (admin page, or wp service-integration endpoint enable <id>)';

/**
 * The notice WordPress gets when an endpoint is disabled automatically. `lastError` is its
 * newest attempt, which is the failure that disabled it (a success would have ended the streak).
 */
export function endpointDisabledNotice(
	endpoint: { id: string; url: string; failingSince: number | null },
	reason: string,
	lastError: EndpointHealth[ 'lastError' ]
): EndpointDisabledNotice {
	return {
		type: 'endpoint.disabled',
		endpoint_id: endpoint.id,
		url: endpoint.url,
		reason,
		failing_since: endpoint.failingSince === null ? null : new Date( endpoint.failingSince ).toISOString(),
		last_error: lastError ? attemptErrorView( lastError ) : null,
	};
}

/** Why an endpoint is disabled automatically: its streak outlasted the limit, or it answered 410. */
export interface AutoDisable {
	reason: string;
	kind: 'failing' | 'gone';
}

/** One finished attempt's effect on its endpoint's health, as nextHealth() decides it. */
export interface HealthStep {
	/** The write to the endpoint's streak: end it, start it, or none. */
	write: 'clear' | 'mark' | null;
	/** The streak's start after this attempt. */
	failingSince: number | null;
	/** Set when the endpoint is to be disabled now (with its notice). */
	disable: AutoDisable | null;
}

/**
 * The health rule, the same on both stores:
 *
 * | attempt   | streak running | write | disable                                      |
 * |-----------|----------------|-------|----------------------------------------------|
 * | succeeded | yes            | clear | no                                           |
 * | succeeded | no             | none  | no                                           |
 * | failed    | no             | mark  | if 410 (gone)                                |
 * | failed    | yes            | none  | if the streak outlasted disableAfterMs, or 410 |
 *
 * A streak past the limit is reported before a 410 (its reason says more). `failingSince` is
 * the streak as the caller knows it; on the shared store, the disabling re-checks it under the
 * endpoint's row lock (failingDisableReason), so one instance disables it.
 */
export function nextHealth(
	failingSince: number | null,
	attempt: { succeeded: boolean; gone: string | null },
	now: number,
	disableAfterMs: number
): HealthStep {
	if ( attempt.succeeded ) {
		return { write: failingSince === null ? null : 'clear', failingSince: null, disable: null };
	}
	const since = failingSince ?? now;
	const failing = failingSince === null ? null : failingDisableReason( failingSince, now, disableAfterMs );
	const disable: AutoDisable | null =
		failing !== null
			? { reason: failing, kind: 'failing' }
			: attempt.gone !== null
				? { reason: attempt.gone, kind: 'gone' }
				: null;
	return { write: failingSince === null ? 'mark' : null, failingSince: since, disable };
}

/** An attempt as the health summary reads it, newest first (both stores select these columns). */
export interface RecentAttemptRow {
	started_at: number;
	status_code: number | null;
	error_code: string | null;
	response_excerpt: string | null;
}

/** Attempts, newest first, summed up: how many, how many got a 2xx, and the newest failure. */
export function summariseHealth( rows: RecentAttemptRow[] ): EndpointHealth {
	const ok = ( row: RecentAttemptRow ) => row.status_code !== null && row.status_code >= 200 && row.status_code < 300;
	const failure = rows.find( ( row ) => ! ok( row ) );
	return {
		attempts: rows.length,
		successes: rows.filter( ok ).length,
		lastError: failure
			? {
					at: failure.started_at,
					status: failure.status_code,
					errorCode: failure.error_code,
					excerpt: failure.response_excerpt,
				}
			: null,
	};
}

export interface EndpointHealth {
	attempts: number;
	successes: number;
	lastError: { at: number; status: number | null; errorCode: string | null; excerpt: string | null } | null;
}

import type { EndpointHealth } from '../store/deliveries-store';
import type { EndpointDisabledNotice } from '../store/notices-store';
import { attemptErrorView } from './attempt-error';

/**
 * The automatic disabling rule, shared by the embedded dispatcher and the shared store's
 * dispatcher and maintenance: an endpoint whose failure streak (no success since
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

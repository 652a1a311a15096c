/** The notices the sidecar sends WordPress, queued in either store until acknowledged. */
import type { AttemptErrorView } from '../outbound/attempt-error';

export interface EndpointDisabledNotice {
	type: 'endpoint.disabled';
	endpoint_id: string;
	url: string;
	reason: string;
	/** When its failure streak began (ISO); null when it was disabled on its first failure's answer (410 Gone). */
	failing_since: string | null;
	/** Its newest failed attempt, as the endpoint list shows it; null when it has none on record. */
	last_error: AttemptErrorView | null;
}

/** An endpoint is active again: WordPress drops its disabled notice. */
export interface EndpointEnabledNotice {
	type: 'endpoint.enabled';
	endpoint_id: string;
}

/** An endpoint is gone: WordPress drops its notice and ignores a late disabled notice about it. */
export interface EndpointDeletedNotice {
	type: 'endpoint.deleted';
	endpoint_id: string;
}

export type Notice = EndpointDisabledNotice | EndpointEnabledNotice | EndpointDeletedNotice;

/**
 * This sidecar takes events now: WordPress hands over what its outbox holds. Sent straight to
 * WordPress when the sidecar starts (outbound/hand-over-request.ts), never queued: WordPress's
 * cron hands the outbox over anyway, so a request that is lost costs a minute, not an event.
 */
export interface SidecarReadyNotice {
	type: 'sidecar.ready';
}

/** What the signed channel carries to WordPress's callback route. */
export type ChannelNotice = Notice | SidecarReadyNotice;

export interface QueuedNotice {
	id: number;
	notice: Notice;
	attempts: number;
}

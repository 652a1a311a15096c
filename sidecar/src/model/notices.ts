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

export interface QueuedNotice {
	id: number;
	notice: Notice;
	attempts: number;
}

import type { SidecarConfig } from '../../config';
import type { Logger } from '../../logger';
import type { SidecarMetrics } from '../../metrics/registry';
import type { Dispatcher } from '../../outbound/dispatcher';
import type { QueueStore } from '../../store/queue-store';
import type { Stores } from '../../store/stores';

/** What the /v1 routes need; the dispatcher is only told that something changed. */
export interface RouteContext {
	config: SidecarConfig;
	log: Logger;
	stores: Stores;
	dispatcher: Pick< Dispatcher, 'wake' | 'ingest' | 'endpointsChanged' | 'firstAttemptAt' | 'noticesCommitted' >;
	startedAt: number;
	metrics: SidecarMetrics;
}

/**
 * What the routes served on both stores need (endpoint management, the delivery log): the
 * async QueueStore, whichever store is behind it.
 */
export interface QueueRouteContext {
	config: SidecarConfig;
	log: Logger;
	store: QueueStore;
	/** noticesCommitted is absent on the shared store, which has no notice sender yet. */
	dispatcher: Pick< Dispatcher, 'endpointsChanged' > & Partial< Pick< Dispatcher, 'noticesCommitted' > >;
	/** Where the route counts; nothing is counted without it. */
	metrics?: Pick< SidecarMetrics, 'recordEndpointDisabled' >;
}

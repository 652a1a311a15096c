import type { SidecarConfig } from '../../config';
import type { Logger } from '../../logger';
import type { SidecarMetrics } from '../../metrics/registry';
import type { Dispatcher } from '../../outbound/dispatcher';
import type { Stores } from '../../store/stores';

/** What the /v1 routes need; the dispatcher is only told that something changed. */
export interface RouteContext {
	config: SidecarConfig;
	log: Logger;
	stores: Stores;
	dispatcher: Pick< Dispatcher, 'wake' | 'endpointsChanged' | 'firstAttemptAt' | 'noticesCommitted' >;
	startedAt: number;
	metrics: SidecarMetrics;
}

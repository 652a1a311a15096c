import type { SidecarConfig } from '../../config';
import type { Logger } from '../../logger';
import type { SidecarMetrics } from '../../metrics/registry';
import type { InsertResult, NewEvent } from '../../model/events';
import type { QueueStore } from '../../store/queue-store';

/** What the routes tell the instance's dispatcher: it sends, the routes only store and wake it. */
export interface RouteDispatcher {
	/** Stores a batch with its deliveries and has the first attempts claimed (one transaction on SQLite). */
	ingest: ( events: NewEvent[] ) => Promise< InsertResult >;
	/** Something was queued for these endpoints (all of them if omitted). */
	wake: ( endpointIds?: Iterable< string > ) => void;
	/** An endpoint was created, changed, enabled, disabled or deleted: read them again. */
	endpointsChanged: () => void;
	/** A route committed notices of its own (an endpoint enabled or deleted): send them now. */
	noticesCommitted: () => void;
	isRunning: () => boolean;
	/** Why this instance cannot take events now (its last hand-over could not be stored), or null. */
	ingestProblem: () => string | null;
}

/** What the /v1 routes need, the same on both stores: the async QueueStore and the dispatcher's kicks. */
export interface RouteContext {
	config: SidecarConfig;
	log: Logger;
	store: QueueStore;
	dispatcher: RouteDispatcher;
	startedAt: number;
	metrics: SidecarMetrics;
}

/** The part of RouteContext that endpoint management, the delivery log and privacy use. */
export type QueueRouteContext = Pick< RouteContext, 'config' | 'log' | 'store' > & {
	dispatcher: Pick< RouteDispatcher, 'endpointsChanged' | 'noticesCommitted' | 'ingest' >;
	/** Where the route counts; nothing is counted without it. */
	metrics?: Pick< SidecarMetrics, 'recordEndpointDisabled' >;
};

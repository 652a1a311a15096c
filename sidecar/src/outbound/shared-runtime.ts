import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import type { SidecarMetrics } from '../metrics/registry';
import type { QueueStore } from '../store/queue-store';
import type { DeliveryClient } from './delivery-client';
import type { NoticeSender } from './notice-sender';
import { SharedDispatcher } from './shared-dispatcher';
import { SharedMaintenance } from './shared-maintenance';
import { createSharedNoticeSender } from './shared-notice-sender';
import type { Notifier } from './wordpress-notice';
import { workerLifecycle } from './worker-lifecycle';

export interface SharedRuntime {
	dispatcher: SharedDispatcher;
	notices: NoticeSender;
	maintenance: SharedMaintenance;
	start: () => void;
	/** Maintenance first, then attempts in flight (which may queue notices), then the notices being sent. */
	stop: ( graceMs: number ) => Promise< void >;
}

/**
 * The outbound workers of one instance on the shared store, wired the same way by
 * cli-start-shared.ts and the tests: the dispatcher, the notice sender (kicked after a
 * commit that queued notices, and by every maintenance round) and the maintenance.
 */
export function createSharedRuntime( options: {
	config: SidecarConfig;
	log: Logger;
	store: QueueStore;
	/** Defaults to the signed POST to WordPress's callback route (none without SIDECAR_WORDPRESS_URL). */
	notifier?: Notifier;
	client?: DeliveryClient;
	instanceId?: string;
	pollMs?: number;
	/** How soon a notice sender looks again when another instance was sending. */
	busyRetryMs?: number;
	/** This instance's counters (attempts, deliveries, give-ups, disables); none when absent. */
	metrics?: SidecarMetrics;
} ): SharedRuntime {
	const { config, log, store } = options;
	const notices = createSharedNoticeSender( {
		config,
		log,
		store,
		notifier: options.notifier,
		busyRetryMs: options.busyRetryMs,
	} );
	const dispatcher = new SharedDispatcher( {
		config,
		log,
		store,
		client: options.client,
		instanceId: options.instanceId,
		pollMs: options.pollMs,
		onNoticesQueued: () => notices.kick(),
		metrics: options.metrics,
	} );
	const maintenance = new SharedMaintenance( {
		store,
		log,
		intervalMs: Math.round( config.maintenanceIntervalSeconds * 1000 ),
		retentionMs: config.retentionDays * 86_400_000,
		payloadRetentionMs: config.payloadRetentionDays * 86_400_000,
		disableAfterMs: config.disableAfterHours * 3_600_000,
		kickNotices: () => notices.kick(),
		endpointsChanged: () => dispatcher.endpointsChanged(),
		metrics: options.metrics,
	} );
	return { dispatcher, notices, maintenance, ...workerLifecycle( { dispatcher, notices, maintenance } ) };
}

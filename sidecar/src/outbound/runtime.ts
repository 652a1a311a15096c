import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import type { SidecarMetrics } from '../metrics/registry';
import type { QueueStore } from '../store/queue-store';
import type { Clock } from './clock';
import type { DeliveryClient } from './delivery-client';
import { Dispatcher, type Coordination } from './dispatcher';
import { HandOverRequest } from './hand-over-request';
import { Maintenance } from './maintenance';
import { NoticeSender } from './notice-sender';
import { notifierFromConfig, type Notifier } from './wordpress-notice';
import { workerLifecycle } from './worker-lifecycle';

export const NOTICES_LOCK = 'notices';

export interface OutboundRuntime {
	dispatcher: Dispatcher;
	notices: NoticeSender;
	maintenance: Maintenance;
	/** Starts the workers, then asks WordPress for what its outbox holds (HandOverRequest). */
	start: () => void;
	/** Maintenance first, then attempts in flight (which may queue notices), then the notices being sent. */
	stop: ( graceMs: number ) => Promise< void >;
}

/**
 * The outbound workers of one instance, on either store, wired the same way by cli-start.ts
 * and the tests: the dispatcher, the notice sender (kicked after a commit that queued notices,
 * and by every maintenance round) and the maintenance. The notice sender sends a round under
 * the database lock `notices` taken without waiting, so with several instances one sends at a
 * time, in order, and a notice one acknowledged is not sent again by another (on SQLite the
 * lock is moot: one process owns the file). Its first retry comes after
 * SIDECAR_MAINTENANCE_INTERVAL_SECONDS, doubling.
 */
export function createOutboundRuntime( options: {
	config: SidecarConfig;
	log: Logger;
	store: QueueStore;
	/** This instance's counters (attempts, deliveries, give-ups, disables); none when absent. */
	metrics?: SidecarMetrics;
	/** Defaults to the signed POST to WordPress's callback route (none without SIDECAR_WORDPRESS_URL). */
	notifier?: Notifier;
	client?: DeliveryClient;
	instanceId?: string;
	coordination?: Coordination;
	/** How soon a notice sender looks again when another instance was sending. */
	busyRetryMs?: number;
	/** The three workers' time (the system's by default; tests move a manual one). */
	clock?: Clock;
} ): OutboundRuntime {
	const { config, log, store, metrics, clock } = options;
	const intervalMs = Math.round( config.maintenanceIntervalSeconds * 1000 );
	const notifier = options.notifier ?? notifierFromConfig( config );
	const notices = new NoticeSender( {
		notices: store.notices,
		log,
		notifier,
		baseDelayMs: intervalMs,
		exclusively: ( fn ) => store.exclusively( NOTICES_LOCK, fn ),
		busyRetryMs: options.busyRetryMs,
		clock,
	} );
	const dispatcher = new Dispatcher( {
		config,
		log,
		store,
		metrics,
		client: options.client,
		instanceId: options.instanceId,
		coordination: options.coordination,
		onNoticesQueued: () => notices.kick(),
		clock,
	} );
	const maintenance = new Maintenance( {
		store,
		log,
		intervalMs,
		retentionMs: config.retentionDays * 86_400_000,
		payloadRetentionMs: config.payloadRetentionDays * 86_400_000,
		disableAfterMs: config.disableAfterHours * 3_600_000,
		kickNotices: () => notices.kick(),
		endpointsChanged: () => dispatcher.endpointsChanged(),
		metrics,
		clock,
	} );
	const lifecycle = workerLifecycle( { dispatcher, notices, maintenance } );
	const handOverRequest = new HandOverRequest( { notifier, log, clock } );
	return {
		dispatcher,
		notices,
		maintenance,
		start() {
			lifecycle.start();
			handOverRequest.start();
		},
		stop( graceMs ) {
			handOverRequest.stop();
			return lifecycle.stop( graceMs );
		},
	};
}

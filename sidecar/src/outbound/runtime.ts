import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import type { SidecarMetrics } from '../metrics/registry';
import { SqliteNoticeQueue } from '../store/notice-queue';
import type { Stores } from '../store/stores';
import type { DeliveryClient } from './delivery-client';
import { Dispatcher } from './dispatcher';
import { Maintenance } from './maintenance';
import { NoticeSender } from './notice-sender';
import { notifierFromConfig, type Notifier } from './wordpress-notice';
import { workerLifecycle } from './worker-lifecycle';

export interface OutboundRuntime {
	dispatcher: Dispatcher;
	notices: NoticeSender;
	maintenance: Maintenance;
	start: () => void;
	/** Maintenance first, then attempts in flight (which may queue notices), then the notices. */
	stop: ( graceMs: number ) => Promise< void >;
}

/** The outbound workers over one set of stores, wired the same way by main.ts and the tests. */
export function createOutboundRuntime( options: {
	config: SidecarConfig;
	log: Logger;
	stores: Stores;
	metrics: SidecarMetrics;
	/** Defaults to the signed POST to WordPress's callback route (none without SIDECAR_WORDPRESS_URL). */
	notifier?: Notifier;
	client?: DeliveryClient;
} ): OutboundRuntime {
	const { config, log, stores, metrics } = options;
	const intervalMs = Math.round( config.maintenanceIntervalSeconds * 1000 );
	const notifier = options.notifier ?? notifierFromConfig( config );
	const notices = new NoticeSender( {
		notices: new SqliteNoticeQueue( stores.notices ),
		log,
		notifier,
		baseDelayMs: intervalMs,
	} );
	const dispatcher = new Dispatcher( {
		config,
		log,
		stores,
		metrics,
		client: options.client,
		onNoticesQueued: () => notices.kick(),
	} );
	const maintenance = new Maintenance( {
		stores,
		log,
		intervalMs,
		retentionMs: config.retentionDays * 86_400_000,
		payloadRetentionMs: config.payloadRetentionDays * 86_400_000,
		sweepHealth: ( now ) => dispatcher.sweepHealth( now ),
		kickNotices: () => notices.kick(),
	} );
	return { dispatcher, notices, maintenance, ...workerLifecycle( { dispatcher, notices, maintenance } ) };
}

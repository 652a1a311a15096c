import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import type { QueueStore } from '../store/queue-store';
import { NoticeSender } from './notice-sender';
import { notifierFromConfig, type Notifier } from './wordpress-notice';

export const NOTICES_LOCK = 'notices';

/**
 * The notice sender of an instance on the shared store: the embedded store's sender over the
 * shared `notices` table, with the same notifier and backoff (first retry after
 * SIDECAR_MAINTENANCE_INTERVAL_SECONDS, doubling). Every instance runs one; a round of sending
 * runs under the database lock `notices` taken without waiting, so one instance sends at a
 * time, in order, and a notice it acknowledged is not sent again by another.
 */
export function createSharedNoticeSender( options: {
	config: SidecarConfig;
	log: Logger;
	store: QueueStore;
	/** Defaults to the signed POST to WordPress's callback route (none without SIDECAR_WORDPRESS_URL). */
	notifier?: Notifier;
	busyRetryMs?: number;
} ): NoticeSender {
	const { config, log, store } = options;
	return new NoticeSender( {
		notices: store.notices,
		log,
		notifier: options.notifier ?? notifierFromConfig( config ),
		baseDelayMs: Math.round( config.maintenanceIntervalSeconds * 1000 ),
		exclusively: ( fn ) => store.exclusively( NOTICES_LOCK, fn ),
		busyRetryMs: options.busyRetryMs,
	} );
}

import type { Logger } from '../logger';
import type { SidecarMetrics } from '../metrics/registry';
import type { QueueStore } from '../store/queue-store';
import { ENDPOINT_DISABLED_HINT, failingDisableReason } from '../model/health';
import { noCancel, systemClock, type Cancel, type Clock } from './clock';

export const MAINTENANCE_LOCK = 'maintenance';

/** A tick's time for the endpoints' backlog: a million rows go in a few ticks, and the lock is let go between. */
const DEFAULT_BACKLOG_BUDGET_MS = 20_000;

export interface MaintenanceOptions {
	store: QueueStore;
	log: Logger;
	intervalMs: number;
	retentionMs: number;
	/** Event payloads and response excerpts are cleared after this (SIDECAR_PAYLOAD_RETENTION_DAYS); at most retentionMs. */
	payloadRetentionMs?: number;
	/** SIDECAR_DISABLE_AFTER_HOURS: the health sweep disables endpoints failing without a success for this long. */
	disableAfterMs: number;
	/** Retries notices whose backoff has passed (the sender also keeps its own timer); on every instance. */
	kickNotices: () => void;
	/** After the health sweep disabled endpoints: the dispatcher reads them again. */
	endpointsChanged?: () => void;
	/** This instance's counters: the disables its health sweep made. */
	metrics?: Pick< SidecarMetrics, 'recordEndpointDisabled' >;
	/** Rows deleted per table and transaction, so the API and the dispatcher never wait long. */
	pruneBatch?: number;
	/** Batches per tick; what is left is pruned on the next ticks. */
	pruneBatchesPerTick?: number;
	/**
	 * How long one tick may spend on what disabled and deleted endpoints left (their queued
	 * deliveries cancelled or removed, pruneBatch at a time); the rest goes on the next tick.
	 */
	backlogBudgetMs?: number;
	/** What the cadence and the retention and health thresholds are read from; the system's by default. */
	clock?: Clock;
}

/**
 * The periodic upkeep of the outbound side, every `intervalMs` (SIDECAR_MAINTENANCE_INTERVAL_SECONDS),
 * on either store: the endpoint health sweep (endpoints failing for too long are disabled, each
 * in one transaction with its notice, even when no attempt finishes any more: retries give up
 * after about a day), the queues disabled and deleted endpoints left (cancelled or removed in
 * batches, EndpointBacklog), retention (finished deliveries, their attempts, events nothing refers to
 * and acknowledged notices older than SIDECAR_RETENTION_DAYS, in small batches that yield to
 * the event loop), payload retention (payloads of finished events and attempts' response
 * excerpts older than SIDECAR_PAYLOAD_RETENTION_DAYS are cleared, their rows kept); then, on
 * every instance, a nudge to its notice sender. With several instances on the shared store, a
 * round runs on one at a time: it takes the database lock `maintenance` without waiting
 * (GET_LOCK(…, 0)), and an instance that does not get it skips the round.
 */
export class Maintenance {
	private cancelTimer: Cancel = noCancel;
	private running: Promise< void > | undefined;
	private stopped = false;
	private readonly clock: Clock;

	constructor( private readonly options: MaintenanceOptions ) {
		this.clock = options.clock ?? systemClock;
	}

	start(): void {
		this.schedule( 0 );
	}

	async stop(): Promise< void > {
		this.stopped = true;
		this.cancelTimer();
		await this.running;
	}

	/** One round (exported for tests); false if another instance held the lock (or the store did not answer). */
	async tick(): Promise< boolean > {
		const { store, log } = this.options;
		let ran = false;
		try {
			ran = await store.exclusively( MAINTENANCE_LOCK, async () => {
				await this.sweepHealth();
				await this.settleEndpointBacklog();
				await this.prune();
				await this.clearPayloads();
			} );
		} catch ( error ) {
			log.error( { err: error }, 'maintenance failed; next round will retry' );
		}
		this.options.kickNotices();
		return ran;
	}

	/** Disables the endpoints whose failure streak outlasted disableAfterMs, even when no attempt finishes any more. */
	private async sweepHealth(): Promise< void > {
		const { store, log, disableAfterMs } = this.options;
		try {
			const now = this.clock.now();
			let disabled = 0;
			for ( const id of await store.failureStreaks.failingSince( now - disableAfterMs ) ) {
				if (
					await store.failureStreaks.disableWithNotice( id, now, ( failingSince ) =>
						failingDisableReason( failingSince, now, disableAfterMs )
					)
				) {
					disabled++;
					this.options.metrics?.recordEndpointDisabled( 'failing' );
					log.warn( { endpoint_id: id, hint: ENDPOINT_DISABLED_HINT }, 'endpoint disabled' );
				}
			}
			if ( disabled > 0 ) {
				log.info( { disabled }, 'health sweep disabled endpoints failing for too long' );
				this.options.endpointsChanged?.();
			}
		} catch ( error ) {
			log.error( { err: error }, 'health sweep failed; next round will retry' );
		}
	}

	/**
	 * Cancels the queued deliveries of disabled endpoints and removes those of deleted ones
	 * (EndpointBacklog), a short transaction per batch, until none is left or the budget is spent.
	 */
	private async settleEndpointBacklog(): Promise< void > {
		const { store, log } = this.options;
		const batchSize = this.options.pruneBatch ?? 500;
		const deadline = performance.now() + ( this.options.backlogBudgetMs ?? DEFAULT_BACKLOG_BUDGET_MS );
		const settled = { cancelled: 0, deliveriesRemoved: 0, endpointsRemoved: 0 };
		try {
			while ( ! this.stopped && performance.now() < deadline ) {
				const cancelled = await store.endpointBacklog.cancelDisabled( batchSize, this.clock.now() );
				const purged = await store.endpointBacklog.purgeDeleted( batchSize );
				settled.cancelled += cancelled;
				settled.deliveriesRemoved += purged.deliveries;
				settled.endpointsRemoved += purged.endpoints;
				if ( cancelled < batchSize && purged.deliveries < batchSize ) {
					break;
				}
				await yieldToRequests();
			}
			if ( settled.cancelled + settled.deliveriesRemoved + settled.endpointsRemoved > 0 ) {
				log.info( settled, 'settled the queues of disabled and deleted endpoints' );
			}
		} catch ( error ) {
			log.error( { err: error }, 'settling disabled and deleted endpoints failed; next round will retry' );
		}
	}

	private async prune(): Promise< void > {
		const { store, log } = this.options;
		const batchSize = this.options.pruneBatch ?? 500;
		const batches = this.options.pruneBatchesPerTick ?? 20;
		try {
			const before = this.clock.now() - this.options.retentionMs;
			const pruned = { deliveries: 0, events: 0, notices: 0 };
			for ( let batch = 0; batch < batches && ! this.stopped; batch++ ) {
				const round = await store.prune( before, batchSize );
				const notices = await store.notices.prune( before, batchSize );
				pruned.deliveries += round.deliveries;
				pruned.events += round.events;
				pruned.notices += notices;
				if ( round.deliveries < batchSize && round.events < batchSize && notices < batchSize ) {
					break;
				}
				await yieldToRequests();
			}
			if ( pruned.deliveries + pruned.events + pruned.notices > 0 ) {
				log.info( pruned, 'pruned outbound history past retention' );
			}
		} catch ( error ) {
			log.error( { err: error }, 'pruning failed; next round will retry' );
		}
	}

	private async clearPayloads(): Promise< void > {
		const { store, log } = this.options;
		const batchSize = this.options.pruneBatch ?? 500;
		const batches = this.options.pruneBatchesPerTick ?? 20;
		try {
			const now = this.clock.now();
			const before = now - ( this.options.payloadRetentionMs ?? this.options.retentionMs );
			const cleared = { payloads: 0, excerpts: 0 };
			for ( let batch = 0; batch < batches && ! this.stopped; batch++ ) {
				const round = await store.payloadRetention.clearPayloads( before, batchSize, now );
				cleared.payloads += round.payloads;
				cleared.excerpts += round.excerpts;
				if ( round.payloads < batchSize && round.excerpts < batchSize ) {
					break;
				}
				await yieldToRequests();
			}
			if ( cleared.payloads + cleared.excerpts > 0 ) {
				log.info( cleared, 'cleared payloads and response excerpts past payload retention' );
			}
		} catch ( error ) {
			log.error( { err: error }, 'clearing payloads failed; next round will retry' );
		}
	}

	private schedule( delayMs: number ): void {
		if ( this.stopped ) {
			return;
		}
		this.cancelTimer = this.clock.schedule( delayMs, () => {
			this.running = this.tick()
				.then( () => undefined )
				.finally( () => {
					this.running = undefined;
					this.schedule( this.options.intervalMs );
				} );
		} );
	}
}

/** SQLite's calls are synchronous: between two batches, requests and deliveries get their turn. */
function yieldToRequests(): Promise< void > {
	return new Promise( ( resolve ) => setImmediate( resolve ) );
}

import type { Logger } from '../logger';
import type { SidecarMetrics } from '../metrics/registry';
import type { QueueStore } from '../store/queue-store';
import { failingDisableReason } from './endpoint-health';

export const MAINTENANCE_LOCK = 'maintenance';

export interface SharedMaintenanceOptions {
	store: QueueStore;
	log: Logger;
	intervalMs: number;
	retentionMs: number;
	/** Event payloads and response excerpts are cleared after this (SIDECAR_PAYLOAD_RETENTION_DAYS); at most retentionMs. */
	payloadRetentionMs?: number;
	/** SIDECAR_DISABLE_AFTER_HOURS: the health sweep disables endpoints failing without a success for this long. */
	disableAfterMs: number;
	/** Every round, on every instance: the notice sender looks for notices (queued by any instance) that are due. */
	kickNotices: () => void;
	/** After the health sweep disabled endpoints: the dispatcher reads them again. */
	endpointsChanged?: () => void;
	/** This instance's counters: the disables its health sweep made. */
	metrics?: Pick< SidecarMetrics, 'recordEndpointDisabled' >;
	pruneBatch?: number;
	pruneBatchesPerTick?: number;
}

/**
 * Upkeep on the shared store, every intervalMs on every instance, but run by one instance at a
 * time: each round takes the database lock `maintenance` without waiting (GET_LOCK(…, 0)), and an
 * instance that does not get it skips the round. The embedded Maintenance's upkeep: the health
 * sweep (endpoints failing for too long are disabled, each in one transaction with its notice),
 * retention of finished deliveries, events and acknowledged notices, and payload retention;
 * then, on every instance, a nudge to its notice sender.
 */
export class SharedMaintenance {
	private timer: NodeJS.Timeout | undefined;
	private running: Promise< void > | undefined;
	private stopped = false;

	constructor( private readonly options: SharedMaintenanceOptions ) {}

	start(): void {
		this.schedule( 0 );
	}

	async stop(): Promise< void > {
		this.stopped = true;
		clearTimeout( this.timer );
		await this.running;
	}

	/** One round; false if another instance held the lock (or the store did not answer). */
	async tick(): Promise< boolean > {
		const { store, log } = this.options;
		let ran = false;
		try {
			ran = await store.exclusively( MAINTENANCE_LOCK, async () => {
				await this.sweepHealth();
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
			const now = Date.now();
			let disabled = 0;
			for ( const id of await store.failureStreaks.failingSince( now - disableAfterMs ) ) {
				if (
					await store.failureStreaks.disableWithNotice( id, now, ( failingSince ) =>
						failingDisableReason( failingSince, now, disableAfterMs )
					)
				) {
					disabled++;
					this.options.metrics?.recordEndpointDisabled( 'failing' );
					log.warn( { endpoint_id: id }, 'endpoint disabled' );
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

	private async prune(): Promise< void > {
		const { store, log } = this.options;
		const batchSize = this.options.pruneBatch ?? 500;
		const batches = this.options.pruneBatchesPerTick ?? 20;
		try {
			const before = Date.now() - this.options.retentionMs;
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
			const now = Date.now();
			const before = now - ( this.options.payloadRetentionMs ?? this.options.retentionMs );
			const cleared = { payloads: 0, excerpts: 0 };
			for ( let batch = 0; batch < batches && ! this.stopped; batch++ ) {
				const round = await store.payloadRetention.clearPayloads( before, batchSize, now );
				cleared.payloads += round.payloads;
				cleared.excerpts += round.excerpts;
				if ( round.payloads < batchSize && round.excerpts < batchSize ) {
					break;
				}
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
		this.timer = setTimeout( () => {
			this.running = this.tick()
				.then( () => undefined )
				.finally( () => {
					this.running = undefined;
					this.schedule( this.options.intervalMs );
				} );
		}, delayMs );
		this.timer.unref();
	}
}

import type { Logger } from '../logger';
import type { QueueStore } from '../store/queue-store';

export const MAINTENANCE_LOCK = 'maintenance';

export interface SharedMaintenanceOptions {
	store: QueueStore;
	log: Logger;
	intervalMs: number;
	retentionMs: number;
	pruneBatch?: number;
	pruneBatchesPerTick?: number;
}

/**
 * Upkeep on the shared store, every intervalMs on every instance, but run by one instance at a
 * time: each round takes the database lock `maintenance` without waiting (GET_LOCK(…, 0)), and an
 * instance that does not get it skips the round. Retention of finished deliveries and events.
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

	/** One round; false if another instance held the lock. */
	async tick(): Promise< boolean > {
		const { store, log } = this.options;
		const batchSize = this.options.pruneBatch ?? 500;
		const batches = this.options.pruneBatchesPerTick ?? 20;
		try {
			return await store.exclusively( MAINTENANCE_LOCK, async () => {
				const before = Date.now() - this.options.retentionMs;
				const pruned = { deliveries: 0, events: 0 };
				for ( let batch = 0; batch < batches && ! this.stopped; batch++ ) {
					const round = await store.prune( before, batchSize );
					pruned.deliveries += round.deliveries;
					pruned.events += round.events;
					if ( round.deliveries < batchSize && round.events < batchSize ) {
						break;
					}
				}
				if ( pruned.deliveries + pruned.events > 0 ) {
					log.info( pruned, 'pruned outbound history past retention' );
				}
			} );
		} catch ( error ) {
			log.error( { err: error }, 'maintenance failed; next round will retry' );
			return false;
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

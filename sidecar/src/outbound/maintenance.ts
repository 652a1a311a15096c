import type { Logger } from '../logger';
import type { Stores } from '../store/stores';

export interface MaintenanceOptions {
	stores: Stores;
	log: Logger;
	intervalMs: number;
	retentionMs: number;
	/** Event payloads and response excerpts are cleared after this (SIDECAR_PAYLOAD_RETENTION_DAYS); at most retentionMs. */
	payloadRetentionMs?: number;
	/** The dispatcher's health sweep (disables endpoints failing for too long). */
	sweepHealth: ( now: number ) => number;
	/** Retries notices whose backoff has passed (the sender also keeps its own timer). */
	kickNotices: () => void;
	/** Rows deleted per table and transaction, so the API and the dispatcher never wait long. */
	pruneBatch?: number;
	/** Batches per tick; what is left is pruned on the next ticks. */
	pruneBatchesPerTick?: number;
}

/**
 * The periodic upkeep of the outbound side, every `intervalMs` (SIDECAR_MAINTENANCE_INTERVAL_SECONDS):
 * the endpoint health sweep, retention (finished deliveries, their attempts, events
 * nothing refers to and acknowledged notices older than SIDECAR_RETENTION_DAYS, in small
 * batches that yield to the event loop), payload retention (payloads of finished events and
 * attempts' response excerpts older than SIDECAR_PAYLOAD_RETENTION_DAYS are cleared, their
 * rows kept), and a nudge to the notice sender.
 */
export class Maintenance {
	private timer: NodeJS.Timeout | undefined;
	private running: Promise< void > | undefined;
	private stopped = false;
	private readonly pruneBatch: number;
	private readonly pruneBatchesPerTick: number;

	constructor( private readonly options: MaintenanceOptions ) {
		this.pruneBatch = options.pruneBatch ?? 500;
		this.pruneBatchesPerTick = options.pruneBatchesPerTick ?? 20;
	}

	start(): void {
		this.schedule( 0 );
	}

	async stop(): Promise< void > {
		this.stopped = true;
		clearTimeout( this.timer );
		await this.running;
	}

	/** One round of upkeep; exported for tests and for the first round at start. */
	async tick(): Promise< void > {
		const { log, stores } = this.options;
		try {
			const disabled = this.options.sweepHealth( Date.now() );
			if ( disabled > 0 ) {
				log.info( { disabled }, 'health sweep disabled endpoints failing for too long' );
			}
		} catch ( error ) {
			log.error( { err: error }, 'health sweep failed; next round will retry' );
		}
		try {
			const before = Date.now() - this.options.retentionMs;
			const pruned = { deliveries: 0, events: 0, notices: 0 };
			for ( let batch = 0; batch < this.pruneBatchesPerTick && ! this.stopped; batch++ ) {
				const round = stores.deliveries.prune( before, this.pruneBatch );
				const notices = stores.notices.prune( before, this.pruneBatch );
				pruned.deliveries += round.deliveries;
				pruned.events += round.events;
				pruned.notices += notices;
				if (
					round.deliveries < this.pruneBatch &&
					round.events < this.pruneBatch &&
					notices < this.pruneBatch
				) {
					break;
				}
				await new Promise( ( resolve ) => setImmediate( resolve ) ); // let requests and deliveries in between
			}
			if ( pruned.deliveries + pruned.events + pruned.notices > 0 ) {
				log.info( pruned, 'pruned outbound history past retention' );
			}
		} catch ( error ) {
			log.error( { err: error }, 'pruning failed; next round will retry' );
		}
		try {
			const now = Date.now();
			const before = now - ( this.options.payloadRetentionMs ?? this.options.retentionMs );
			const cleared = { payloads: 0, excerpts: 0 };
			for ( let batch = 0; batch < this.pruneBatchesPerTick && ! this.stopped; batch++ ) {
				const round = stores.privacy.clearPayloads( before, this.pruneBatch, now );
				cleared.payloads += round.payloads;
				cleared.excerpts += round.excerpts;
				if ( round.payloads < this.pruneBatch && round.excerpts < this.pruneBatch ) {
					break;
				}
				await new Promise( ( resolve ) => setImmediate( resolve ) );
			}
			if ( cleared.payloads + cleared.excerpts > 0 ) {
				log.info( cleared, 'cleared payloads and response excerpts past payload retention' );
			}
		} catch ( error ) {
			log.error( { err: error }, 'clearing payloads failed; next round will retry' );
		}
		this.options.kickNotices();
	}

	private schedule( delayMs: number ): void {
		if ( this.stopped ) {
			return;
		}
		this.timer = setTimeout( () => {
			this.running = this.tick().finally( () => {
				this.running = undefined;
				this.schedule( this.options.intervalMs );
			} );
		}, delayMs );
		this.timer.unref();
	}
}

import type { Logger } from '../logger';
import type { Stores } from '../store/stores';

export interface MaintenanceOptions {
	stores: Stores;
	log: Logger;
	intervalMs: number;
	/** The dispatcher's health sweep (disables endpoints failing for too long). */
	sweepHealth: ( now: number ) => number;
	/** Retries notices whose backoff has passed (the sender also keeps its own timer). */
	kickNotices: () => void;
}

/**
 * The periodic upkeep of the outbound side, every `intervalMs` (SIDECAR_MAINTENANCE_INTERVAL_SECONDS):
 * the endpoint health sweep and a nudge to the notice sender.
 */
export class Maintenance {
	private timer: NodeJS.Timeout | undefined;
	private running: Promise< void > | undefined;
	private stopped = false;

	constructor( private readonly options: MaintenanceOptions ) {}

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
		const { log } = this.options;
		try {
			const disabled = this.options.sweepHealth( Date.now() );
			if ( disabled > 0 ) {
				log.info( { disabled }, 'health sweep disabled endpoints failing for too long' );
			}
		} catch ( error ) {
			log.error( { err: error }, 'health sweep failed; next round will retry' );
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

import type { Logger } from '../logger';
import { noCancel, systemClock, type Cancel, type Clock } from './clock';
import type { Notifier } from './wordpress-notice';

/**
 * How long to keep asking after the first try: WordPress may be coming up with this sidecar (a
 * server's reboot, or `npm start`, whose Playground site starts after the sidecar and answers its
 * first requests slowly while WooCommerce's first jobs run), so tries over about ten minutes. On a
 * server WordPress's cron hands over every minute anyway; the local site has no cron of its own.
 */
export const HAND_OVER_REQUEST_RETRIES_MS: readonly number[] = Object.freeze( [
	1000, 2000, 5000, 10_000, 30_000, 60_000, 120_000, 300_000,
] );

/**
 * Tells WordPress that this sidecar takes events now (the `sidecar.ready` notice on the signed
 * channel), so that it hands over at once what its outbox held while the sidecar was away,
 * instead of at the next cron run or visitor request. Sent when the sidecar starts; a refusal or
 * a network error is tried again on HAND_OVER_REQUEST_RETRIES_MS. Nothing is stored: a request
 * that never reaches WordPress loses nothing, the outbox keeps its events for the cron. Without
 * SIDECAR_WORDPRESS_URL there is no one to ask.
 */
export class HandOverRequest {
	private cancel: Cancel = noCancel;
	private readonly abort = new AbortController();
	private stopped = false;
	private readonly clock: Clock;

	constructor(
		private readonly options: {
			notifier: Notifier | undefined;
			log: Logger;
			clock?: Clock;
			retriesMs?: readonly number[];
		}
	) {
		this.clock = options.clock ?? systemClock;
	}

	start(): void {
		if ( this.options.notifier && ! this.stopped ) {
			void this.attempt( 0 );
		}
	}

	stop(): void {
		this.stopped = true;
		this.cancel();
		this.abort.abort();
	}

	private async attempt( retry: number ): Promise< void > {
		const { notifier, log } = this.options;
		if ( ! notifier || this.stopped ) {
			return;
		}
		const result = await notifier( { type: 'sidecar.ready' }, this.abort.signal );
		if ( this.stopped ) {
			return;
		}
		if ( result.acknowledged ) {
			log.info( 'WordPress was asked to hand over the events its outbox holds' );
			return;
		}
		const delay = ( this.options.retriesMs ?? HAND_OVER_REQUEST_RETRIES_MS )[ retry ];
		if ( delay === undefined ) {
			log.warn(
				{ error: result.error },
				'WordPress did not take the request to hand over its held events; its cron hands them over every minute'
			);
			return;
		}
		log.debug( { error: result.error, retryInMs: delay }, 'WordPress did not take the hand-over request yet' );
		this.cancel = this.clock.schedule( delay, () => void this.attempt( retry + 1 ) );
	}
}

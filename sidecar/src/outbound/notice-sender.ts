import type { Logger } from '../logger';
import type { NoticeQueue } from '../store/notice-queue';
import { noCancel, systemClock, type Cancel, type Clock } from './clock';
import type { Notifier } from './wordpress-notice';

export interface NoticeSenderOptions {
	notices: NoticeQueue;
	log: Logger;
	/** Undefined when SIDECAR_WORDPRESS_URL is not set: notices wait in the table until it is. */
	notifier: Notifier | undefined;
	/** First retry delay; it doubles on each failure up to maxDelayMs. */
	baseDelayMs: number;
	maxDelayMs?: number;
	/**
	 * On the shared store, several instances run a sender on one table: each round of sending
	 * runs only while this instance holds a database lock (QueueStore.exclusively('notices', …),
	 * taken without waiting), so a notice goes out from one instance at a time and in order.
	 * Resolves false when another instance holds it. Omitted: the round just runs.
	 */
	exclusively?: ( fn: () => Promise< void > ) => Promise< boolean >;
	/** When another instance held the lock: look again after this (it may have missed a notice committed meanwhile). */
	busyRetryMs?: number;
	/** What due times and back-off are read from; the system's by default. */
	clock?: Clock;
}

const BATCH = 20;
const BUSY_RETRY_MS = 1000;

/**
 * Sends the notices table to WordPress, one notice at a time, after the transactions
 * that wrote them have committed; a refusal or a network error is retried with
 * exponential backoff until WordPress acknowledges (WordPress treats a repeated notice
 * as the same one, so at-least-once is safe). Deleting an endpoint drops its notices
 * not yet acknowledged, so they are not retried after the deletion. On the shared store
 * every instance runs one, and a round of sending runs on one instance at a time (see
 * `exclusively`).
 */
export class NoticeSender {
	private readonly maxDelayMs: number;
	private state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';
	private running: Promise< void > | undefined;
	private again = false;
	/** Set while rounds fail on the store; the error is logged once. */
	private failing = false;
	private cancelTimer: Cancel = noCancel;
	private readonly abort = new AbortController();
	private readonly clock: Clock;

	constructor( private readonly options: NoticeSenderOptions ) {
		this.maxDelayMs = options.maxDelayMs ?? 3_600_000;
		this.clock = options.clock ?? systemClock;
	}

	start(): void {
		if ( this.state !== 'new' ) {
			return;
		}
		this.state = 'running';
		if ( ! this.options.notifier ) {
			const { log } = this.options;
			this.options.notices.pendingCount().then(
				( pending ) =>
					log.warn( { pending }, 'no SIDECAR_WORDPRESS_URL: notices for WordPress are kept until it is set' ),
				( error: unknown ) => log.error( { err: error }, 'could not read the notices table' )
			);
			return;
		}
		this.kick();
	}

	/** New notices were committed (or a retry may be due): send what is due. */
	kick(): void {
		if ( this.state !== 'running' || ! this.options.notifier ) {
			return;
		}
		if ( this.running ) {
			this.again = true;
			return;
		}
		this.running = this.drain()
			.then(
				( outcome ) => {
					if ( this.failing ) {
						this.failing = false;
						this.options.log.info( 'the notices table answers again' );
					}
					return outcome;
				},
				( error: unknown ) => {
					// E.g. SQLITE_BUSY from an outside writer, or the shared database away: the notices
					// stay, and the sender tries again every second (logged once until it works again).
					if ( ! this.failing ) {
						this.failing = true;
						this.options.log.error(
							{ err: error },
							'could not send notices to WordPress; retrying every second'
						);
					}
					return 'failed' as const;
				}
			)
			.then( ( outcome ) => this.nextRoundAt( outcome ) )
			.then( ( next ) => {
				this.running = undefined;
				if ( this.again ) {
					this.again = false;
					this.kick();
				} else {
					this.armTimer( next );
				}
			} );
	}

	/** Lets a send in flight finish (up to graceMs); unsent notices stay for the next start. */
	async stop( graceMs: number ): Promise< void > {
		if ( this.state === 'stopped' || this.state === 'stopping' ) {
			return;
		}
		this.state = 'stopping';
		this.cancelTimer();
		if ( this.running ) {
			let cancel: Cancel = noCancel;
			await Promise.race( [
				this.running,
				new Promise< void >( ( resolve ) => ( cancel = this.clock.schedule( graceMs, resolve ) ) ),
			] );
			cancel();
			this.abort.abort();
			await this.running;
		}
		this.state = 'stopped';
	}

	/** One round of sending; 'busy' when another instance was sending (shared store). */
	private async drain(): Promise< 'sent' | 'busy' > {
		if ( ! this.options.exclusively ) {
			await this.sendDue();
			return 'sent';
		}
		return ( await this.options.exclusively( () => this.sendDue() ) ) ? 'sent' : 'busy';
	}

	private async sendDue(): Promise< void > {
		const { notices, notifier, log } = this.options;
		while ( this.state === 'running' && notifier ) {
			const due = await notices.due( this.clock.now(), BATCH );
			if ( due.length === 0 ) {
				return;
			}
			for ( const item of due ) {
				if ( this.state !== 'running' ) {
					return;
				}
				// Sending the items before this one took time: the notice may have been dropped
				// since (its endpoint was deleted), and must not reach WordPress after the DELETE.
				if ( ! ( await notices.isPending( item.id ) ) ) {
					continue;
				}
				const result = await notifier( item.notice, this.abort.signal );
				const context = {
					notice: item.notice.type,
					endpoint_id: item.notice.endpoint_id,
					attempt: item.attempts + 1,
				};
				if ( result.acknowledged ) {
					await notices.acknowledge( item.id, this.clock.now() );
					log.info( context, 'WordPress notified' );
				} else {
					const delayMs = Math.min( this.maxDelayMs, this.options.baseDelayMs * 2 ** item.attempts );
					await notices.failed( item.id, result.error, this.clock.now() + delayMs );
					log.warn(
						{ ...context, error: result.error, retry_in_s: delayMs / 1000 },
						'WordPress did not acknowledge a notice; will retry'
					);
				}
			}
		}
	}

	/** When to look again: the earliest notice due, or soon when another instance was sending or the round failed. */
	private async nextRoundAt( outcome: 'sent' | 'busy' | 'failed' ): Promise< number | undefined > {
		if ( outcome === 'busy' ) {
			return this.clock.now() + ( this.options.busyRetryMs ?? BUSY_RETRY_MS );
		}
		if ( outcome === 'failed' ) {
			return this.clock.now() + 1000;
		}
		try {
			return await this.options.notices.nextDue();
		} catch ( error ) {
			this.options.log.error( { err: error }, 'could not read the notices table; retrying in 1 s' );
			return this.clock.now() + 1000;
		}
	}

	private armTimer( next: number | undefined ): void {
		this.cancelTimer();
		if ( this.state !== 'running' || next === undefined ) {
			return;
		}
		this.cancelTimer = this.clock.schedule( next - this.clock.now(), () => this.kick() );
	}
}

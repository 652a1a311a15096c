import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import { attemptMetrics, type AttemptMetrics } from '../metrics/attempt-metrics';
import type { DisableReason } from '../metrics/outcomes';
import type { SidecarMetrics } from '../metrics/registry';
import { parkedIfEndpointStopped, type ClaimedDelivery, type Completion } from '../store/deliveries-store';
import type { Endpoint } from '../store/endpoints-store';
import type { Stores } from '../store/stores';
import { attemptRequestFor, createDeliveryClient, type AttemptResult, type DeliveryClient } from './delivery-client';
import { endpointDisabledNotice, failingDisableReason } from './endpoint-health';
import { decide, DEFAULT_RETRY_POLICY, type RetryPolicyConfig } from './retry-policy';
import { parseAllowCidrs } from './url-guard';

export interface DispatcherOptions {
	config: SidecarConfig;
	log: Logger;
	stores: Stores;
	/** Where attempts, final outcomes and disables are counted (after the commit that records them). */
	metrics: Pick< SidecarMetrics, 'recordAttempt' | 'recordDeliveryFinished' | 'recordEndpointDisabled' >;
	/** Called after a commit that queued notices for WordPress (the notice sender's kick). */
	onNoticesQueued?: () => void;
	client?: DeliveryClient;
	random?: () => number;
}

// setTimeout's ceiling (~24.8 days); a later retry just re-arms on wake-up.
const MAX_TIMER_MS = 2 ** 31 - 1;

export function retryPolicyFrom( config: SidecarConfig ): RetryPolicyConfig {
	return {
		scheduleSeconds: config.retryScheduleSeconds ?? DEFAULT_RETRY_POLICY.scheduleSeconds,
		jitterRatio: config.retryJitterRatio,
		overloadPenaltySeconds: config.overloadDelaySeconds,
	};
}

/** An attempt that returned, waiting for the next pump to record it. */
interface Finished {
	endpointId: string;
	claimed: ClaimedDelivery;
	result: AttemptResult;
}

/** What a committed transaction adds to the metrics. */
type Recorded = AttemptMetrics | { kind: 'disable'; reason: DisableReason };

/**
 * The in-process delivery worker. The database is the queue; this decides what goes
 * out when:
 *  - events handed over by POST /v1/events are claimed in the transaction that stores
 *    them (ingest()); the pump is woken after every finished attempt (a slot or an
 *    ordering key freed up), by the API's changes, and by one timer set to the next
 *    due retry (no polling on the hot path);
 *  - at most max_concurrency attempts per endpoint;
 *  - per (endpoint, ordering_key) one delivery at a time, in arrival order (the
 *    claim query skips anything behind an unfinished earlier one);
 *  - retry-policy decide() for what follows an attempt; 410 or a failure streak
 *    longer than disableAfterHours disables the endpoint and tells WordPress.
 * Each pump is one SQLite transaction that records every attempt finished since the
 * last pump and claims the next ones: under load, many deliveries share a commit.
 */
export class Dispatcher {
	private readonly log: Logger;
	private readonly stores: Stores;
	private readonly policy: RetryPolicyConfig;
	private readonly client: DeliveryClient;
	private readonly onNoticesQueued: () => void;
	private readonly random: () => number;
	private readonly disableAfterMs: number;
	/** Whether the per-delivery debug line is logged (read once: building it costs on the hot path). */
	private readonly debug: boolean;
	private readonly metrics: DispatcherOptions[ 'metrics' ];
	/** Set when a transaction queued a notice; the notice sender is kicked after the commit. */
	private noticesQueued = false;
	/** What the current transaction will add to the metrics once (and only if) it commits. */
	private recorded: Recorded[] = [];

	private endpoints = new Map< string, Endpoint >();
	private readonly inFlight = new Map< string, number >();
	private readonly running = new Set< Promise< void > >();
	/** Attempts done but not yet written; the next pump records them all in one transaction. */
	private finished: Finished[] = [];
	private readonly dirty = new Set< string >();
	private allDirty = false;
	private pumpQueued = false;
	private timer: NodeJS.Timeout | undefined;
	private timerAt = Infinity;
	private state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';
	/** Set when stop()'s deadline passed: late results are dropped, their rows stay in_flight for recovery. */
	private abandoned = false;
	private readonly abort = new AbortController();

	constructor( options: DispatcherOptions ) {
		const { config } = options;
		this.log = options.log;
		this.stores = options.stores;
		this.metrics = options.metrics;
		this.policy = retryPolicyFrom( config );
		this.client =
			options.client ??
			createDeliveryClient( {
				allowCidrs: parseAllowCidrs( config.allowPrivateCidrs.join( ',' ) ),
				timeoutMs: config.deliveryTimeoutMs,
				sourceUrl: config.wordpressUrl,
			} );
		this.onNoticesQueued = options.onNoticesQueued ?? ( () => undefined );
		this.random = options.random ?? Math.random;
		this.disableAfterMs = config.disableAfterHours * 3_600_000;
		this.debug = this.log.isLevelEnabled( 'debug' );
	}

	/** Puts deliveries a crash left in flight back in the queue, then starts sending. */
	start(): void {
		if ( this.state !== 'new' ) {
			return;
		}
		const recovered = this.stores.deliveries.recoverInFlight( Date.now() );
		if ( recovered > 0 ) {
			this.log.warn( { recovered }, 'deliveries left in flight by the previous run are queued again' );
		}
		this.state = 'running';
		this.endpointsChanged();
	}

	/** Something was queued for these endpoints (all of them if omitted). */
	wake( endpointIds?: Iterable< string > ): void {
		if ( endpointIds === undefined ) {
			this.allDirty = true;
		} else {
			for ( const id of endpointIds ) {
				this.dirty.add( id );
			}
		}
		if ( ! this.pumpQueued && ( this.state === 'running' || this.state === 'stopping' ) ) {
			this.pumpQueued = true;
			// setImmediate: one pump for everything that happened in this turn of the loop.
			setImmediate( () => this.pump() );
		}
	}

	/** Reload endpoint settings (URL, secrets, status, limits) after the API changed them. */
	endpointsChanged(): void {
		this.endpoints = new Map(
			this.stores.endpoints.list( Date.now() ).map( ( endpoint ) => [ endpoint.id, endpoint ] )
		);
		this.wake();
	}

	/** When a just-received event's first attempt is due (schedule[0] is normally 0). */
	firstAttemptAt( now: number ): number {
		return now + Math.round( ( this.policy.scheduleSeconds[ 0 ] ?? 0 ) * 1000 );
	}

	/** Started and not stopping or stopped: what the readiness check asks. */
	isRunning(): boolean {
		return this.state === 'running';
	}

	inFlightCount( endpointId?: string ): number {
		if ( endpointId !== undefined ) {
			return this.inFlight.get( endpointId ) ?? 0;
		}
		return [ ...this.inFlight.values() ].reduce( ( sum, n ) => sum + n, 0 );
	}

	/**
	 * Stops taking work and waits up to graceMs for attempts in flight to finish and
	 * be recorded. Past the deadline, attempts are aborted and left in_flight in the
	 * database, to be sent again after the next start (at-least-once).
	 */
	async stop( graceMs: number ): Promise< void > {
		if ( this.state === 'stopped' || this.state === 'stopping' ) {
			return;
		}
		this.state = 'stopping';
		clearTimeout( this.timer );
		const deadline = Date.now() + graceMs;
		if ( ! ( await settledBefore( this.running, deadline ) ) ) {
			this.abandoned = true;
			this.log.warn(
				{ in_flight: this.running.size },
				'shutdown deadline passed: unfinished attempts will be retried after restart'
			);
		}
		this.pump(); // record what finished since the last pump
		this.abort.abort();
		this.client.close();
		await Promise.allSettled( [ ...this.running ] );
		this.state = 'stopped';
	}

	/**
	 * Disables endpoints whose failure streak has outlasted disableAfterHours even when
	 * no attempt finishes any more (retries give up after about a day, so the check that
	 * runs after each attempt alone would never fire). Called by the maintenance loop.
	 */
	sweepHealth( now: number ): number {
		if ( this.state !== 'running' ) {
			return 0;
		}
		let disabled = 0;
		try {
			this.stores.db
				.transaction( () => {
					for ( const id of this.stores.endpoints.failingBefore( now - this.disableAfterMs ) ) {
						const endpoint = this.endpoints.get( id );
						if ( endpoint && this.disableForFailing( endpoint, now ) ) {
							disabled++;
						}
					}
				} )
				.immediate();
		} catch ( error ) {
			this.noticesQueued = false; // rolled back with the rest
			this.recorded = [];
			this.endpoints = new Map(
				this.stores.endpoints.list( Date.now() ).map( ( endpoint ) => [ endpoint.id, endpoint ] )
			);
			throw error;
		}
		this.afterCommit();
		if ( disabled > 0 ) {
			this.wake();
		}
		return disabled;
	}

	/** Counts what the last transaction committed, and tells the notice sender about its notices. */
	private afterCommit(): void {
		if ( this.recorded.length > 0 ) {
			for ( const item of this.recorded ) {
				if ( item.kind === 'disable' ) {
					this.metrics.recordEndpointDisabled( item.reason );
					continue;
				}
				this.metrics.recordAttempt(
					item.endpointId,
					item.outcome,
					item.durationSeconds,
					item.firstAttemptDelaySeconds
				);
				if ( item.finished ) {
					this.metrics.recordDeliveryFinished( item.endpointId, item.outcome, item.finished.giveUp );
				}
			}
			this.recorded = [];
		}
		if ( this.noticesQueued ) {
			this.noticesQueued = false;
			this.onNoticesQueued();
		}
	}

	/**
	 * Stores what a POST hands over and claims the first attempts it made due in one
	 * transaction: one commit instead of two for a single-event POST (bench/README.md,
	 * "Outbound delivery"). Finished attempts are left to the next pump, so that a failure to
	 * record them never refuses events. When `store` or a claim throws, nothing is stored nor
	 * claimed and the error is the caller's.
	 */
	ingest< T extends { endpointIds: string[] } >( store: ( now: number ) => T ): T {
		if ( this.state === 'new' || this.state === 'stopped' ) {
			const result = store( Date.now() );
			this.wake( result.endpointIds );
			return result;
		}
		return this.pump( store ) as T;
	}

	/**
	 * One transaction: record finished attempts (which may free slots and unblock ordering
	 * keys), or store what ingest() was given, then claim what is due on the endpoints that
	 * may have work.
	 */
	private pump< T extends { endpointIds: string[] } >( ingest?: ( now: number ) => T ): T | undefined {
		if ( ingest === undefined ) {
			this.pumpQueued = false;
		}
		if ( this.state === 'new' || this.state === 'stopped' ) {
			return undefined;
		}
		const now = Date.now();
		const finished = ingest === undefined ? this.finished : [];
		if ( ingest === undefined ) {
			this.finished = [];
		}
		const ids = this.allDirty ? [ ...this.endpoints.keys() ] : [ ...this.dirty ];
		this.allDirty = false;
		this.dirty.clear();
		// Recording an attempt may unblock its ordering key: claim on its endpoint in the same
		// transaction even if an ingest() took the wake-up that the attempt's end gave.
		for ( const item of finished ) {
			if ( ! ids.includes( item.endpointId ) ) {
				ids.push( item.endpointId );
			}
		}
		const launches: [ Endpoint, ClaimedDelivery ][] = [];
		let ingested: T | undefined;
		if ( ingest !== undefined || finished.length > 0 || ids.length > 0 ) {
			try {
				this.stores.db
					.transaction( () => {
						if ( ingest !== undefined ) {
							ingested = ingest( now );
							ids.push( ...ingested.endpointIds.filter( ( id ) => ! ids.includes( id ) ) );
						}
						for ( const item of finished ) {
							this.record( item, now );
						}
						if ( this.state !== 'running' ) {
							return;
						}
						for ( const id of ids ) {
							const endpoint = this.endpoints.get( id );
							if ( endpoint?.status === 'active' ) {
								const free = endpoint.maxConcurrency - this.inFlightCount( id );
								for ( const claimed of this.stores.deliveries.claimDue( id, now, free ) ) {
									launches.push( [ endpoint, claimed ] );
								}
							}
						}
					} )
					.immediate();
			} catch ( error ) {
				// Rolled back (e.g. SQLITE_BUSY from an outside writer): keep the results, reload
				// the endpoint cache record() may have touched, and try again shortly.
				this.finished = finished.concat( this.finished );
				this.noticesQueued = false; // rolled back with the rest
				this.recorded = [];
				this.endpoints = new Map(
					this.stores.endpoints.list( Date.now() ).map( ( endpoint ) => [ endpoint.id, endpoint ] )
				);
				setTimeout( () => this.wake(), 1000 ).unref();
				if ( ingest !== undefined ) {
					throw error; // the POST's answer says it: nothing was stored
				}
				this.log.error( { err: error }, 'dispatcher could not write to the database; retrying in 1 s' );
				return undefined;
			}
		}
		this.afterCommit();
		// Sent only once the claims are committed.
		for ( const [ endpoint, claimed ] of launches ) {
			this.launch( endpoint, claimed );
		}
		if ( this.state === 'running' ) {
			this.armTimer( now );
		}
		return ingested;
	}

	/** One timer, for the earliest retry in the future; earlier work arrives by wake(). */
	private armTimer( now: number ): void {
		const next = this.stores.deliveries.nextDueAfter( now );
		if ( next === undefined || next >= this.timerAt ) {
			return;
		}
		clearTimeout( this.timer );
		this.timerAt = next;
		this.timer = setTimeout(
			() => {
				this.timerAt = Infinity;
				this.wake();
			},
			Math.min( Math.max( 0, next - now ), MAX_TIMER_MS )
		);
	}

	private launch( endpoint: Endpoint, claimed: ClaimedDelivery ): void {
		this.inFlight.set( endpoint.id, this.inFlightCount( endpoint.id ) + 1 );
		const task = this.attempt( endpoint, claimed )
			.catch( ( error: unknown ) => {
				this.log.error(
					{ err: error, delivery_id: claimed.id, endpoint_id: endpoint.id },
					'delivery attempt crashed'
				);
			} )
			.finally( () => {
				this.inFlight.set( endpoint.id, this.inFlightCount( endpoint.id ) - 1 );
				this.running.delete( task );
				this.wake( [ endpoint.id ] );
			} );
		this.running.add( task );
	}

	private async attempt( endpoint: Endpoint, claimed: ClaimedDelivery ): Promise< void > {
		const result = await this.client.send( attemptRequestFor( endpoint, claimed, Date.now() ) );
		if ( ! this.abandoned ) {
			this.finished.push( { endpointId: endpoint.id, claimed, result } );
		}
	}

	/** Applies retry-policy decide() to a finished attempt and writes the outcome (inside pump's transaction). */
	private record( { endpointId, claimed, result }: Finished, now: number ): void {
		const cycleAttempts = claimed.cycleAttempts + 1;
		const decision = decide( result.outcome, cycleAttempts, this.policy, this.random, now );
		let completion: Completion = {
			deliveryId: claimed.id,
			endpointId,
			status: 'failed',
			attemptNumber: claimed.attemptCount + 1,
			cycleAttempts,
			trigger: claimed.trigger,
			startedAt: result.startedAt,
			durationMs: result.durationMs,
			statusCode: result.statusCode,
			errorCode: result.errorCode,
			responseExcerpt: result.responseExcerpt,
			nextAttemptAt: null,
			lastError: decision.action === 'succeeded' ? null : decision.reason,
			now,
		};
		if ( decision.action === 'succeeded' ) {
			completion.status = 'succeeded';
		} else if ( decision.action === 'retry' ) {
			completion.status = 'pending';
			completion.nextAttemptAt = now + Math.round( decision.delaySeconds * 1000 );
		}
		// This process is the only writer: its cached endpoint is what the store holds.
		const endpoint = this.endpoints.get( endpointId );
		completion = parkedIfEndpointStopped( completion, endpoint );
		if ( ! this.stores.deliveries.complete( completion ) ) {
			return; // the endpoint was deleted meanwhile
		}
		this.recorded.push( attemptMetrics( endpointId, claimed, result, decision, completion.status ) );

		const context = {
			delivery_id: claimed.id,
			event_id: claimed.eventId,
			endpoint_id: endpointId,
			attempt: completion.attemptNumber,
		};
		if ( decision.action === 'succeeded' ) {
			if ( this.debug ) {
				this.log.debug( { ...context, status: result.statusCode, ms: result.durationMs }, 'delivered' );
			}
		} else if ( decision.action === 'retry' ) {
			this.log.info(
				{ ...context, status: result.statusCode, error: result.errorCode, retry_in_s: decision.delaySeconds },
				'delivery failed, will retry'
			);
		} else {
			this.log.warn(
				{ ...context, status: result.statusCode, error: result.errorCode, reason: decision.reason },
				'delivery failed for good'
			);
		}
		if ( ! endpoint ) {
			return;
		}
		this.trackHealth( endpoint, decision.action === 'succeeded', now );
		if ( decision.action === 'disable-endpoint' ) {
			this.disableEndpoint( endpoint, decision.reason, 'gone', now );
		}
	}

	/** Any success ends a failure streak; a streak longer than disableAfterHours disables the endpoint. */
	private trackHealth( endpoint: Endpoint, succeeded: boolean, now: number ): void {
		if ( succeeded ) {
			if ( endpoint.failingSince !== null ) {
				this.stores.endpoints.clearFailing( endpoint.id );
				endpoint.failingSince = null;
			}
			return;
		}
		if ( endpoint.failingSince === null ) {
			this.stores.endpoints.markFailing( endpoint.id, now );
			endpoint.failingSince = now;
			return;
		}
		this.disableForFailing( endpoint, now );
	}

	private disableForFailing( endpoint: Endpoint, now: number ): boolean {
		const reason = failingDisableReason( endpoint.failingSince, now, this.disableAfterMs );
		if ( endpoint.status !== 'active' || reason === null ) {
			return false;
		}
		return this.disableEndpoint( endpoint, reason, 'failing', now );
	}

	/** A route committed notices of its own (an endpoint enabled or deleted): send them now. */
	noticesCommitted(): void {
		this.onNoticesQueued();
	}

	/**
	 * Disables the endpoint (its queued deliveries are cancelled) and queues the notice to
	 * WordPress in the same transaction (the caller's); the notice sender sends it after
	 * the commit and retries until WordPress acknowledges.
	 */
	private disableEndpoint( endpoint: Endpoint, reason: string, kind: DisableReason, now: number ): boolean {
		if ( ! this.stores.endpoints.disable( endpoint.id, reason, 'auto', now ) ) {
			return false;
		}
		this.recorded.push( { kind: 'disable', reason: kind } );
		// The newest attempt is the failure that disabled it: a success would have ended the streak.
		const lastError = this.stores.deliveries.health( endpoint.id, 0, 1 ).lastError;
		this.stores.notices.enqueue( endpointDisabledNotice( endpoint, reason, lastError ), now );
		this.noticesQueued = true;
		endpoint.status = 'disabled';
		endpoint.disabledReason = reason;
		endpoint.disabledAt = now;
		endpoint.disabledBy = 'auto';
		this.log.warn( { endpoint_id: endpoint.id, reason }, 'endpoint disabled' );
		return true;
	}
}

/** True if every promise settled before the deadline (a wall-clock ms timestamp). */
async function settledBefore( promises: Set< Promise< void > >, deadline: number ): Promise< boolean > {
	if ( promises.size === 0 ) {
		return true;
	}
	let timer: NodeJS.Timeout | undefined;
	const timedOut = new Promise< boolean >( ( resolve ) => {
		timer = setTimeout( () => resolve( false ), Math.max( 0, deadline - Date.now() ) );
	} );
	const settled = Promise.allSettled( [ ...promises ] ).then( () => true );
	const result = await Promise.race( [ settled, timedOut ] );
	clearTimeout( timer );
	return result;
}

import { randomBytes } from 'crypto';
import os from 'os';
import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import { attemptMetrics, countAttempt } from '../metrics/attempt-metrics';
import type { SidecarMetrics } from '../metrics/registry';
import type { ClaimedDelivery, Completion } from '../model/deliveries';
import type { Endpoint } from '../model/endpoints';
import type { InsertResult, NewEvent } from '../model/events';
import { ENDPOINT_DISABLED_HINT } from '../model/health';
import type { FinishedAttempt } from '../model/round-health';
import type { Lease, QueueStore, RoundInput } from '../store/queue-store';
import { noCancel, systemClock, type Cancel, type Clock } from './clock';
import { attemptRequestFor, createDeliveryClient, type AttemptResult, type DeliveryClient } from './delivery-client';
import { IngestHealth } from './ingest-health';
import { decide, DEFAULT_RETRY_POLICY, saysGone, type RetryPolicyConfig } from './retry-policy';
import { parseAllowCidrs } from './url-guard';
import { storeTrouble } from '../http/store-unavailable';

/** Idle poll period with leases: what other instances stored, retries that came due, leases that expired. */
export const LEASE_POLL_MS = 1000;
/**
 * A lease outlasts the longest attempt (the delivery timeout) by this much: time to record the
 * attempt (statements have a 1.5 s deadline, mysql-deadline.ts), and the clock difference
 * between instances (claimed_until is written with the claimer's clock and read with the
 * others'; keep the machines on NTP). The shorter the lease, the sooner another instance goes
 * on with the ordering keys of one that died.
 */
export const LEASE_MARGIN_MS = 2_000;
/** How soon a round that the store refused is tried again. */
const ROUND_RETRY_MS = 1000;

/**
 * How instances share the store: `owner`, one process owns it (SQLite: nothing else writes,
 * so the endpoint cache is the store and the next retry is read after each round); `leases`,
 * several instances claim the same rows under leases (MySQL/MariaDB: an idle poll finds what
 * others stored, retries that came due and leases that expired, and an endpoint is read again
 * before its claims are sent).
 */
export type Coordination = { kind: 'owner' } | { kind: 'leases'; pollMs: number };

export interface DispatcherOptions {
	config: SidecarConfig;
	log: Logger;
	store: QueueStore;
	/** Where attempts, final outcomes and disables are counted (after the round that records them). */
	metrics?: Pick< SidecarMetrics, 'recordAttempt' | 'recordDeliveryFinished' | 'recordEndpointDisabled' >;
	/** Called after a round that queued notices for WordPress (the notice sender's kick). */
	onNoticesQueued?: () => void;
	client?: DeliveryClient;
	random?: () => number;
	/** Names this instance in claims and attempts; defaults to host:pid:random. */
	instanceId?: string;
	/** Defaults from the store: owner on SQLite, leases polled every LEASE_POLL_MS on MySQL. */
	coordination?: Coordination;
	/** What due times, leases, the poll and the shutdown deadline are read from; the system's by default. */
	clock?: Clock;
}

export function retryPolicyFrom( config: SidecarConfig ): RetryPolicyConfig {
	return {
		scheduleSeconds: config.retryScheduleSeconds ?? DEFAULT_RETRY_POLICY.scheduleSeconds,
		jitterRatio: config.retryJitterRatio,
		overloadPenaltySeconds: config.overloadDelaySeconds,
	};
}

export function newInstanceId(): string {
	return `${ os.hostname().slice( 0, 32 ) }:${ process.pid }:${ randomBytes( 3 ).toString( 'hex' ) }`;
}

/**
 * The name an instance keeps across restarts: its host and the port it listens on (two live
 * instances cannot share both), so that a restarted instance takes back its own claims at once
 * (recoverInFlight) instead of leaving them to wait for their lease. Port 0 (a port chosen at
 * each start) has no stable name.
 */
export function stableInstanceId( port: number ): string {
	return port === 0 ? newInstanceId() : `${ os.hostname().slice( 0, 32 ) }:${ port }`;
}

/** An attempt that returned, waiting for the next round to record it. */
interface Finished {
	endpointId: string;
	claimed: ClaimedDelivery;
	result: AttemptResult;
}

/**
 * The delivery worker, one per instance, on either store. The database is the queue; this
 * decides what goes out when:
 *  - events handed over by POST /v1/events are stored and their first attempts claimed in one
 *    round (ingest()); a round runs after every finished attempt (a slot or an ordering key
 *    freed up), after the API's changes, and at the next retry that comes due (one timer);
 *    with leases, also every pollMs;
 *  - at most max_concurrency attempts per endpoint on this instance;
 *  - per (endpoint, ordering_key) one delivery at a time, in arrival order (the store's claim
 *    skips anything behind an unfinished earlier one, whichever instance holds it);
 *  - retry-policy decide() for what follows an attempt; the store's round moves the
 *    endpoint's health (model/health.ts): 410 or a failure streak longer than
 *    disableAfterHours disables the endpoint and queues its notice to WordPress.
 * Each round is one store call (QueueStore.round): records every attempt finished since the
 * last one and claims the next, so under load many deliveries share a round. No attempt runs
 * past its lease: the lease is the delivery timeout plus a margin.
 */
export class Dispatcher {
	readonly instanceId: string;
	private readonly log: Logger;
	private readonly store: QueueStore;
	private readonly policy: RetryPolicyConfig;
	private readonly client: DeliveryClient;
	private readonly onNoticesQueued: () => void;
	private readonly random: () => number;
	private readonly disableAfterMs: number;
	private readonly lease: Lease;
	private readonly coordination: Coordination;
	/** Whether the per-delivery debug line is logged (read once: building it costs on the hot path). */
	private readonly debug: boolean;
	private readonly metrics: DispatcherOptions[ 'metrics' ];
	private readonly clock: Clock;

	private endpoints = new Map< string, Endpoint >();
	private reloadEndpoints = true;
	private readonly inFlight = new Map< string, number >();
	private readonly running = new Set< Promise< void > >();
	/** Attempts done but not yet written; the next round records them all. */
	private finished: Finished[] = [];
	private readonly dirty = new Set< string >();
	private allDirty = false;
	private pumpQueued = false;
	/** The round in progress, if any; a wake-up meanwhile runs another after it. */
	private pumping: Promise< void > | undefined;
	private cancelTimer: Cancel = noCancel;
	private timerAt = Infinity;
	private cancelPoll: Cancel = noCancel;
	private state: 'new' | 'starting' | 'running' | 'stopping' | 'stopped' = 'new';
	/** Set when stop()'s deadline passed: late results are dropped, their rows stay in_flight for recovery. */
	private abandoned = false;
	/** Set while the store does not answer (logged once, and once when it answers again). */
	private storeError: unknown;
	private readonly ingestHealth = new IngestHealth();

	constructor( options: DispatcherOptions ) {
		const { config } = options;
		this.log = options.log;
		this.store = options.store;
		this.metrics = options.metrics;
		this.clock = options.clock ?? systemClock;
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
		this.instanceId = options.instanceId ?? newInstanceId();
		this.lease = { instanceId: this.instanceId, leaseMs: config.deliveryTimeoutMs + LEASE_MARGIN_MS };
		this.coordination =
			options.coordination ??
			( this.store.kind === 'sqlite' ? { kind: 'owner' } : { kind: 'leases', pollMs: LEASE_POLL_MS } );
		this.debug = this.log.isLevelEnabled( 'debug' );
	}

	/** Puts back what this instance left in flight when it last stopped, then starts sending. */
	start(): void {
		if ( this.state !== 'new' ) {
			return;
		}
		this.state = 'starting';
		// Nothing is claimed before the recovery: it would put this run's own claims back too.
		void this.store.recoverInFlight( this.lease, this.clock.now() ).then(
			( recovered ) => {
				if ( recovered > 0 ) {
					this.log.warn( { recovered }, 'deliveries left in flight by the previous run are queued again' );
				}
				this.begin();
			},
			( error: unknown ) => {
				// Their leases expire for any instance to take, this one included.
				this.log.error( { err: error }, 'could not queue again what the previous run left in flight' );
				this.begin();
			}
		);
	}

	private begin(): void {
		if ( this.state !== 'starting' ) {
			return;
		}
		this.state = 'running';
		if ( this.coordination.kind === 'leases' ) {
			this.poll( this.coordination.pollMs );
		}
		this.endpointsChanged();
	}

	/** With leases, every pollMs: what other instances stored, retries that came due, leases that expired. */
	private poll( pollMs: number ): void {
		this.cancelPoll = this.clock.schedule( pollMs, () => {
			if ( this.state === 'running' ) {
				this.poll( pollMs );
				this.endpointsChanged();
			}
		} );
	}

	/** Something was queued for these endpoints (all of them if omitted). */
	wake( endpointIds?: Iterable< string > ): void {
		if ( endpointIds === undefined ) {
			this.allDirty = true;
		} else {
			for ( const id of endpointIds ) {
				this.dirty.add( id );
				// Deliveries were just made for it, so it is active in the store: one this instance
				// does not know as active was created or enabled through another instance.
				if ( this.endpoints.get( id )?.status !== 'active' ) {
					this.reloadEndpoints = true;
				}
			}
		}
		if ( ! this.pumpQueued && ( this.state === 'running' || this.state === 'stopping' ) ) {
			this.pumpQueued = true;
			// setImmediate: one round for everything that happened in this turn of the loop.
			setImmediate( () => this.pump() );
		}
	}

	/** Reload endpoint settings (URL, secrets, status, limits) after the API changed them. */
	endpointsChanged(): void {
		this.reloadEndpoints = true;
		this.wake();
	}

	/** A route committed notices of its own (an endpoint enabled or deleted): send them now. */
	noticesCommitted(): void {
		this.onNoticesQueued();
	}

	/** When a just-received event's first attempt is due (schedule[0] is normally 0). */
	firstAttemptAt( now: number ): number {
		return now + Math.round( ( this.policy.scheduleSeconds[ 0 ] ?? 0 ) * 1000 );
	}

	/** Started and not stopping or stopped: what the readiness check asks. */
	isRunning(): boolean {
		return this.state === 'running';
	}

	/** Whether the last round failed because the store did not answer. */
	storeUnreachable(): boolean {
		return this.storeError !== undefined;
	}

	inFlightCount( endpointId?: string ): number {
		if ( endpointId !== undefined ) {
			return this.inFlight.get( endpointId ) ?? 0;
		}
		return [ ...this.inFlight.values() ].reduce( ( sum, n ) => sum + n, 0 );
	}

	/**
	 * POST /v1/events: stores the batch and claims the first attempts it made due in one round
	 * (one commit instead of two on SQLite; bench/README.md, "Outbound delivery"). Finished
	 * attempts are left to the next round, so that a failure to record them never refuses
	 * events. When the store throws, nothing is stored nor claimed and the error is the caller's.
	 */
	async ingest( events: NewEvent[] ): Promise< InsertResult > {
		try {
			const result = await this.storeBatch( events );
			this.ingestHealth.stored();
			return result;
		} catch ( error ) {
			this.ingestHealth.failed( this.clock.now() );
			throw error;
		}
	}

	/** Why this instance cannot take events now (its last hand-over could not be stored), or null. */
	ingestProblem(): string | null {
		return this.ingestHealth.problem( this.clock.now() );
	}

	private async storeBatch( events: NewEvent[] ): Promise< InsertResult > {
		const now = this.clock.now();
		const ingest = { events, firstAttemptAt: this.firstAttemptAt( now ) };
		if ( this.state !== 'running' || this.pumping !== undefined ) {
			// Not claiming now (not started, or a round of this instance is claiming): store, then wake.
			const { ingested } = await this.store.round( {
				...this.roundInput( now, [] ),
				ingest,
				claimOn: [],
				limit: () => 0,
			} );
			const result = ingested as InsertResult;
			this.wake( result.endpointIds );
			return result;
		}
		const round = this.runRound( now, ingest );
		this.pumping = round.then( () => undefined ).catch( () => undefined );
		try {
			return ( await round ) as InsertResult;
		} finally {
			this.roundDone();
		}
	}

	/**
	 * Stops taking work and waits up to graceMs for attempts in flight to finish and be
	 * recorded. Past the deadline, attempts are abandoned and left in flight in the store:
	 * sent again after the next start, or (leases) by another instance once their lease ends.
	 */
	async stop( graceMs: number ): Promise< void > {
		if ( this.state === 'stopped' || this.state === 'stopping' ) {
			return;
		}
		const started = this.state !== 'new';
		this.state = 'stopping';
		this.cancelTimer();
		this.cancelPoll();
		const deadline = this.clock.now() + graceMs;
		// A round in progress read its claim limit while running: what it claims is launched when
		// it ends, and is waited for with the rest.
		await this.settledBefore( this.pumping ? [ this.pumping ] : [], deadline );
		if ( started && ! ( await this.settledBefore( [ ...this.running ], deadline ) ) ) {
			this.abandoned = true;
			this.log.warn(
				{ in_flight: this.running.size },
				'shutdown deadline passed: unfinished attempts will be retried after restart'
			);
		}
		await this.settledBefore( this.pumping ? [ this.pumping ] : [], deadline );
		if ( started && this.finished.length > 0 ) {
			await this.pump(); // record what finished since the last round
		}
		this.client.close();
		this.state = 'stopped';
	}

	private roundInput( now: number, finished: FinishedAttempt[] ): RoundInput {
		return {
			now,
			finished,
			claimOn: [],
			limit: ( id ) => {
				const endpoint = this.endpoints.get( id );
				return endpoint?.status === 'active' && this.state === 'running' && ! this.goneUnrecorded( id )
					? endpoint.maxConcurrency - this.inFlightCount( id ) - this.unrecorded( id )
					: 0;
			},
			lease: this.lease,
			disableAfterMs: this.disableAfterMs,
		};
	}

	/**
	 * Attempts to the endpoint that have ended but wait for the next round to be recorded. Their
	 * slots stay taken until then: the store still has them in flight, holding their ordering
	 * keys, so a claim in between would take a later key's event instead of the next one of theirs.
	 */
	private unrecorded( id: string ): number {
		return this.finished.filter( ( item ) => item.endpointId === id ).length;
	}

	/**
	 * Whether an attempt to the endpoint answered 410 Gone and waits for the next round, which
	 * disables the endpoint: until then nothing more is claimed for it, whatever slots are free.
	 */
	private goneUnrecorded( endpointId: string ): boolean {
		return this.finished.some( ( item ) => item.endpointId === endpointId && saysGone( item.result.outcome ) );
	}

	/** One round: a queued wake-up. */
	private async pump(): Promise< void > {
		this.pumpQueued = false;
		if ( this.pumping !== undefined ) {
			await this.pumping;
			if ( this.pumping !== undefined ) {
				this.wake( [] );
				return;
			}
		}
		if ( this.state === 'new' || this.state === 'stopped' ) {
			return;
		}
		this.pumping = this.runRound( this.clock.now() ).then(
			() => undefined,
			() => undefined
		);
		await this.pumping;
		this.roundDone();
	}

	private roundDone(): void {
		this.pumping = undefined;
		if ( this.allDirty || this.dirty.size > 0 || this.finished.length > 0 ) {
			this.wake( [] );
		}
	}

	/**
	 * Records finished attempts (which may free slots and unblock ordering keys), or stores what
	 * ingest() was given, then claims what is due on the endpoints that may have work.
	 */
	private async runRound( now: number, ingest?: RoundInput[ 'ingest' ] ): Promise< InsertResult | undefined > {
		const finished = ingest === undefined ? this.finished : [];
		if ( ingest === undefined ) {
			this.finished = [];
		}
		try {
			if ( this.reloadEndpoints ) {
				this.reloadEndpoints = false;
				this.endpoints = new Map(
					( await this.store.listEndpoints( now ) ).map( ( endpoint ) => [ endpoint.id, endpoint ] )
				);
			}
			const ids = this.allDirty ? [ ...this.endpoints.keys() ] : [ ...this.dirty ];
			this.allDirty = false;
			this.dirty.clear();
			// Recording an attempt may unblock its ordering key: claim on its endpoint in the same
			// round even if an ingest() took the wake-up that the attempt's end gave.
			for ( const item of finished ) {
				if ( ! ids.includes( item.endpointId ) ) {
					ids.push( item.endpointId );
				}
			}
			if ( ingest === undefined && finished.length === 0 && ids.length === 0 ) {
				return undefined;
			}
			const decided = finished.map( ( item ) => this.decideOutcome( item, now ) );
			const result = await this.store.round( {
				...this.roundInput(
					now,
					decided.map( ( item ) => item.attempt )
				),
				ingest,
				claimOn: ids,
			} );
			this.afterRound( decided, result, now );
			if ( result.cutShort !== undefined ) {
				// What the round recorded (and stored) stands; its claims did not happen.
				this.storeFailed( result.cutShort );
			} else if ( this.storeError !== undefined ) {
				this.log.info( 'the store answers again' );
				this.storeError = undefined;
			}
			if ( result.ingested ) {
				// Deliveries were made for these, so each is active in the store: one this instance does
				// not know as active was created or enabled through another instance (wake reads them again).
				this.wake(
					result.ingested.endpointIds.filter( ( id ) => this.endpoints.get( id )?.status !== 'active' )
				);
			}
			await this.afterClaims( result.claimed, now );
			return result.ingested;
		} catch ( error ) {
			// Nothing of the round happened: keep the results, read the endpoints again, try again shortly.
			this.finished = finished.concat( this.finished );
			if ( ingest !== undefined ) {
				this.reloadEndpoints = true;
				this.clock.schedule( ROUND_RETRY_MS, () => this.wake() );
				throw error; // the POST's answer says it: nothing was stored
			}
			this.storeFailed( error );
			return undefined;
		}
	}

	/** A round the store refused (whole or in part): read the endpoints again and try again shortly. */
	private storeFailed( error: unknown ): void {
		this.reloadEndpoints = true;
		this.clock.schedule( ROUND_RETRY_MS, () => this.wake() );
		if ( this.storeError === undefined ) {
			// "Could not reach" only when it could not: a statement past its limit or a lock wait is a busy store.
			this.log.error(
				{ err: error },
				storeTrouble( error ) === 'busy'
					? 'dispatcher: its store is busy (a statement gave up); retrying in 1 s'
					: 'dispatcher could not reach its store; retrying in 1 s'
			);
		}
		this.storeError = error;
	}

	/** Applies retry-policy decide() to a finished attempt: what the round records. */
	private decideOutcome( { endpointId, claimed, result }: Finished, now: number ) {
		const cycleAttempts = claimed.cycleAttempts + 1;
		const decision = decide( result.outcome, cycleAttempts, this.policy, this.random, now );
		const completion: Completion = {
			deliveryId: claimed.id,
			endpointId,
			status: decision.action === 'succeeded' ? 'succeeded' : decision.action === 'retry' ? 'pending' : 'failed',
			attemptNumber: claimed.attemptCount + 1,
			cycleAttempts,
			trigger: claimed.trigger,
			startedAt: result.startedAt,
			durationMs: result.durationMs,
			statusCode: result.statusCode,
			errorCode: result.errorCode,
			responseExcerpt: result.responseExcerpt,
			nextAttemptAt: decision.action === 'retry' ? now + Math.round( decision.delaySeconds * 1000 ) : null,
			lastError: decision.action === 'succeeded' ? null : decision.reason,
			now,
		};
		const attempt: FinishedAttempt = {
			completion,
			endpoint: this.endpoints.get( endpointId ),
			succeeded: decision.action === 'succeeded',
			gone: decision.action === 'disable-endpoint' ? decision.reason : null,
		};
		return { endpointId, claimed, result, decision, attempt };
	}

	/** Counts and logs what the round committed, updates the endpoint cache, and kicks the notice sender. */
	private afterRound(
		decided: ReturnType< Dispatcher[ 'decideOutcome' ] >[],
		result: Awaited< ReturnType< QueueStore[ 'round' ] > >,
		now: number
	): void {
		decided.forEach( ( { endpointId, claimed, result: attempt, decision, attempt: { completion } }, index ) => {
			if ( ! result.recorded[ index ] ) {
				this.log.warn(
					{ delivery_id: claimed.id, endpoint_id: endpointId },
					'delivery no longer held by this instance (lease expired or endpoint deleted)'
				);
				return;
			}
			if ( this.metrics ) {
				countAttempt(
					this.metrics,
					attemptMetrics( endpointId, claimed, attempt, decision, completion.status )
				);
			}
			const context = {
				delivery_id: claimed.id,
				event_id: claimed.eventId,
				endpoint_id: endpointId,
				attempt: completion.attemptNumber,
			};
			if ( decision.action === 'succeeded' ) {
				if ( this.debug ) {
					this.log.debug( { ...context, status: attempt.statusCode, ms: attempt.durationMs }, 'delivered' );
				}
			} else if ( decision.action === 'retry' ) {
				this.log.info(
					{
						...context,
						status: attempt.statusCode,
						error: attempt.errorCode,
						retry_in_s: decision.delaySeconds,
					},
					'delivery failed, will retry'
				);
				this.wakeAt( completion.nextAttemptAt ?? now, now );
			} else {
				this.log.warn(
					{ ...context, status: attempt.statusCode, error: attempt.errorCode, reason: decision.reason },
					'delivery failed for good'
				);
			}
		} );
		for ( const [ id, since ] of result.failingSince ) {
			const endpoint = this.endpoints.get( id );
			if ( endpoint ) {
				endpoint.failingSince = since;
			}
		}
		for ( const { endpointId, disable } of result.disabled ) {
			const endpoint = this.endpoints.get( endpointId );
			if ( endpoint ) {
				endpoint.status = 'disabled';
				endpoint.disabledReason = disable.reason;
				endpoint.disabledAt = now;
				endpoint.disabledBy = 'auto';
			}
			this.metrics?.recordEndpointDisabled( disable.kind );
			this.log.warn(
				{ endpoint_id: endpointId, reason: disable.reason, hint: ENDPOINT_DISABLED_HINT },
				'endpoint disabled'
			);
		}
		for ( const { endpointId, resent, retriesDueNow } of result.recovered ) {
			this.log.info(
				{ endpoint_id: endpointId, resent, retries_due_now: retriesDueNow },
				'endpoint succeeds again: what ran out of attempts while it failed is sent again, waiting retries are due now'
			);
		}
		if ( result.disabled.length > 0 ) {
			this.reloadEndpoints = true;
			this.onNoticesQueued();
		}
	}

	/** Sends what the round claimed, once it is committed, and sets the timer for the next retry. */
	private async afterClaims( claimed: ClaimedDelivery[], now: number ): Promise< void > {
		if ( this.coordination.kind === 'leases' && claimed.length > 0 ) {
			// Read again before sending: another instance may have rotated its secret or changed
			// its url since the last reload, and what it changed applies at once.
			for ( const id of new Set( claimed.map( ( delivery ) => delivery.endpointId ) ) ) {
				const current = await this.store.getEndpoint( id, now );
				if ( current ) {
					this.endpoints.set( id, current );
				}
			}
		}
		for ( const delivery of claimed ) {
			const endpoint = this.endpoints.get( delivery.endpointId );
			if ( endpoint ) {
				this.launch( endpoint, delivery );
			}
		}
		if ( this.coordination.kind === 'owner' && this.state === 'running' ) {
			// The owner's store holds every retry: one timer for the earliest in the future.
			const next = await this.store.nextDueAfter( now );
			if ( next !== undefined ) {
				this.wakeAt( next, now );
			}
		}
	}

	/**
	 * One timer, for the earliest retry in the future; earlier work arrives by wake(). With
	 * leases, a retry later than the next poll is the poll's to find (this instance or another).
	 */
	private wakeAt( at: number, now: number ): void {
		const horizon = this.coordination.kind === 'leases' ? this.coordination.pollMs : Infinity;
		if ( at >= this.timerAt || at - now >= horizon || this.state !== 'running' ) {
			return;
		}
		this.cancelTimer();
		this.timerAt = at;
		this.cancelTimer = this.clock.schedule( at - now, () => {
			this.timerAt = Infinity;
			// A timer may fire a millisecond before now() reaches `at` (setTimeout runs on the
			// monotonic clock), or early past setTimeout's ceiling: a claim then would find nothing
			// due, and nothing would wake again.
			const current = this.clock.now();
			if ( current < at ) {
				this.wakeAt( at, current );
				return;
			}
			this.wake();
		} );
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

	/** True if every promise settled before the deadline (a clock timestamp). */
	private async settledBefore( promises: Promise< void >[], deadline: number ): Promise< boolean > {
		if ( promises.length === 0 ) {
			return true;
		}
		let cancel: Cancel = noCancel;
		const timedOut = new Promise< boolean >( ( resolve ) => {
			cancel = this.clock.schedule( deadline - this.clock.now(), () => resolve( false ) );
		} );
		const settled = Promise.allSettled( promises ).then( () => true );
		const result = await Promise.race( [ settled, timedOut ] );
		cancel();
		return result;
	}

	private async attempt( endpoint: Endpoint, claimed: ClaimedDelivery ): Promise< void > {
		const result = await this.client.send( attemptRequestFor( endpoint, claimed, this.clock.now() ) );
		if ( ! this.abandoned ) {
			this.finished.push( { endpointId: endpoint.id, claimed, result } );
		}
	}
}

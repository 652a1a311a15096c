import { randomBytes } from 'crypto';
import os from 'os';
import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import { attemptMetrics, countAttempt } from '../metrics/attempt-metrics';
import type { DisableReason } from '../metrics/outcomes';
import type { SidecarMetrics } from '../metrics/registry';
import type { ClaimedDelivery, Completion } from '../store/deliveries-store';
import type { Endpoint } from '../store/endpoints-store';
import type { Lease, QueueStore } from '../store/queue-store';
import { attemptRequestFor, createDeliveryClient, type DeliveryClient } from './delivery-client';
import { retryPolicyFrom } from './dispatcher';
import { failingDisableReason } from './endpoint-health';
import { decide, type Decision, type RetryPolicyConfig } from './retry-policy';
import { parseAllowCidrs } from './url-guard';

/** Idle poll period: what other instances stored, retries that came due, leases that expired. */
export const SHARED_POLL_MS = 1000;
/**
 * A lease outlasts the longest attempt (the delivery timeout) by this much: time to record the
 * attempt, and the clock difference between instances (claimed_until is written with the
 * claimer's clock and read with the others'; keep the machines on NTP).
 */
export const LEASE_MARGIN_MS = 5_000;

export interface SharedDispatcherOptions {
	config: SidecarConfig;
	log: Logger;
	store: QueueStore;
	client?: DeliveryClient;
	random?: () => number;
	/** Names this instance in claims and attempts; defaults to host:pid:random. */
	instanceId?: string;
	pollMs?: number;
	/** Called after a commit that queued a notice for WordPress (an endpoint disabled): the notice sender's kick. */
	onNoticesQueued?: () => void;
	/** This instance's counters: attempts, final outcomes and disables it recorded (after their commit). */
	metrics?: SharedDispatcherMetrics;
}

export type SharedDispatcherMetrics = Pick<
	SidecarMetrics,
	'recordAttempt' | 'recordDeliveryFinished' | 'recordEndpointDisabled'
>;

export function newInstanceId(): string {
	return `${ os.hostname().slice( 0, 32 ) }:${ process.pid }:${ randomBytes( 3 ).toString( 'hex' ) }`;
}

/**
 * The delivery worker for the shared store, one per instance, all on the same rows. The
 * database coordinates them (SKIP LOCKED claims under a lease, see MysqlStore.claimDue);
 * this process only decides when to ask:
 *  - at once when this instance stored events (wake; endpoints it has not read yet are read
 *    first), and when one of its attempts ended;
 *  - when a retry of one of its own attempts comes due before the next poll (one timer);
 *  - every pollMs otherwise: one endpoint reload plus one claim query per active endpoint
 *    (with 2 endpoints, 3 queries a second when idle), which picks up events stored by other
 *    instances, retries that came due and leases left by an instance that died.
 * An endpoint is read again after each claim that took something, so a secret rotated or a
 * url changed through another instance is what the next attempt uses; a disabled endpoint's
 * pending deliveries are cancelled in the store, so no instance claims them.
 * No attempt runs past its lease: the lease is the delivery timeout plus a margin.
 * Each outcome moves the endpoint's failure streak as on the embedded store; a 410 or a streak
 * longer than SIDECAR_DISABLE_AFTER_HOURS disables the endpoint and queues its notice.
 */
export class SharedDispatcher {
	readonly instanceId: string;
	private readonly log: Logger;
	private readonly store: QueueStore;
	private readonly client: DeliveryClient;
	private readonly policy: RetryPolicyConfig;
	private readonly random: () => number;
	private readonly lease: Lease;
	private readonly pollMs: number;
	private readonly disableAfterMs: number;
	private readonly onNoticesQueued: () => void;
	private readonly metrics: SharedDispatcherMetrics | undefined;
	private endpoints = new Map< string, Endpoint >();
	private readonly inFlight = new Map< string, number >();
	private readonly running = new Set< Promise< void > >();
	private state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';
	private pumping: Promise< void > | undefined;
	private again = false;
	private reloadEndpoints = true;
	private poller: NodeJS.Timeout | undefined;
	/** One timer, for the earliest retry of this instance's own attempts (others' retries come by the poll). */
	private retryTimer: NodeJS.Timeout | undefined;
	private retryTimerAt = Infinity;
	/** Set while the store does not answer; /ready reports it. */
	private storeError: unknown;

	constructor( options: SharedDispatcherOptions ) {
		this.log = options.log;
		this.store = options.store;
		this.policy = retryPolicyFrom( options.config );
		this.random = options.random ?? Math.random;
		this.instanceId = options.instanceId ?? newInstanceId();
		this.lease = { instanceId: this.instanceId, leaseMs: options.config.deliveryTimeoutMs + LEASE_MARGIN_MS };
		this.pollMs = options.pollMs ?? SHARED_POLL_MS;
		this.disableAfterMs = options.config.disableAfterHours * 3_600_000;
		this.onNoticesQueued = options.onNoticesQueued ?? ( () => undefined );
		this.metrics = options.metrics;
		this.client =
			options.client ??
			createDeliveryClient( {
				allowCidrs: parseAllowCidrs( options.config.allowPrivateCidrs.join( ',' ) ),
				timeoutMs: options.config.deliveryTimeoutMs,
				sourceUrl: options.config.wordpressUrl,
			} );
	}

	start(): void {
		if ( this.state !== 'new' ) {
			return;
		}
		this.state = 'running';
		this.poller = setInterval( () => {
			this.reloadEndpoints = true;
			this.wake();
		}, this.pollMs );
		this.wake();
	}

	/** Something was stored (or an attempt ended): claim what is due now. */
	wake( endpointIds?: Iterable< string > ): void {
		if ( this.state !== 'running' ) {
			return;
		}
		// Deliveries were just made for these endpoints, so each is active in the store. One this
		// instance does not know, or knows as disabled, was created or enabled through another
		// instance since the last poll: read the endpoints now, so that the event goes out at once.
		for ( const id of endpointIds ?? [] ) {
			if ( this.endpoints.get( id )?.status !== 'active' ) {
				this.reloadEndpoints = true;
			}
		}
		if ( this.pumping ) {
			this.again = true;
			return;
		}
		this.pumping = this.pump().finally( () => {
			this.pumping = undefined;
			if ( this.again ) {
				this.again = false;
				this.wake();
			}
		} );
	}

	endpointsChanged(): void {
		this.reloadEndpoints = true;
		this.wake();
	}

	/** A route committed notices of its own (an endpoint enabled or deleted): send them now. */
	noticesCommitted(): void {
		this.onNoticesQueued();
	}

	firstAttemptAt( now: number ): number {
		return now + Math.round( ( this.policy.scheduleSeconds[ 0 ] ?? 0 ) * 1000 );
	}

	isRunning(): boolean {
		return this.state === 'running';
	}

	/** Whether the last round trip to the store failed. */
	storeUnreachable(): boolean {
		return this.storeError !== undefined;
	}

	inFlightCount( endpointId?: string ): number {
		if ( endpointId !== undefined ) {
			return this.inFlight.get( endpointId ) ?? 0;
		}
		return [ ...this.inFlight.values() ].reduce( ( sum, n ) => sum + n, 0 );
	}

	/** Stops claiming, then waits up to graceMs for attempts in flight; unfinished leases expire for others to take. */
	async stop( graceMs: number ): Promise< void > {
		if ( this.state !== 'running' ) {
			this.state = 'stopped';
			return;
		}
		this.state = 'stopping';
		clearInterval( this.poller );
		clearTimeout( this.retryTimer );
		let timer: NodeJS.Timeout | undefined;
		await Promise.race( [
			Promise.allSettled( [ ...this.running, ...( this.pumping ? [ this.pumping ] : [] ) ] ),
			new Promise( ( resolve ) => {
				timer = setTimeout( resolve, graceMs );
			} ),
		] );
		clearTimeout( timer );
		this.client.close();
		this.state = 'stopped';
	}

	private async pump(): Promise< void > {
		const now = Date.now();
		try {
			if ( this.reloadEndpoints ) {
				this.reloadEndpoints = false;
				this.endpoints = new Map(
					( await this.store.listEndpoints( now ) ).map( ( endpoint ) => [ endpoint.id, endpoint ] )
				);
			}
			for ( const endpoint of this.endpoints.values() ) {
				if ( endpoint.status !== 'active' || this.state !== 'running' ) {
					continue;
				}
				const free = endpoint.maxConcurrency - this.inFlightCount( endpoint.id );
				if ( free <= 0 ) {
					continue;
				}
				const claimed = await this.store.claimDue( endpoint.id, now, free, this.lease );
				if ( claimed.length === 0 ) {
					continue;
				}
				// Read again before sending: another instance may have rotated its secret or changed
				// its url since the last reload, and what it changed applies at once.
				const current = ( await this.store.getEndpoint( endpoint.id, now ) ) ?? endpoint;
				this.endpoints.set( endpoint.id, current );
				for ( const delivery of claimed ) {
					this.launch( current, delivery );
				}
			}
			if ( this.storeError !== undefined ) {
				this.log.info( 'the shared store answers again' );
			}
			this.storeError = undefined;
		} catch ( error ) {
			if ( this.storeError === undefined ) {
				this.log.error( { err: error }, 'the shared store does not answer; claiming again at the next poll' );
			}
			this.storeError = error;
			this.reloadEndpoints = true;
		}
	}

	private launch( endpoint: Endpoint, claimed: ClaimedDelivery ): void {
		this.inFlight.set( endpoint.id, this.inFlightCount( endpoint.id ) + 1 );
		const task = this.attempt( endpoint, claimed )
			.catch( ( error: unknown ) => {
				this.log.error(
					{ err: error, delivery_id: claimed.id, endpoint_id: endpoint.id },
					'delivery attempt could not be recorded; its lease will expire and it goes out again'
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
		const now = Date.now();
		const cycleAttempts = claimed.cycleAttempts + 1;
		const decision = decide( result.outcome, cycleAttempts, this.policy, this.random, now );
		const completion: Completion = {
			deliveryId: claimed.id,
			endpointId: endpoint.id,
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
		if ( ! ( await this.store.complete( completion, this.lease ) ) ) {
			this.log.warn(
				{ delivery_id: claimed.id, endpoint_id: endpoint.id },
				'delivery no longer held by this instance (lease expired or endpoint deleted)'
			);
			return;
		}
		if ( this.metrics ) {
			countAttempt( this.metrics, attemptMetrics( endpoint.id, claimed, result, decision, completion.status ) );
		}
		const context = {
			delivery_id: claimed.id,
			event_id: claimed.eventId,
			endpoint_id: endpoint.id,
			attempt: completion.attemptNumber,
		};
		if ( decision.action === 'succeeded' ) {
			this.log.debug( { ...context, status: result.statusCode, ms: result.durationMs }, 'delivered' );
		} else if ( decision.action === 'retry' ) {
			this.log.info(
				{ ...context, status: result.statusCode, error: result.errorCode, retry_in_s: decision.delaySeconds },
				'delivery failed, will retry'
			);
			this.wakeAt( completion.nextAttemptAt ?? now );
		} else {
			this.log.warn(
				{ ...context, status: result.statusCode, error: result.errorCode, reason: decision.reason },
				'delivery failed for good'
			);
		}
		try {
			await this.trackHealth( endpoint.id, decision, now );
		} catch ( error ) {
			// The attempt is recorded; a streak not moved now is moved by the next attempt, or the sweep disables it.
			this.log.error(
				{ err: error, endpoint_id: endpoint.id },
				'could not record the endpoint’s failure streak'
			);
		}
	}

	/**
	 * A retry sooner than the next poll goes out when due, as on the embedded store, not up to
	 * pollMs late: this instance claims it then (or another instance did at its own poll).
	 */
	private wakeAt( at: number ): void {
		// A later retry is the poll's to find.
		if ( at >= this.retryTimerAt || at - Date.now() >= this.pollMs || this.state !== 'running' ) {
			return;
		}
		clearTimeout( this.retryTimer );
		this.retryTimerAt = at;
		this.retryTimer = setTimeout(
			() => {
				this.retryTimerAt = Infinity;
				// A timer may fire a millisecond before Date.now() reaches `at` (it runs on the
				// monotonic clock): a claim then would find nothing due, and nothing would wake again.
				if ( Date.now() < at ) {
					this.wakeAt( at );
					return;
				}
				this.wake();
			},
			Math.max( 0, at - Date.now() )
		);
		this.retryTimer.unref();
	}

	/**
	 * The embedded dispatcher's health rule (outbound/endpoint-health.ts): a success ends the
	 * endpoint's failure streak, a failure starts one, and a streak past disableAfterHours or a
	 * 410 disables the endpoint with its notice. The cached endpoint spares a write per success;
	 * the disabling re-reads the streak under the endpoint's row lock, so one instance does it.
	 */
	private async trackHealth( endpointId: string, decision: Decision, now: number ): Promise< void > {
		const endpoint = this.endpoints.get( endpointId );
		if ( ! endpoint ) {
			return;
		}
		const streaks = this.store.failureStreaks;
		if ( decision.action === 'succeeded' ) {
			if ( endpoint.failingSince !== null ) {
				await streaks.clearFailing( endpointId );
				endpoint.failingSince = null;
			}
			return;
		}
		if ( endpoint.failingSince === null ) {
			endpoint.failingSince = await streaks.markFailing( endpointId, now );
		}
		const gone = decision.action === 'disable-endpoint' ? decision.reason : null;
		if ( gone === null && failingDisableReason( endpoint.failingSince, now, this.disableAfterMs ) === null ) {
			return;
		}
		let reason: string | null = null;
		let kind: DisableReason = 'failing';
		const disabled = await streaks.disableWithNotice( endpointId, now, ( failingSince ) => {
			const failing = failingDisableReason( failingSince, now, this.disableAfterMs );
			kind = failing === null ? 'gone' : 'failing';
			reason = failing ?? gone;
			return reason;
		} );
		if ( disabled ) {
			endpoint.status = 'disabled';
			this.reloadEndpoints = true;
			this.metrics?.recordEndpointDisabled( kind );
			this.log.warn( { endpoint_id: endpointId, reason }, 'endpoint disabled' );
			this.onNoticesQueued();
		}
	}
}

import {
	parkedIfEndpointStopped,
	type Attempt,
	type ClaimedDelivery,
	type Completion,
	type Delivery,
	type DeliveryFilter,
} from '../../model/deliveries';
import { type EndpointHealth, endpointDisabledNotice, nextHealth } from '../../model/health';
import type { DisabledBy } from '../../contracts/constants';
import type { EnableResult, Endpoint, EndpointPatch, NewEndpoint } from '../../model/endpoints';
import type { InsertResult, NewEvent, StoredEvent } from '../../model/events';
import { SqliteFailureStreaks } from './sqlite-failure-streaks';
import { type FailureStreaks } from '../failure-streaks';
import { SqliteInboundStore } from './sqlite-inbound-store';
import { type InboundStore } from '../inbound-store';
import { SqliteNoticeQueue } from './sqlite-notice-queue';
import { type NoticeQueue } from '../notice-queue';
import { SqliteEndpointBacklog } from './sqlite-endpoint-backlog';
import { type EndpointBacklog } from '../endpoint-backlog';
import { SqlitePayloadRetention } from './sqlite-payload-retention';
import { type PayloadRetention } from '../payload-retention';
import { SqlitePrivacyQueue } from './sqlite-privacy-queue';
import { type PrivacyQueue } from '../privacy-queue';
import { SqliteReplayQueue } from './sqlite-replay-queue';
import { type ReplayQueue } from '../replay-queue';
import { MIGRATIONS } from './migrations';
import type { Stores } from './stores';
import type { QueueSnapshot } from '../../metrics/registry';

import type { QueueStore, Lease, RoundInput, RoundResult } from '../queue-store';

/**
 * The embedded store behind the async interface: one process owns the SQLite file, so
 * leases are moot (a crash's in-flight rows are queued again at start) and `exclusively`
 * just runs. The calls stay synchronous inside; only the result is wrapped.
 */
export class SqliteQueueStore implements QueueStore {
	readonly kind = 'sqlite';
	readonly inbound: InboundStore;
	readonly replays: ReplayQueue;
	readonly privacy: PrivacyQueue;

	constructor( private readonly stores: Stores ) {
		this.inbound = new SqliteInboundStore( stores.db );
		this.replays = new SqliteReplayQueue( stores.deliveries );
		this.privacy = new SqlitePrivacyQueue( stores.privacy );
	}

	async insertBatch( events: NewEvent[], now: number, firstAttemptAt: number ): Promise< InsertResult > {
		return this.stores.events.insertBatch( events, now, firstAttemptAt );
	}
	async getEvent( id: string ): Promise< StoredEvent | undefined > {
		return this.stores.events.get( id );
	}
	async deliveriesOfEvent( eventId: string ): Promise< ( Delivery & { attempts: Attempt[] } )[] > {
		return this.stores.deliveries.ofEvent( eventId );
	}
	async listEndpoints( now: number ): Promise< Endpoint[] > {
		return this.stores.endpoints.list( now );
	}
	async getEndpoint( id: string, now: number ): Promise< Endpoint | undefined > {
		return this.stores.endpoints.get( id, now );
	}
	async endpointHealth( endpointId: string, since: number, limit: number ): Promise< EndpointHealth > {
		return this.stores.deliveries.health( endpointId, since, limit );
	}

	async createEndpoint( input: NewEndpoint, now: number ): Promise< Endpoint > {
		return this.stores.endpoints.create( input, now );
	}
	async updateEndpoint( id: string, patch: EndpointPatch, now: number ): Promise< Endpoint | undefined > {
		return this.stores.endpoints.update( id, patch, now );
	}
	async rotateEndpointSecret(
		id: string,
		secret: string,
		graceMs: number,
		now: number
	): Promise< Endpoint | undefined > {
		return this.stores.endpoints.rotateSecret( id, secret, graceMs, now );
	}
	async disableEndpoint( id: string, reason: string, by: DisabledBy, now: number ): Promise< boolean > {
		return this.stores.endpoints.disable( id, reason, by, now );
	}
	async enableEndpoint( id: string, now: number, redeliver?: boolean ): Promise< EnableResult > {
		const { endpoints, notices } = this.stores;
		return this.stores.db
			.transaction( () => {
				const result = endpoints.enable( id, now, redeliver );
				notices.dropForEndpoint( id );
				notices.enqueue( { type: 'endpoint.enabled', endpoint_id: id }, now );
				return result;
			} )
			.immediate();
	}
	async deleteEndpoint( id: string, now: number ): Promise< { deleted: boolean; droppedNotices: number } > {
		const { endpoints, notices } = this.stores;
		return this.stores.db
			.transaction( () => {
				if ( ! endpoints.delete( id, now ) ) {
					return { deleted: false, droppedNotices: 0 };
				}
				const droppedNotices = notices.dropForEndpoint( id );
				notices.enqueue( { type: 'endpoint.deleted', endpoint_id: id }, now );
				return { deleted: true, droppedNotices };
			} )
			.immediate();
	}
	async listDeliveries( filter: DeliveryFilter ): Promise< { deliveries: Delivery[]; total: number } > {
		return this.stores.deliveries.list( filter );
	}
	async claimDue( endpointId: string, now: number, limit: number ): Promise< ClaimedDelivery[] > {
		return this.stores.deliveries.claimDue( endpointId, now, limit );
	}
	async complete( completion: Completion ): Promise< boolean > {
		return this.stores.db
			.transaction( () =>
				this.stores.deliveries.complete(
					parkedIfEndpointStopped(
						completion,
						this.stores.endpoints.get( completion.endpointId, completion.now )
					)
				)
			)
			.immediate();
	}
	async round( input: RoundInput ): Promise< RoundResult > {
		const { db, events, deliveries, endpoints, notices } = this.stores;
		const { now } = input;
		const result: RoundResult = {
			recorded: [],
			failingSince: new Map(),
			disabled: [],
			recovered: [],
			claimed: [],
		};
		db.transaction( () => {
			const claimOn = [ ...input.claimOn ];
			if ( input.ingest ) {
				result.ingested = events.insertBatch( input.ingest.events, now, input.ingest.firstAttemptAt );
				claimOn.push( ...result.ingested.endpointIds.filter( ( id ) => ! claimOn.includes( id ) ) );
			}
			// The endpoint as this round leaves it: several attempts of one endpoint share a round.
			const seen = new Map<
				string,
				{ status: string; disabledReason: string | null; failingSince: number | null }
			>();
			for ( const { completion, endpoint, succeeded, gone } of input.finished ) {
				const id = completion.endpointId;
				const state =
					seen.get( id ) ??
					( endpoint && {
						status: endpoint.status,
						disabledReason: endpoint.disabledReason,
						failingSince: endpoint.failingSince,
					} );
				const recorded = deliveries.complete( parkedIfEndpointStopped( completion, state ) );
				result.recorded.push( recorded );
				if ( ! recorded || ! endpoint || ! state ) {
					continue; // the endpoint was deleted meanwhile
				}
				const step = nextHealth( state.failingSince, { succeeded, gone }, now, input.disableAfterMs );
				if ( step.write === 'clear' ) {
					// Before this round's claims: what is queued again goes ahead of the rest of its keys.
					const ended = endpoints.clearFailing( id, now );
					if ( ended !== null ) {
						result.recovered.push( { endpointId: id, ...ended } );
					}
				} else if ( step.write === 'mark' ) {
					endpoints.markFailing( id, now );
				}
				state.failingSince = step.failingSince;
				seen.set( id, state );
				result.failingSince.set( id, step.failingSince );
				if (
					step.disable &&
					state.status === 'active' &&
					endpoints.disable( id, step.disable.reason, 'auto', now )
				) {
					state.status = 'disabled';
					state.disabledReason = step.disable.reason;
					// The newest attempt is the failure that disabled it: a success would have ended the streak.
					const lastError = deliveries.health( id, 0, 1 ).lastError;
					notices.enqueue(
						endpointDisabledNotice(
							{ ...endpoint, failingSince: step.failingSince },
							step.disable.reason,
							lastError
						),
						now
					);
					result.disabled.push( { endpointId: id, disable: step.disable } );
				}
			}
			for ( const id of claimOn ) {
				if ( seen.get( id )?.status === 'disabled' ) {
					continue;
				}
				result.claimed.push( ...deliveries.claimDue( id, now, input.limit( id ) ) );
			}
		} ).immediate();
		return result;
	}
	async recoverInFlight( _lease: Lease, now: number ): Promise< number > {
		return this.stores.deliveries.recoverInFlight( now );
	}
	async nextDueAfter( now: number ): Promise< number | undefined > {
		return this.stores.deliveries.nextDueAfter( now );
	}
	async countByStatus() {
		return this.stores.deliveries.countByStatus();
	}
	async queueByEndpoint(): Promise< QueueSnapshot[] > {
		return this.stores.deliveries.queueByEndpoint();
	}
	async prune( before: number, limit: number ) {
		return this.stores.deliveries.prune( before, limit );
	}
	async exclusively( _name: string, fn: () => Promise< void > ): Promise< boolean > {
		await fn();
		return true;
	}
	async ping(): Promise< void > {
		this.stores.db.prepare( 'SELECT 1' ).get();
	}
	async schemaVersion(): Promise< { current: number; latest: number } > {
		return {
			current: this.stores.db.pragma( 'user_version', { simple: true } ) as number,
			latest: MIGRATIONS.length,
		};
	}
	async close(): Promise< void > {
		this.stores.db.close();
	}
	get notices(): NoticeQueue {
		return new SqliteNoticeQueue( this.stores.notices );
	}
	get failureStreaks(): FailureStreaks {
		return new SqliteFailureStreaks( this.stores );
	}
	get payloadRetention(): PayloadRetention {
		return new SqlitePayloadRetention( this.stores.privacy );
	}
	get endpointBacklog(): EndpointBacklog {
		return new SqliteEndpointBacklog( this.stores.db );
	}
}

import { parkedIfEndpointStopped } from '../../model/deliveries';
import { emptyHealthResult, roundHealth, runHealthSync } from '../../model/round-health';
import type { QueueStore, RoundResult } from '../queue-store';
import { MIGRATIONS } from './migrations';
import { promised } from './promised';
import { sqliteFailureStreaks, writeHealth } from './sqlite-failure-streaks';
import { SqliteEndpointBacklog } from './sqlite-endpoint-backlog';
import { sqliteInboundStore } from './sqlite-inbound-store';
import type { Stores } from './stores';

/**
 * The embedded store behind the async interface: one process owns the SQLite file, so leases
 * are moot (a crash's in-flight rows are queued again at start) and `exclusively` just runs.
 * Most calls are a synchronous store's method answered as a promise (promised.ts, the interface's
 * name on the left, the store's on the right); what spans several stores runs here, in one
 * synchronous transaction.
 */
export function sqliteQueueStore( stores: Stores ): QueueStore {
	const { db, events, deliveries, endpoints, notices, privacy } = stores;
	return {
		kind: 'sqlite',
		inbound: sqliteInboundStore( db ),
		replays: promised( deliveries, {
			requeueEvent: 'requeueEvent',
			requeueFailedSince: 'requeueFailedSince',
			replayRange: 'replayRange',
		} ),
		privacy: promised( privacy, { find: 'find', erase: 'erase' } ),
		notices: promised( notices, {
			due: 'due',
			isPending: 'isPending',
			acknowledge: 'acknowledge',
			failed: 'failed',
			nextDue: 'nextDue',
			pendingCount: 'pendingCount',
			prune: 'prune',
		} ),
		failureStreaks: sqliteFailureStreaks( stores ),
		payloadRetention: promised( privacy, { clearPayloads: 'clearPayloads' } ),
		endpointBacklog: new SqliteEndpointBacklog( db ),
		...promised( events, { insertBatch: 'insertBatch', getEvent: 'get' } ),
		...promised( endpoints, {
			listEndpoints: 'list',
			getEndpoint: 'get',
			createEndpoint: 'create',
			updateEndpoint: 'update',
			rotateEndpointSecret: 'rotateSecret',
			disableEndpoint: 'disable',
		} ),
		...promised( deliveries, {
			deliveriesOfEvent: 'ofEvent',
			listDeliveries: 'list',
			endpointHealth: 'health',
			claimDue: 'claimDue',
			nextDueAfter: 'nextDueAfter',
			countByStatus: 'countByStatus',
			queueByEndpoint: 'queueByEndpoint',
			prune: 'prune',
		} ),

		async enableEndpoint( id, now, redeliver ) {
			return db
				.transaction( () => {
					const result = endpoints.enable( id, now, redeliver );
					notices.dropForEndpoint( id );
					notices.enqueue( { type: 'endpoint.enabled', endpoint_id: id }, now );
					return result;
				} )
				.immediate();
		},

		async deleteEndpoint( id, now ) {
			return db
				.transaction( () => {
					if ( ! endpoints.delete( id, now ) ) {
						return { deleted: false, droppedNotices: 0 };
					}
					const droppedNotices = notices.dropForEndpoint( id );
					notices.enqueue( { type: 'endpoint.deleted', endpoint_id: id }, now );
					return { deleted: true, droppedNotices };
				} )
				.immediate();
		},

		async complete( completion ) {
			return db
				.transaction( () =>
					deliveries.complete(
						parkedIfEndpointStopped( completion, endpoints.get( completion.endpointId, completion.now ) )
					)
				)
				.immediate();
		},

		/**
		 * The round in one synchronous transaction: the hand-over, every finished attempt recorded
		 * (the endpoint as the dispatcher's cache holds it is what the file holds: one writer), the
		 * health moves (model/round-health.ts), then the claims.
		 */
		async round( input ) {
			const { now } = input;
			const result: RoundResult = { ...emptyHealthResult(), claimed: [] };
			db.transaction( () => {
				const claimOn = [ ...input.claimOn ];
				if ( input.ingest ) {
					result.ingested = events.insertBatch( input.ingest.events, now, input.ingest.firstAttemptAt );
					claimOn.push( ...result.ingested.endpointIds.filter( ( id ) => ! claimOn.includes( id ) ) );
				}
				result.recorded = input.finished.map( ( { completion, endpoint } ) =>
					deliveries.complete( parkedIfEndpointStopped( completion, endpoint ) )
				);
				const disabled = runHealthSync( roundHealth( input, result ), ( request ) =>
					writeHealth( stores, request, now )
				);
				for ( const id of claimOn.filter( ( endpointId ) => ! disabled.has( endpointId ) ) ) {
					result.claimed.push( ...deliveries.claimDue( id, now, input.limit( id ) ) );
				}
			} ).immediate();
			return result;
		},

		async recoverInFlight( _lease, now ) {
			return deliveries.recoverInFlight( now );
		},
		async exclusively( _name, fn ) {
			await fn();
			return true;
		},
		async ping() {
			db.prepare( 'SELECT 1' ).get();
		},
		async schemaVersion() {
			return { current: db.pragma( 'user_version', { simple: true } ) as number, latest: MIGRATIONS.length };
		},
		async close() {
			db.close();
		},
	};
}

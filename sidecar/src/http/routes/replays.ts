import { Router, type Request } from 'express';
import { z } from 'zod';
import { EVENT_TYPES } from '../../contracts/constants';
import type { RangeReplayView, RequeuedView } from '../../contracts/views';
import type { Endpoint } from '../../model/endpoints';
import type { QueueStore } from '../../store/queue-store';
import { ReplayConflict } from '../../store/replay-queue';
import { isDeadlock } from '../../store/mysql/mysql-transaction';
import {
	EVENT_REPLAY,
	RANGE_REPLAY,
	RANGE_REPLAY_FIELDS,
	REPLAY_DEFAULT_LIMIT,
	SINCE_REPLAY,
} from '../../contracts/requests';
import { HttpError } from '../errors';
import { parseJsonBody } from '../json-body';
import type { QueueRouteContext, RouteDispatcher } from './context';
import { findEndpoint } from './endpoints';
import { iso, methodNotAllowed, parseOptionalJsonBody, requireEventType } from './helpers';
import { eventNotFound } from './views';

/** The replay routes also wake the instance's own dispatcher, so it sends what they queued at once. */
export type ReplayRouteContext = Omit< QueueRouteContext, 'dispatcher' > & {
	dispatcher: Pick< RouteDispatcher, 'wake' >;
};

/**
 * The range replay's body, checked field by field: a bad field answers 400 `invalid_<field>`
 * (`invalid_from`, `invalid_to`, `invalid_types`, `invalid_limit`, `invalid_dry_run`) with
 * data.field; an unknown field or a body that is not an object, `invalid_body`.
 */
function parseRangeBody( req: Request ): z.infer< typeof RANGE_REPLAY > {
	const raw = Buffer.isBuffer( req.body ) ? req.body.toString( 'utf8' ) : '';
	let data: unknown = {};
	if ( raw.trim() !== '' ) {
		try {
			data = JSON.parse( raw );
		} catch {
			throw new HttpError( 400, 'invalid_json', 'The request body is not valid JSON.' );
		}
	}
	const result = RANGE_REPLAY.safeParse( data );
	if ( ! result.success ) {
		const problems = result.error.issues.map(
			( issue ) => `${ issue.path.join( '.' ) || '(body)' }: ${ issue.message }`
		);
		const first = result.error.issues[ 0 ];
		const field = first && first.code !== 'unrecognized_keys' ? String( first.path[ 0 ] ?? '' ) : '';
		if ( field in RANGE_REPLAY_FIELDS ) {
			throw new HttpError( 400, `invalid_${ field }`, `${ problems[ 0 ] }.`, { field, problems } );
		}
		throw new HttpError( 400, 'invalid_body', `Invalid request body: ${ problems.join( '; ' ) }`, { problems } );
	}
	return result.data;
}

async function requireActiveEndpoint( store: QueueStore, id: string ): Promise< Endpoint > {
	const endpoint = await findEndpoint( store, id );
	if ( endpoint.status !== 'active' ) {
		throw new HttpError(
			409,
			'endpoint_disabled',
			`Endpoint "${ id }" is disabled; enable it first (that also requeues what failed while it was disabled).`
		);
	}
	return endpoint;
}

/**
 * Manual replays, on either store: one event again, what failed since a time, and a range of
 * past events to one endpoint. What they queue is pending and due now: this instance's
 * dispatcher is woken to send it, and on the shared store any other instance may claim it.
 */
export function replaysRouter( context: ReplayRouteContext ): Router {
	const { store, dispatcher } = context;
	const router = Router();

	/** Sends an event again (same id, so receivers can dedupe), to one endpoint or all it went to. */
	router
		.route( '/events/:id/replay' )
		.post( async ( req, res ) => {
			const body = parseOptionalJsonBody( req, EVENT_REPLAY );
			const event = await store.getEvent( req.params.id );
			if ( ! event ) {
				throw eventNotFound( req.params.id );
			}
			if ( event.payloadClearedAt !== null ) {
				throw new HttpError(
					409,
					'payload_cleared',
					`Event "${ req.params.id }" is past SIDECAR_PAYLOAD_RETENTION_DAYS: its payload was cleared, there is nothing to send.`
				);
			}
			if ( body.endpoint_id !== undefined ) {
				await requireActiveEndpoint( store, body.endpoint_id );
			}
			const requeued = await store.replays.requeueEvent( req.params.id, body.endpoint_id, Date.now() );
			dispatcher.wake();
			res.json( { requeued } satisfies RequeuedView );
		} )
		.all( methodNotAllowed( 'POST' ) );

	/** Recovery after an outage: every delivery that failed (or was cancelled) since `since` goes out again. */
	router
		.route( '/replay' )
		.post( async ( req, res ) => {
			const body = parseJsonBody( req, SINCE_REPLAY );
			if ( body.endpoint_id !== undefined ) {
				await requireActiveEndpoint( store, body.endpoint_id );
			}
			const requeued = await store.replays.requeueFailedSince(
				Date.parse( body.since ),
				body.endpoint_id,
				Date.now()
			);
			dispatcher.wake();
			res.json( { requeued } satisfies RequeuedView );
		} )
		.all( methodNotAllowed( 'POST' ) );

	/**
	 * Replays to this endpoint the events of `types` (default: the ones it subscribes to)
	 * received in [from, to), including those it never got a delivery for, in arrival order,
	 * each once per request, at most `limit`. `dry_run` only counts.
	 */
	router
		.route( '/endpoints/:id/replay' )
		.post( async ( req, res ) => {
			const endpoint = await findEndpoint( store, req.params.id );
			const body = parseRangeBody( req );
			const from = Date.parse( body.from );
			const to = Date.parse( body.to );
			if ( from >= to ) {
				throw new HttpError( 400, 'invalid_to', 'to: must be later than from.', { field: 'to' } );
			}
			const types =
				body.types === undefined
					? endpoint.eventTypes
					: [
							...new Set(
								body.types.map( ( type, index ) => requireEventType( type, `types.${ index }` ) )
							),
						];
			if ( endpoint.status !== 'active' ) {
				throw new HttpError(
					409,
					'endpoint_disabled',
					`Endpoint "${ endpoint.id }" is disabled; enable it first.`
				);
			}
			const dryRun = body.dry_run ?? false;
			const result = await store.replays
				.replayRange( {
					endpointId: endpoint.id,
					from,
					to,
					types,
					limit: body.limit ?? REPLAY_DEFAULT_LIMIT,
					dryRun,
					now: Date.now(),
				} )
				.catch( ( error: unknown ) => {
					// Another replay to the endpoint is being written (ReplayConflict), or a deadlock
					// the shared store tried again a few times (mysql-transaction.ts) still conflicts
					// with the hand-over writing the same rows right now.
					if ( error instanceof ReplayConflict || isDeadlock( error ) ) {
						throw new HttpError(
							409,
							'replay_conflict',
							`A replay to endpoint "${ endpoint.id }" (or new events for it) is being written right now; nothing was queued. Try again when it has finished.`
						);
					}
					throw error;
				} );
			if ( ! dryRun ) {
				dispatcher.wake( [ endpoint.id ] );
				context.log.info(
					{ endpoint_id: endpoint.id, from: body.from, to: body.to, types, ...result },
					'events replayed'
				);
			}
			res.json( {
				matched: result.matched,
				queued: result.queued,
				already_queued: result.alreadyQueued,
				more: result.more,
				next_from: iso( result.nextFrom ),
				types: types.length > 0 ? types : EVENT_TYPES,
				dry_run: dryRun,
			} satisfies RangeReplayView );
		} )
		.all( methodNotAllowed( 'POST' ) );

	return router;
}

import { Router } from 'express';
import { z } from 'zod';
import { EVENT_ID_PATTERN } from '../../outbound/event-types';
import type { NewEvent } from '../../store/events-store';
import { HttpError } from '../errors';
import { parseJsonBody } from '../json-body';
import type { RouteContext } from './context';
import { methodNotAllowed, parseOptionalJsonBody, requireEventType } from './helpers';
import { attemptView, deliveryView } from './views';

export const MAX_EVENTS_PER_BATCH = 500;

const EVENT_SCHEMA = z.strictObject( {
	id: z.string().regex( EVENT_ID_PATTERN, 'must be 1 to 100 characters among A-Z a-z 0-9 _ : - (no dots)' ),
	type: z.string(),
	timestamp: z.iso.datetime( { offset: true } ),
	data: z.record( z.string(), z.unknown() ),
	ordering_key: z.string().min( 1 ).max( 200 ).nullable().optional(),
} );

const BATCH_SCHEMA = z.strictObject( {
	events: z.array( EVENT_SCHEMA ).min( 1 ).max( MAX_EVENTS_PER_BATCH ),
} );

const REPLAY_EVENT_SCHEMA = z.strictObject( { endpoint_id: z.string().min( 1 ).optional() } );
const REPLAY_SINCE_SCHEMA = z.strictObject( { since: z.iso.datetime( { offset: true } ), endpoint_id: z.string().min( 1 ).optional() } );

/** Hand-over of events from WordPress, their history, and manual replays. */
export function eventsRouter( context: RouteContext ): Router {
	const { stores, dispatcher } = context;
	const router = Router();

	/**
	 * 202 only once the batch is committed: WordPress may then drop it from its outbox.
	 * Re-sending a batch after a lost answer is safe: known ids come back as duplicates.
	 */
	router
		.route( '/events' )
		.post( ( req, res ) => {
			const body = parseJsonBody( req, BATCH_SCHEMA );
			const events: NewEvent[] = body.events.map( ( event, index ) => ( {
				id: event.id,
				type: requireEventType( event.type, `events.${ index }.type` ),
				timestamp: event.timestamp,
				orderingKey: event.ordering_key ?? null,
				data: event.data,
			} ) );
			const now = Date.now();
			const result = stores.events.insertBatch( events, now, dispatcher.firstAttemptAt( now ) );
			dispatcher.wake( result.endpointIds );
			res.status( 202 ).json( { accepted: result.accepted, duplicates: result.duplicates } );
		} )
		.all( methodNotAllowed( 'POST' ) );

	router
		.route( '/events/:id' )
		.get( ( req, res ) => {
			const event = stores.events.get( req.params.id );
			if ( ! event ) {
				throw eventNotFound( req.params.id );
			}
			const { data } = JSON.parse( event.payload ) as { data: unknown };
			res.json( {
				event: {
					id: event.id,
					type: event.type,
					timestamp: event.timestamp,
					ordering_key: event.orderingKey,
					received_at: new Date( event.receivedAt ).toISOString(),
					data,
				},
				deliveries: stores.deliveries.ofEvent( event.id ).map( ( delivery ) => ( {
					...deliveryView( delivery ),
					attempts: delivery.attempts.map( attemptView ),
				} ) ),
			} );
		} )
		.all( methodNotAllowed( 'GET' ) );

	/** Sends an event again (same id, so receivers can dedupe), to one endpoint or all it went to. */
	router
		.route( '/events/:id/replay' )
		.post( ( req, res ) => {
			const body = parseOptionalJsonBody( req, REPLAY_EVENT_SCHEMA );
			if ( ! stores.events.get( req.params.id ) ) {
				throw eventNotFound( req.params.id );
			}
			if ( body.endpoint_id !== undefined ) {
				requireActiveEndpoint( context, body.endpoint_id );
			}
			const requeued = stores.deliveries.requeueEvent( req.params.id, body.endpoint_id, Date.now() );
			dispatcher.wake();
			res.json( { requeued } );
		} )
		.all( methodNotAllowed( 'POST' ) );

	/** Recovery after an outage: every failed delivery of events received since `since` goes out again. */
	router
		.route( '/replay' )
		.post( ( req, res ) => {
			const body = parseJsonBody( req, REPLAY_SINCE_SCHEMA );
			if ( body.endpoint_id !== undefined ) {
				requireActiveEndpoint( context, body.endpoint_id );
			}
			const requeued = stores.deliveries.requeueFailedSince( Date.parse( body.since ), body.endpoint_id, Date.now() );
			dispatcher.wake();
			res.json( { requeued } );
		} )
		.all( methodNotAllowed( 'POST' ) );

	return router;
}

function eventNotFound( id: string ): HttpError {
	return new HttpError( 404, 'event_not_found', `No event with id "${ id }".` );
}

function requireActiveEndpoint( context: RouteContext, id: string ): void {
	const endpoint = context.stores.endpoints.get( id, Date.now() );
	if ( ! endpoint ) {
		throw new HttpError( 404, 'endpoint_not_found', `No endpoint with id "${ id }".` );
	}
	if ( endpoint.status !== 'active' ) {
		throw new HttpError( 409, 'endpoint_disabled', `Endpoint "${ id }" is disabled; enable it first (that also requeues what failed while it was disabled).` );
	}
}

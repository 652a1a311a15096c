import { Router } from 'express';
import { z } from 'zod';
import { EVENT_ID_PATTERN, EVENT_TYPES, isEventType } from '../../contracts/constants';
import type { SidecarMetrics } from '../../metrics/registry';
import type { NewEvent } from '../../model/events';
import { parseJsonBody } from '../json-body';
import type { RouteContext } from './context';
import { methodNotAllowed } from './helpers';
import { eventDetailsView, eventNotFound } from './views';

export const MAX_EVENTS_PER_BATCH = 500;

const EVENT_SCHEMA = z.strictObject( {
	id: z.string().regex( EVENT_ID_PATTERN, 'must be 1 to 100 characters among A-Z a-z 0-9 _ : - (no dots)' ),
	type: z.string(),
	timestamp: z.iso.datetime( { offset: true } ),
	data: z.record( z.string(), z.unknown() ),
	ordering_key: z.string().min( 1 ).max( 200 ).nullable().optional(),
} );

// The envelope is checked as a whole; each event on its own (see checkEvent).
export const BATCH_SCHEMA = z.strictObject( {
	events: z.array( z.unknown() ).min( 1 ).max( MAX_EVENTS_PER_BATCH ),
} );

/** An event of a batch the sidecar refused, so WordPress can park it instead of re-sending it. */
export interface RejectedEvent {
	index: number;
	/** The event's id when it had a string one. */
	id: string | null;
	code: 'invalid_body' | 'invalid_event_type';
	message: string;
}

/** Splits a batch into the events to store and the rejected ones: one bad event never blocks the rest. */
export function checkBatch( raws: unknown[] ): { events: NewEvent[]; rejected: RejectedEvent[] } {
	const events: NewEvent[] = [];
	const rejected: RejectedEvent[] = [];
	raws.forEach( ( raw, index ) => {
		const checked = checkEvent( raw, index );
		if ( 'code' in checked ) {
			rejected.push( checked );
		} else {
			events.push( checked );
		}
	} );
	return { events, rejected };
}

function checkEvent( raw: unknown, index: number ): NewEvent | RejectedEvent {
	const id =
		typeof raw === 'object' && raw !== null && typeof ( raw as { id?: unknown } ).id === 'string'
			? ( raw as { id: string } ).id
			: null;
	const parsed = EVENT_SCHEMA.safeParse( raw );
	if ( ! parsed.success ) {
		const problems = parsed.error.issues.map(
			( issue ) => `${ [ 'events', index, ...issue.path ].join( '.' ) }: ${ issue.message }`
		);
		return { index, id, code: 'invalid_body', message: `Invalid event: ${ problems.join( '; ' ) }` };
	}
	const event = parsed.data;
	if ( ! isEventType( event.type ) ) {
		return {
			index,
			id,
			code: 'invalid_event_type',
			message: `events.${ index }.type: unknown event type "${ event.type }"; known types: ${ EVENT_TYPES.join( ', ' ) }.`,
		};
	}
	return {
		id: event.id,
		type: event.type,
		timestamp: event.timestamp,
		orderingKey: event.ordering_key ?? null,
		data: event.data,
	};
}

/** Counts a batch's stored events by type (once per id, even if the batch repeats it) and its rejections. */
export function countBatch(
	metrics: Pick< SidecarMetrics, 'recordEventIngested' | 'recordEventRejected' >,
	events: readonly { id: string; type: string }[],
	acceptedIds: readonly string[],
	rejected: readonly { code: 'invalid_body' | 'invalid_event_type' }[]
): void {
	const accepted = new Set( acceptedIds );
	for ( const event of events ) {
		if ( accepted.delete( event.id ) ) {
			metrics.recordEventIngested( event.type );
		}
	}
	for ( const rejection of rejected ) {
		metrics.recordEventRejected( rejection.code );
	}
}

/** Hand-over of events from WordPress, and their history (replays: routes/replays.ts). */
export function eventsRouter( context: Pick< RouteContext, 'store' | 'dispatcher' | 'metrics' | 'log' > ): Router {
	const { store, dispatcher, metrics } = context;
	const router = Router();

	/**
	 * 202 only once the batch is committed: WordPress may then drop it from its outbox.
	 * Re-sending a batch after a lost answer is safe: known ids come back as duplicates.
	 * Each event is judged on its own: the valid ones are stored, the others are listed in
	 * `rejected` (index, id, code, message) so one bad event never blocks the rest. A valid
	 * envelope always gets this one answer, even when every event is rejected (then nothing
	 * is stored): only an envelope that is not `{events: [1..500 items]}` is a 400.
	 */
	router
		.route( '/events' )
		.post( async ( req, res ) => {
			const body = parseJsonBody( req, BATCH_SCHEMA );
			const { events, rejected } = checkBatch( body.events );
			const result =
				events.length > 0
					? await dispatcher.ingest( events )
					: { accepted: [], duplicates: [], endpointIds: [] };
			countBatch( metrics, events, result.accepted, rejected );
			if ( rejected.length > 0 ) {
				context.log.warn(
					{ rejected: rejected.map( ( r ) => ( { index: r.index, id: r.id, code: r.code } ) ) },
					'events rejected from a batch'
				);
			}
			res.status( 202 ).json( { accepted: result.accepted, duplicates: result.duplicates, rejected } );
		} )
		.all( methodNotAllowed( 'POST' ) );

	router
		.route( '/events/:id' )
		.get( async ( req, res ) => {
			const event = await store.getEvent( req.params.id );
			if ( ! event ) {
				throw eventNotFound( req.params.id );
			}
			res.json( eventDetailsView( event, await store.deliveriesOfEvent( event.id ) ) );
		} )
		.all( methodNotAllowed( 'GET' ) );

	return router;
}

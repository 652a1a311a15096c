import { eventPayload, InsertResult, StoredEvent, NewEvent, receives } from '../../model/events';
import type { DeliveredEventType } from '../../contracts/constants';
import type { Db } from './database';

interface EventRow {
	id: string;
	type: DeliveredEventType;
	timestamp: string;
	ordering_key: string | null;
	payload: string;
	received_at: number;
	payload_cleared_at: number | null;
	redacted_at: number | null;
}

export class EventsStore {
	private readonly statements;

	constructor( private readonly db: Db ) {
		this.statements = {
			insert: db.prepare(
				`INSERT INTO events (id, type, timestamp, ordering_key, payload, received_at) VALUES (?, ?, ?, ?, ?, ?)
				 ON CONFLICT (id) DO NOTHING`
			),
			activeEndpoints: db.prepare( `SELECT id, event_types FROM endpoints WHERE status = 'active'` ),
			insertDelivery: db.prepare(
				`INSERT INTO deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, created_at, updated_at)
				 VALUES (?, ?, ?, 'pending', ?, ?, ?)`
			),
			get: db.prepare( 'SELECT * FROM events WHERE id = ?' ),
		};
	}

	/**
	 * Stores a batch and fans each new event out to every active endpoint subscribed to
	 * its type, all in one transaction: when this returns the batch is committed, and an
	 * event never exists without its deliveries. A known id is a no-op (WordPress's
	 * outbox re-sends a batch it got no answer for). Inside the caller's transaction if there is
	 * one (the dispatcher's ingest): a nested transaction would be a SAVEPOINT, which costs more
	 * than the commit the ingest saves (bench/README.md, "Outbound delivery").
	 */
	insertBatch( events: NewEvent[], now: number, firstAttemptAt: number ): InsertResult {
		const insert = () => {
			const endpoints = ( this.statements.activeEndpoints.all() as { id: string; event_types: string }[] ).map(
				( row ) => ( {
					id: row.id,
					types: new Set( JSON.parse( row.event_types ) as string[] ),
				} )
			);
			const result: InsertResult = { accepted: [], duplicates: [], endpointIds: [] };
			const touched = new Set< string >();
			for ( const event of events ) {
				const inserted = this.statements.insert.run(
					event.id,
					event.type,
					event.timestamp,
					event.orderingKey,
					eventPayload( event ),
					now
				).changes;
				if ( inserted === 0 ) {
					result.duplicates.push( event.id );
					continue;
				}
				result.accepted.push( event.id );
				for ( const endpoint of endpoints ) {
					if ( receives( endpoint, event ) ) {
						this.statements.insertDelivery.run(
							event.id,
							endpoint.id,
							event.orderingKey,
							firstAttemptAt,
							now,
							now
						);
						touched.add( endpoint.id );
					}
				}
			}
			result.endpointIds = [ ...touched ];
			return result;
		};
		return this.db.inTransaction ? insert() : this.db.transaction( insert ).immediate();
	}

	get( id: string ): StoredEvent | undefined {
		const row = this.statements.get.get( id ) as EventRow | undefined;
		return row
			? {
					id: row.id,
					type: row.type,
					timestamp: row.timestamp,
					orderingKey: row.ordering_key,
					payload: row.payload,
					receivedAt: row.received_at,
					payloadClearedAt: row.payload_cleared_at,
					redactedAt: row.redacted_at,
				}
			: undefined;
	}
}

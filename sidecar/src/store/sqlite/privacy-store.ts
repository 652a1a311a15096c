import { EraseResult, PrivacyRecord } from '../../model/privacy';
import type { Db } from './database';
import { eventPayload } from '../../model/events';
import {
	findPersonalFields,
	nameValues,
	redactJson,
	redactText,
	type PersonalFields,
} from '../../privacy/personal-data';

interface EventCandidate {
	id: string;
	type: string;
	timestamp: string;
	payload: string;
	received_at: number;
}

interface AttemptCandidate {
	id: number;
	event_id: string;
	type: string;
	started_at: number;
	response_excerpt: string;
}

/** Rows updated per statement batch of an erasure (one transaction in all). */
const ERASE_BATCH = 200;

/**
 * The sidecar's side of WordPress's personal data exporter and eraser, and the payload
 * retention. Candidates are found with instr() on the lowercased text (a scan: these
 * requests are rare), then confirmed by parsing the JSON, so a longer address containing
 * the email (xbob@example.com for bob@example.com) is no match.
 */
export class PrivacyStore {
	private readonly statements;

	constructor( private readonly db: Db ) {
		this.statements = {
			candidateEvents: db.prepare(
				`SELECT id, type, timestamp, payload, received_at FROM events WHERE instr(lower(payload), lower(?)) > 0 ORDER BY received_at, id`
			),
			candidateAttempts: db.prepare(
				`SELECT a.id, d.event_id, e.type, a.started_at, a.response_excerpt FROM attempts a
				 JOIN deliveries d ON d.id = a.delivery_id JOIN events e ON e.id = d.event_id
				 WHERE a.response_excerpt IS NOT NULL AND instr(lower(a.response_excerpt), lower(?)) > 0 ORDER BY a.started_at, a.id`
			),
			attemptsOfEvent: db.prepare(
				`SELECT a.id, a.response_excerpt FROM attempts a JOIN deliveries d ON d.id = a.delivery_id
				 WHERE d.event_id = ? AND a.response_excerpt IS NOT NULL`
			),
			deliveryErrorsOfEvent: db.prepare(
				`SELECT id, last_error FROM deliveries WHERE event_id = ? AND last_error IS NOT NULL`
			),
			deliveryErrorsMatching: db.prepare(
				`SELECT id, last_error FROM deliveries WHERE last_error IS NOT NULL AND instr(lower(last_error), lower(?)) > 0`
			),
			setPayload: db.prepare( `UPDATE events SET payload = ?, redacted_at = ? WHERE id = ?` ),
			setExcerpt: db.prepare( `UPDATE attempts SET response_excerpt = ? WHERE id = ?` ),
			setDeliveryError: db.prepare( `UPDATE deliveries SET last_error = ? WHERE id = ?` ),
			// Payload retention: events received before a time, with nothing left to send.
			payloadsDue: db.prepare(
				`SELECT id, type, timestamp FROM events INDEXED BY events_payload_held
				 WHERE payload_cleared_at IS NULL AND received_at < ?
				   AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = events.id AND d.status IN ('pending', 'in_flight'))
				 ORDER BY received_at LIMIT ?`
			),
			clearPayload: db.prepare( `UPDATE events SET payload = ?, payload_cleared_at = ? WHERE id = ?` ),
			clearExcerpts: db.prepare(
				`UPDATE attempts SET response_excerpt = NULL WHERE id IN (
				   SELECT id FROM attempts INDEXED BY attempts_excerpt_held WHERE response_excerpt IS NOT NULL AND started_at < ? LIMIT ?)`
			),
		};
	}

	private matchingEvents( email: string ): { row: EventCandidate; json: unknown; fields: PersonalFields[] }[] {
		const matches: { row: EventCandidate; json: unknown; fields: PersonalFields[] }[] = [];
		for ( const row of this.statements.candidateEvents.all( email ) as EventCandidate[] ) {
			let json: unknown;
			try {
				json = JSON.parse( row.payload );
			} catch {
				continue;
			}
			const fields = findPersonalFields( json, email );
			if ( fields.length > 0 ) {
				matches.push( { row, json, fields } );
			}
		}
		return matches;
	}

	private matchingAttempts( email: string ): AttemptCandidate[] {
		// Free text (what a receiver answered): containing the email is a match.
		return this.statements.candidateAttempts.all( email.trim() ) as AttemptCandidate[];
	}

	/** Every record holding the email: events first (oldest first), then attempts. */
	find( email: string ): PrivacyRecord[] {
		const records: PrivacyRecord[] = this.matchingEvents( email ).map( ( { row, fields } ) => ( {
			kind: 'event',
			id: row.id,
			type: row.type,
			received_at: new Date( row.received_at ).toISOString(),
			fields: Object.assign( {}, ...fields ) as PersonalFields,
		} ) );
		for ( const row of this.matchingAttempts( email ) ) {
			records.push( {
				kind: 'attempt',
				id: String( row.id ),
				type: row.type,
				event_id: row.event_id,
				received_at: new Date( row.started_at ).toISOString(),
				fields: { email: email.trim(), response_excerpt: row.response_excerpt },
			} );
		}
		return records;
	}

	/**
	 * Replaces the customer's data by redaction markers, in one transaction: each event's
	 * payload (ids, type, timestamp and ordering key stay), the response excerpts of its
	 * attempts and its deliveries' last errors (the email and the names found in its payload),
	 * and every other excerpt or last error holding the email.
	 */
	erase( email: string, now: number ): EraseResult {
		return this.db
			.transaction( () => {
				const events = this.matchingEvents( email );
				const redactedAttempts = new Set< number >();
				const redactAttempt = ( id: number, excerpt: string, values: string[] ) => {
					const next = redactText( excerpt, values );
					if ( next !== excerpt ) {
						this.statements.setExcerpt.run( next, id );
						redactedAttempts.add( id );
					}
				};
				const redactDeliveryError = ( id: number, text: string, values: string[] ) => {
					const next = redactText( text, values );
					if ( next !== text ) {
						this.statements.setDeliveryError.run( next, id );
					}
				};
				for ( let start = 0; start < events.length; start += ERASE_BATCH ) {
					for ( const { row, json, fields } of events.slice( start, start + ERASE_BATCH ) ) {
						const { value, replaced } = redactJson( json, email );
						this.statements.setPayload.run( JSON.stringify( value ), now, row.id );
						// The full name too ("Grace Hopper" as well as its parts): longest values are replaced first.
						const fullNames = fields
							.map( ( field ) => field.name )
							.filter( ( name ): name is string => name !== undefined );
						const values = [ email, ...replaced, ...fullNames, ...nameValues( json, email ) ];
						for ( const attempt of this.statements.attemptsOfEvent.all( row.id ) as {
							id: number;
							response_excerpt: string;
						}[] ) {
							redactAttempt( attempt.id, attempt.response_excerpt, values );
						}
						for ( const delivery of this.statements.deliveryErrorsOfEvent.all( row.id ) as {
							id: number;
							last_error: string;
						}[] ) {
							redactDeliveryError( delivery.id, delivery.last_error, values );
						}
					}
				}
				for ( const attempt of this.matchingAttempts( email ) ) {
					redactAttempt( attempt.id, attempt.response_excerpt, [ email ] );
				}
				for ( const delivery of this.statements.deliveryErrorsMatching.all( email.trim() ) as {
					id: number;
					last_error: string;
				}[] ) {
					redactDeliveryError( delivery.id, delivery.last_error, [ email ] );
				}
				return { redacted_events: events.length, redacted_attempts: redactedAttempts.size };
			} )
			.immediate();
	}

	/**
	 * Payload retention: up to `limit` events received before `before` and with nothing left
	 * to send get an empty envelope ({type, timestamp, data: {}}), and up to `limit` attempts
	 * made before `before` lose their response excerpt. Rows themselves stay (metadata).
	 */
	clearPayloads( before: number, limit: number, now: number ): { payloads: number; excerpts: number } {
		return this.db
			.transaction( () => {
				const due = this.statements.payloadsDue.all( before, limit ) as {
					id: string;
					type: string;
					timestamp: string;
				}[];
				for ( const event of due ) {
					this.statements.clearPayload.run(
						eventPayload( { type: event.type as never, timestamp: event.timestamp, data: {} } ),
						now,
						event.id
					);
				}
				return { payloads: due.length, excerpts: this.statements.clearExcerpts.run( before, limit ).changes };
			} )
			.immediate();
	}
}

import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import {
	findPersonalFields,
	nameValues,
	redactJson,
	redactText,
	type PersonalFields,
} from '../../privacy/personal-data';
import type { PrivacyQueue } from '../privacy-queue';
import type { EraseResult, PrivacyRecord } from '../../model/privacy';
import { inTransaction } from './mysql-transaction';

type Row = RowDataPacket & Record< string, unknown >;

interface MatchingEvent {
	id: string;
	type: string;
	receivedAt: number;
	json: unknown;
	fields: PersonalFields[];
}

interface MatchingAttempt {
	id: number;
	eventId: string;
	type: string;
	startedAt: number;
	excerpt: string;
}

/**
 * The shared store's privacy requests, with the embedded store's rules (PrivacyStore): the
 * candidates are found with INSTR on the lowercased text (a scan: these requests are rare),
 * then confirmed by parsing the JSON, so a longer address containing the email is no match.
 * An erasure runs in one transaction: what another instance reads meanwhile is either all
 * of the customer's data or none of it.
 */
export class MysqlPrivacyQueue implements PrivacyQueue {
	constructor( private readonly pool: Pool ) {}

	async find( email: string ): Promise< PrivacyRecord[] > {
		const records: PrivacyRecord[] = ( await matchingEvents( this.pool, email ) ).map( ( event ) => ( {
			kind: 'event',
			id: event.id,
			type: event.type,
			received_at: new Date( event.receivedAt ).toISOString(),
			fields: Object.assign( {}, ...event.fields ) as PersonalFields,
		} ) );
		for ( const attempt of await matchingAttempts( this.pool, email ) ) {
			records.push( {
				kind: 'attempt',
				id: String( attempt.id ),
				type: attempt.type,
				event_id: attempt.eventId,
				received_at: new Date( attempt.startedAt ).toISOString(),
				fields: { email: email.trim(), response_excerpt: attempt.excerpt },
			} );
		}
		return records;
	}

	/**
	 * Each event's payload (ids, type, timestamp and ordering key stay), the response excerpts
	 * of its attempts and its deliveries' last errors (the email and the names found in its
	 * payload), and every other excerpt or last error holding the email.
	 */
	async erase( email: string, now: number ): Promise< EraseResult > {
		return inTransaction( this.pool, ( connection ) => eraseIn( connection, email, now ) );
	}
}

async function eraseIn( connection: PoolConnection, email: string, now: number ): Promise< EraseResult > {
	const redactedAttempts = new Set< number >();
	const redactAttempt = async ( id: number, excerpt: string, values: string[] ) => {
		const next = redactText( excerpt, values );
		if ( next !== excerpt ) {
			await connection.query( 'UPDATE attempts SET response_excerpt = ? WHERE id = ?', [ next, id ] );
			redactedAttempts.add( id );
		}
	};
	const redactDeliveryError = async ( id: number, text: string, values: string[] ) => {
		const next = redactText( text, values );
		if ( next !== text ) {
			await connection.query( 'UPDATE deliveries SET last_error = ? WHERE id = ?', [ next, id ] );
		}
	};
	const events = await matchingEvents( connection, email, true );
	for ( const event of events ) {
		const { value, replaced } = redactJson( event.json, email );
		await connection.query( 'UPDATE events SET payload = ?, redacted_at = ? WHERE id = ?', [
			JSON.stringify( value ),
			now,
			event.id,
		] );
		// The full name too ("Grace Hopper" as well as its parts): longest values are replaced first.
		const fullNames = event.fields
			.map( ( field ) => field.name )
			.filter( ( name ): name is string => name !== undefined );
		const values = [ email, ...replaced, ...fullNames, ...nameValues( event.json, email ) ];
		const [ attempts ] = await connection.query< Row[] >(
			`SELECT a.id, a.response_excerpt FROM attempts a JOIN deliveries d ON d.id = a.delivery_id
			 WHERE d.event_id = ? AND a.response_excerpt IS NOT NULL`,
			[ event.id ]
		);
		for ( const attempt of attempts ) {
			await redactAttempt( Number( attempt.id ), String( attempt.response_excerpt ), values );
		}
		const [ errors ] = await connection.query< Row[] >(
			'SELECT id, last_error FROM deliveries WHERE event_id = ? AND last_error IS NOT NULL',
			[ event.id ]
		);
		for ( const delivery of errors ) {
			await redactDeliveryError( Number( delivery.id ), String( delivery.last_error ), values );
		}
	}
	for ( const attempt of await matchingAttempts( connection, email ) ) {
		await redactAttempt( attempt.id, attempt.excerpt, [ email ] );
	}
	const [ errors ] = await connection.query< Row[] >(
		'SELECT id, last_error FROM deliveries WHERE last_error IS NOT NULL AND INSTR(LOWER(last_error), LOWER(?)) > 0',
		[ email.trim() ]
	);
	for ( const delivery of errors ) {
		await redactDeliveryError( Number( delivery.id ), String( delivery.last_error ), [ email ] );
	}
	return { redacted_events: events.length, redacted_attempts: redactedAttempts.size };
}

/** The events whose payload holds the email as a whole value, oldest first; locked when `lock`. */
async function matchingEvents( db: Pool | PoolConnection, email: string, lock = false ): Promise< MatchingEvent[] > {
	const [ rows ] = await db.query< Row[] >(
		`SELECT id, type, payload, received_at FROM events WHERE INSTR(LOWER(payload), LOWER(?)) > 0
		 ORDER BY received_at, id ${ lock ? 'FOR UPDATE' : '' }`,
		[ email ]
	);
	const matches: MatchingEvent[] = [];
	for ( const row of rows ) {
		let json: unknown;
		try {
			json = JSON.parse( String( row.payload ) );
		} catch {
			continue;
		}
		const fields = findPersonalFields( json, email );
		if ( fields.length > 0 ) {
			matches.push( {
				id: String( row.id ),
				type: String( row.type ),
				receivedAt: Number( row.received_at ),
				json,
				fields,
			} );
		}
	}
	return matches;
}

/** Attempts whose response excerpt (free text, what a receiver answered) contains the email. */
async function matchingAttempts( db: Pool | PoolConnection, email: string ): Promise< MatchingAttempt[] > {
	const [ rows ] = await db.query< Row[] >(
		`SELECT a.id, d.event_id, e.type, a.started_at, a.response_excerpt FROM attempts a
		 JOIN deliveries d ON d.id = a.delivery_id JOIN events e ON e.id = d.event_id
		 WHERE a.response_excerpt IS NOT NULL AND INSTR(LOWER(a.response_excerpt), LOWER(?)) > 0
		 ORDER BY a.started_at, a.id`,
		[ email.trim() ]
	);
	return rows.map( ( row ) => ( {
		id: Number( row.id ),
		eventId: String( row.event_id ),
		type: String( row.type ),
		startedAt: Number( row.started_at ),
		excerpt: String( row.response_excerpt ),
	} ) );
}

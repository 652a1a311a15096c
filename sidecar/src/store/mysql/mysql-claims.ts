import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { DeliveredEventType, AttemptTrigger } from '../../contracts/constants';
import { parkedIfEndpointStopped, type ClaimedDelivery, type Completion } from '../../model/deliveries';
import type { Lease } from '../queue-store';
import { inTransaction } from './mysql-transaction';

type Row = RowDataPacket & Record< string, unknown >;

/** What a round asks of one endpoint: up to `limit` of its due deliveries. */
export interface ClaimRequest {
	endpointId: string;
	limit: number;
}

const CLAIMABLE = `((d.status = 'pending' AND d.next_attempt_at <= ?) OR (d.status = 'in_flight' AND d.claimed_until < ?))`;
// Not behind an unfinished earlier delivery of the same ordering key.
const HEAD = `(d.ordering_key IS NULL OR NOT EXISTS (
	SELECT 1 FROM deliveries p
	WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.id < d.id AND p.status IN ('pending', 'in_flight')))`;

/**
 * Takes the due deliveries of several endpoints, up to each one's limit, in a fixed number of
 * statements whatever the endpoints (the shared store's cost is its round trips):
 *  1. candidates: due pending deliveries, or in-flight ones whose lease expired, that no
 *     unfinished earlier delivery of the same ordering key precedes; one statement, two index
 *     range reads per endpoint (a plain read of what is committed: an earlier delivery another
 *     instance is claiming right now is still pending or in flight, so it holds its followers back);
 *  2. in one short transaction, SELECT … FOR UPDATE SKIP LOCKED on those rows, re-checking that
 *     they are still claimable (rows another instance is claiming at this moment are skipped,
 *     not waited for), then one UPDATE for the lease (in_flight, claimed_by this instance,
 *     claimed_until now + leaseMs) and one read of their events.
 */
export async function claimDueOn(
	pool: Pool,
	requests: ClaimRequest[],
	now: number,
	lease: Lease
): Promise< ClaimedDelivery[] > {
	const asked = requests.filter( ( request ) => request.limit > 0 );
	if ( asked.length === 0 ) {
		return [];
	}
	const limits = new Map( asked.map( ( request ) => [ request.endpointId, request.limit ] ) );
	// Two index range reads per endpoint (due pending rows, expired leases) rather than one OR that scans its history.
	const [ candidates ] = await pool.query< Row[] >(
		asked
			.map(
				() => `(SELECT d.id FROM deliveries d
				  WHERE d.endpoint_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ? AND ${ HEAD }
				  ORDER BY d.next_attempt_at, d.id LIMIT ?)
				 UNION ALL
				 (SELECT d.id FROM deliveries d
				  WHERE d.endpoint_id = ? AND d.status = 'in_flight' AND d.claimed_until < ? AND ${ HEAD }
				  ORDER BY d.claimed_until, d.id LIMIT ?)`
			)
			.join( ' UNION ALL ' ),
		asked.flatMap( ( { endpointId, limit } ) => [ endpointId, now, limit, endpointId, now, limit ] )
	);
	if ( candidates.length === 0 ) {
		return [];
	}
	const ids = candidates.map( ( row ) => Number( row.id ) );
	return inTransaction( pool, async ( connection ) => {
		const [ locked ] = await connection.query< Row[] >(
			`SELECT d.id, d.event_id, d.endpoint_id, d.attempt_count, d.cycle_attempts, d.next_trigger, d.created_at
			 FROM deliveries d
			 WHERE d.id IN (?) AND ${ CLAIMABLE }
			 ORDER BY d.id
			 FOR UPDATE SKIP LOCKED`,
			[ ids, now, now ]
		);
		// Each endpoint's limit, lowest ids first; the rest are let go at the commit.
		const left = new Map( limits );
		const rows = locked.filter( ( row ) => {
			const id = String( row.endpoint_id );
			const room = left.get( id ) ?? 0;
			left.set( id, room - 1 );
			return room > 0;
		} );
		if ( rows.length === 0 ) {
			return [];
		}
		await connection.query(
			`UPDATE deliveries SET status = 'in_flight', claimed_by = ?, claimed_until = ?, updated_at = ? WHERE id IN (?)`,
			[ lease.instanceId, now + lease.leaseMs, now, rows.map( ( row ) => Number( row.id ) ) ]
		);
		const [ events ] = await connection.query< Row[] >(
			'SELECT id, type, payload, received_at FROM events WHERE id IN (?)',
			[ [ ...new Set( rows.map( ( row ) => String( row.event_id ) ) ) ] ]
		);
		const eventsById = new Map( events.map( ( event ) => [ String( event.id ), event ] ) );
		return rows.map( ( row ) => {
			const event = eventsById.get( String( row.event_id ) ) as Row;
			return {
				id: Number( row.id ),
				eventId: String( row.event_id ),
				eventType: event.type as DeliveredEventType,
				endpointId: String( row.endpoint_id ),
				payload: String( event.payload ),
				attemptCount: Number( row.attempt_count ),
				cycleAttempts: Number( row.cycle_attempts ),
				trigger: row.next_trigger as AttemptTrigger,
				receivedAt: Number( event.received_at ),
				createdAt: Number( row.created_at ),
			};
		} );
	} );
}

/** The columns a completion sets, as a derived table's row (UPDATE … JOIN). */
const COMPLETION_ROW = `SELECT ? AS id, ? AS status, ? AS attempt_count, ? AS cycle_attempts, ? AS next_attempt_at,
	? AS last_status_code, ? AS last_error, ? AS updated_at`;

/**
 * Records the attempts that ended, in one transaction of a fixed number of statements: each
 * delivery moves on only while this instance still holds it (its lease may have expired and
 * another instance taken it over); every attempt is recorded either way, with the instance
 * and its start and end, since it did happen (unless its delivery is gone). Per completion,
 * whether its delivery moved on.
 */
export async function completeAll( pool: Pool, completions: Completion[], lease: Lease ): Promise< boolean[] > {
	if ( completions.length === 0 ) {
		return [];
	}
	return inTransaction( pool, async ( connection ) => {
		let moving = completions;
		const retried = [
			...new Set( completions.filter( ( c ) => c.status === 'pending' ).map( ( c ) => c.endpointId ) ),
		];
		if ( retried.length > 0 ) {
			// A retry is parked if its endpoint was disabled (through any instance) while the attempt
			// ran. The shared locks wait for a disabling in progress (it holds the row exclusively
			// while it cancels the queue), and are taken before the deliveries' rows, in the
			// disabling's own order, so the two cannot deadlock.
			const [ endpoints ] = await connection.query< Row[] >(
				'SELECT id, status, disabled_reason FROM endpoints WHERE id IN (?) ORDER BY id LOCK IN SHARE MODE',
				[ retried ]
			);
			const byId = new Map(
				endpoints.map( ( row ) => [
					String( row.id ),
					{ status: String( row.status ), disabledReason: ( row.disabled_reason as string | null ) ?? null },
				] )
			);
			moving = completions.map( ( c ) => parkedIfEndpointStopped( c, byId.get( c.endpointId ) ) );
		}
		const [ rows ] = await connection.query< Row[] >(
			'SELECT id, status, claimed_by FROM deliveries WHERE id IN (?) ORDER BY id FOR UPDATE',
			[ moving.map( ( c ) => c.deliveryId ) ]
		);
		const existing = new Set( rows.map( ( row ) => Number( row.id ) ) );
		const held = new Set(
			rows
				.filter( ( row ) => row.status === 'in_flight' && row.claimed_by === lease.instanceId )
				.map( ( row ) => Number( row.id ) )
		);
		const ours = moving.filter( ( c ) => held.has( c.deliveryId ) );
		if ( ours.length > 0 ) {
			await connection.query(
				`UPDATE deliveries d JOIN (${ ours.map( () => COMPLETION_ROW ).join( ' UNION ALL ' ) }) v ON v.id = d.id
				 SET d.status = v.status, d.attempt_count = v.attempt_count, d.cycle_attempts = v.cycle_attempts,
				   d.next_attempt_at = v.next_attempt_at, d.next_trigger = 'scheduled', d.last_status_code = v.last_status_code,
				   d.last_error = v.last_error, d.claimed_by = NULL, d.claimed_until = NULL, d.updated_at = v.updated_at
				 WHERE d.status = 'in_flight' AND d.claimed_by = ?`,
				[
					...ours.flatMap( ( c ) => [
						c.deliveryId,
						c.status,
						c.attemptNumber,
						c.cycleAttempts,
						c.nextAttemptAt,
						c.statusCode,
						c.lastError,
						c.now,
					] ),
					lease.instanceId,
				]
			);
		}
		const recorded = moving.filter( ( c ) => existing.has( c.deliveryId ) );
		if ( recorded.length > 0 ) {
			await connection.query(
				`INSERT INTO attempts (delivery_id, endpoint_id, instance_id, attempt_number, started_at, ended_at, duration_ms, status_code,
				   error_code, response_excerpt, next_attempt_at, \`trigger\`)
				 VALUES ?`,
				[
					recorded.map( ( c ) => [
						c.deliveryId,
						c.endpointId,
						lease.instanceId,
						c.attemptNumber,
						c.startedAt,
						c.startedAt + c.durationMs,
						c.durationMs,
						c.statusCode,
						c.errorCode,
						c.responseExcerpt,
						c.nextAttemptAt,
						c.trigger,
					] ),
				]
			);
		}
		return moving.map( ( c ) => held.has( c.deliveryId ) );
	} );
}

import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { DeliveryStatus } from '../../contracts/constants';
import type { RangeReplay, RangeReplayResult } from '../../model/deliveries';
import { ReplayConflict, type ReplayQueue } from '../replay-queue';
import { NOT_A_TEST_EVENT_SQL } from '../../model/events';
import { planRangeReplay, takeRange, type RangeRow, type ReplayStep } from '../../model/range-replay';
import { inTransaction } from './mysql-transaction';

type Row = RowDataPacket & Record< string, unknown >;

/** How long a range replay waits for another to the same endpoint (under STATEMENT_DEADLINE_MS). */
const REPLAY_LOCK_WAIT_SECONDS = 1;

// Requeueing restarts the retry schedule, marks the next attempt as manual and leaves no lease
// behind: the delivery is pending and due now, for whichever instance claims next.
const REQUEUE_SET = `d.status = 'pending', d.next_attempt_at = ?, d.cycle_attempts = 0, d.next_trigger = 'manual',
	d.claimed_by = NULL, d.claimed_until = NULL, d.updated_at = ?`;
// Past SIDECAR_PAYLOAD_RETENTION_DAYS an event's payload is empty: there is nothing left to send.
const REQUEUE_FROM = `deliveries d JOIN endpoints p ON p.id = d.endpoint_id AND p.status = 'active'
	JOIN events e ON e.id = d.event_id AND e.payload_cleared_at IS NULL`;
const ATTEMPT_COLUMNS = `endpoint_id, instance_id, attempt_number, started_at, ended_at, duration_ms, status_code, error_code,
	response_excerpt, next_attempt_at, \`trigger\``;
const MOVED_DELIVERY_COLUMNS = `event_id, endpoint_id, ordering_key, status, attempt_count, cycle_attempts, next_attempt_at,
	next_trigger, last_status_code, last_error, resent_on_recovery_at, claimed_by, claimed_until, created_at, updated_at`;

/**
 * The shared store's replays (see ReplayQueue), with the embedded store's semantics. Every
 * replay that may create deliveries for past events first takes a shared lock on the endpoint's
 * row: an enable, disable or delete through another instance waits for it (and it for them),
 * while new events for the endpoint, whose deliveries take the same shared lock, go on being
 * handed over. Two range replays to one endpoint do not run at once: the second waits for the
 * first's database lock (GET_LOCK) up to REPLAY_LOCK_WAIT_SECONDS, within the statement
 * deadline, and is then refused with ReplayConflict rather than answered as an outage. The
 * deliveries a replay changes are locked too, so a dispatcher claiming at that moment skips them
 * (SKIP LOCKED) and finds them pending once the replay commits; those in flight are left alone,
 * so that recording their attempts does not wait for the replay.
 */
export class MysqlReplayQueue implements ReplayQueue {
	constructor(
		private readonly pool: Pool,
		/** Prefix of the database lock names (MysqlStore's: the database's name). */
		private readonly lockPrefix: string
	) {}

	async requeueEvent( eventId: string, endpointId: string | undefined, now: number ): Promise< number > {
		if ( endpointId === undefined ) {
			const [ result ] = await this.pool.query< ResultSetHeader >(
				`UPDATE ${ REQUEUE_FROM } SET ${ REQUEUE_SET } WHERE d.event_id = ? AND d.status <> 'in_flight'`,
				[ now, now, eventId ]
			);
			return result.affectedRows;
		}
		return inTransaction( this.pool, async ( connection ) => {
			if ( ! ( await lockActiveEndpoint( connection, endpointId ) ) ) {
				return 0;
			}
			const [ inserted ] = await connection.query< ResultSetHeader >(
				`INSERT IGNORE INTO deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, next_trigger, created_at, updated_at)
				 SELECT id, ?, ordering_key, 'pending', ?, 'manual', ?, ? FROM events WHERE id = ? AND payload_cleared_at IS NULL`,
				[ endpointId, now, now, now, eventId ]
			);
			if ( inserted.affectedRows === 1 ) {
				return 1;
			}
			const [ updated ] = await connection.query< ResultSetHeader >(
				`UPDATE ${ REQUEUE_FROM } SET ${ REQUEUE_SET }
				 WHERE d.event_id = ? AND d.endpoint_id = ? AND d.status <> 'in_flight'`,
				[ now, now, eventId, endpointId ]
			);
			return updated.affectedRows;
		} );
	}

	async requeueFailedSince( since: number, endpointId: string | undefined, now: number ): Promise< number > {
		// updated_at is when the delivery failed (or was cancelled): "what failed since".
		const [ result ] = await this.pool.query< ResultSetHeader >(
			`UPDATE ${ REQUEUE_FROM } SET ${ REQUEUE_SET }
			 WHERE d.status IN ('failed', 'cancelled') AND d.updated_at >= ? ${ endpointId === undefined ? '' : 'AND d.endpoint_id = ?' }`,
			[ now, now, since, ...( endpointId === undefined ? [] : [ endpointId ] ) ]
		);
		return result.affectedRows;
	}

	/**
	 * As DeliveriesStore.replayRange, planned by model/range-replay.ts. A delivery that moves to
	 * a fresh id is deleted and inserted again with a fresh AUTO_INCREMENT id, its attempts with
	 * it (InnoDB will not update a primary key that attempts refer to, and a fresh AUTO_INCREMENT
	 * value is one no other instance can be handing out).
	 */
	async replayRange( replay: RangeReplay ): Promise< RangeReplayResult > {
		const typeFilter = replay.types.length === 0 ? '' : 'AND e.type IN (?)';
		const rangeSql = `SELECT e.id AS event_id, e.received_at, d.id AS delivery_id, d.status
			FROM events e LEFT JOIN deliveries d ON d.event_id = e.id AND d.endpoint_id = ?
			WHERE e.received_at >= ? AND e.received_at < ? AND e.payload_cleared_at IS NULL AND ${ NOT_A_TEST_EVENT_SQL } ${ typeFilter }
			ORDER BY e.seq
			LIMIT ?`;
		const rangeParams = [
			replay.endpointId,
			replay.from,
			replay.to,
			...( replay.types.length === 0 ? [] : [ replay.types ] ),
			replay.limit + 1,
		];
		const run = async ( connection: Pool | PoolConnection ): Promise< RangeReplayResult > => {
			const [ rows ] = await connection.query< Row[] >( rangeSql, rangeParams );
			const { taken, more, nextFrom } = takeRange(
				rows.map( ( row ) => ( {
					eventId: String( row.event_id ),
					receivedAt: Number( row.received_at ),
					deliveryId: row.delivery_id === null ? null : Number( row.delivery_id ),
					status: ( row.status as DeliveryStatus | null ) ?? null,
				} ) ),
				replay.limit
			);
			if ( replay.dryRun ) {
				return { ...planRangeReplay( taken ).counts, more, nextFrom };
			}
			await lockStatuses( connection as PoolConnection, taken );
			const { steps, counts } = planRangeReplay( taken );
			for ( const step of steps ) {
				await replayStep( connection as PoolConnection, step, replay );
			}
			return { ...counts, more, nextFrom };
		};
		if ( replay.dryRun ) {
			return run( this.pool );
		}
		return this.alone( `replay:${ replay.endpointId }`, () =>
			inTransaction( this.pool, async ( connection ) =>
				( await lockActiveEndpoint( connection, replay.endpointId ) )
					? run( connection )
					: { matched: 0, queued: 0, alreadyQueued: 0, more: false, nextFrom: null }
			)
		);
	}

	/**
	 * Runs fn holding the database lock `name` (on a connection of its own, held until fn's
	 * transaction has committed); ReplayConflict if another instance holds it past the wait.
	 */
	private async alone< T >( name: string, fn: () => Promise< T > ): Promise< T > {
		const connection = await this.pool.getConnection();
		try {
			const [ locked ] = await connection.query< Row[] >( 'SELECT GET_LOCK(?, ?) AS ok', [
				this.lockPrefix + name,
				REPLAY_LOCK_WAIT_SECONDS,
			] );
			if ( locked[ 0 ]?.ok !== 1 ) {
				throw new ReplayConflict();
			}
			try {
				return await fn();
			} finally {
				await connection.query( 'SELECT RELEASE_LOCK(?)', [ this.lockPrefix + name ] );
			}
		} finally {
			connection.release();
		}
	}
}

/**
 * Takes a shared lock on the endpoint's row until the transaction ends; false if it is gone or
 * no longer active (deleted or disabled through another instance since the route checked it).
 */
async function lockActiveEndpoint( connection: PoolConnection, endpointId: string ): Promise< boolean > {
	const [ rows ] = await connection.query< Row[] >( 'SELECT status FROM endpoints WHERE id = ? LOCK IN SHARE MODE', [
		endpointId,
	] );
	return rows[ 0 ]?.status === 'active';
}

/**
 * Locks the deliveries of the range that are not in flight and sets each row's status as it is
 * under the lock (a dispatcher may have moved them since the read). In flight ones are not locked
 * (they stay as they are): one claimed since the read is read again without a lock, and one gone
 * meanwhile (pruned) gets no status, so a new delivery is made.
 */
async function lockStatuses( connection: PoolConnection, taken: RangeRow[] ): Promise< void > {
	const ids = taken.flatMap( ( row ) => ( row.deliveryId === null ? [] : [ row.deliveryId ] ) );
	if ( ids.length === 0 ) {
		return;
	}
	const [ locked ] = await connection.query< Row[] >(
		`SELECT id, status FROM deliveries WHERE id IN (?) AND status <> 'in_flight' FOR UPDATE`,
		[ ids ]
	);
	const statuses = new Map( locked.map( ( row ) => [ Number( row.id ), row.status as DeliveryStatus ] ) );
	const unlocked = ids.filter( ( id ) => ! statuses.has( id ) );
	if ( unlocked.length > 0 ) {
		const [ rest ] = await connection.query< Row[] >( 'SELECT id, status FROM deliveries WHERE id IN (?)', [
			unlocked,
		] );
		for ( const row of rest ) {
			statuses.set( Number( row.id ), 'in_flight' );
		}
	}
	for ( const row of taken ) {
		if ( row.deliveryId !== null ) {
			row.status = statuses.get( row.deliveryId ) ?? null;
		}
	}
}

async function replayStep( connection: PoolConnection, step: ReplayStep, replay: RangeReplay ): Promise< void > {
	if ( step.action === 'create' ) {
		await connection.query< ResultSetHeader >(
			`INSERT INTO deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, next_trigger, created_at, updated_at)
			 SELECT id, ?, ordering_key, 'pending', ?, 'manual', ?, ? FROM events WHERE id = ?`,
			[ replay.endpointId, replay.now, replay.now, replay.now, step.eventId ]
		);
		return;
	}
	const id = step.move ? await moveToFreshId( connection, step.deliveryId ) : step.deliveryId;
	if ( step.action === 'requeue' ) {
		await connection.query( `UPDATE deliveries d SET ${ REQUEUE_SET } WHERE d.id = ?`, [
			replay.now,
			replay.now,
			id,
		] );
	}
}

/** Deletes a (locked) delivery and inserts it again with a fresh id and its attempts; returns the new id. */
async function moveToFreshId( connection: PoolConnection, id: number ): Promise< number > {
	const [ attempts ] = await connection.query< Row[] >(
		`SELECT ${ ATTEMPT_COLUMNS } FROM attempts WHERE delivery_id = ? ORDER BY attempt_number, id`,
		[ id ]
	);
	const [ copied ] = await connection.query< Row[] >(
		`SELECT ${ MOVED_DELIVERY_COLUMNS } FROM deliveries WHERE id = ?`,
		[ id ]
	);
	const row = copied[ 0 ] as Row;
	await connection.query( 'DELETE FROM deliveries WHERE id = ?', [ id ] );
	const columns = MOVED_DELIVERY_COLUMNS.split( ',' ).map( ( column ) => column.trim() );
	const [ inserted ] = await connection.query< ResultSetHeader >(
		`INSERT INTO deliveries (${ MOVED_DELIVERY_COLUMNS }) VALUES (?)`,
		[ columns.map( ( column ) => row[ column ] ) ]
	);
	if ( attempts.length > 0 ) {
		const attemptColumns = ATTEMPT_COLUMNS.split( ',' ).map( ( column ) => column.trim().replace( /`/g, '' ) );
		await connection.query( `INSERT INTO attempts (delivery_id, ${ ATTEMPT_COLUMNS }) VALUES ?`, [
			attempts.map( ( attempt ) => [
				inserted.insertId,
				...attemptColumns.map( ( column ) => attempt[ column ] ),
			] ),
		] );
	}
	return inserted.insertId;
}

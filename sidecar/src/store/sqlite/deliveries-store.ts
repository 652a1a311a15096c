import { EndpointHealth, summariseHealth, RecentAttemptRow } from '../../model/health';
import {
	RangeReplayResult,
	RangeReplay,
	DeliveryFilter,
	Completion,
	ClaimedDelivery,
	Attempt,
	Delivery,
} from '../../model/deliveries';
import type Database from 'better-sqlite3';
import type { AttemptTrigger, DeliveredEventType, DeliveryStatus } from '../../contracts/constants';
import { NOT_A_TEST_EVENT_SQL } from '../../model/events';
import { planRangeReplay, takeRange, type ReplayStep } from '../../model/range-replay';
import type { Db } from './database';

interface DeliveryRow {
	id: number;
	event_id: string;
	event_type: DeliveredEventType;
	endpoint_id: string;
	status: DeliveryStatus;
	attempt_count: number;
	next_attempt_at: number | null;
	last_status_code: number | null;
	last_error: string | null;
	resent_on_recovery_at: number | null;
	created_at: number;
	updated_at: number;
}

interface AttemptRow {
	delivery_id: number;
	attempt_number: number;
	started_at: number;
	duration_ms: number;
	status_code: number | null;
	error_code: string | null;
	response_excerpt: string | null;
	next_attempt_at: number | null;
	trigger: AttemptTrigger;
}

const DELIVERY_COLUMNS = `d.id, d.event_id, e.type AS event_type, d.endpoint_id, d.status, d.attempt_count, d.next_attempt_at,
	d.last_status_code, d.last_error, d.resent_on_recovery_at, d.created_at, d.updated_at`;

// Requeueing restarts the retry schedule and marks the next attempt as manual.
const REQUEUE_SET = `status = 'pending', next_attempt_at = @now, cycle_attempts = 0, next_trigger = 'manual', updated_at = @now`;
const ACTIVE_ENDPOINT = `endpoint_id IN (SELECT id FROM endpoints WHERE status = 'active')`;
// Past SIDECAR_PAYLOAD_RETENTION_DAYS an event's payload is empty: there is nothing left to send.
// Correlated, one primary-key lookup per delivery the other terms kept: an IN (SELECT …) list
// was built from every event still holding its payload first (seconds with a million queued).
export const PAYLOAD_HELD = `EXISTS (SELECT 1 FROM events e WHERE e.id = deliveries.event_id AND e.payload_cleared_at IS NULL)`;

// Due now, and no earlier delivery of the same ordering key to this endpoint is still
// unfinished: that is what keeps a refund behind its order's paid event. The LIMIT is
// appended as a literal (see dueStatement).
const DUE_SQL = `SELECT d.id, d.event_id, e.type, d.endpoint_id, e.payload, d.attempt_count, d.cycle_attempts, d.next_trigger,
	   e.received_at, d.created_at
	 FROM deliveries d JOIN events e ON e.id = d.event_id
	 WHERE d.endpoint_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ?
	   AND (d.ordering_key IS NULL OR NOT EXISTS (
	     SELECT 1 FROM deliveries p
	     WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key AND p.id < d.id
	       AND p.status IN ('pending', 'in_flight')))
	 ORDER BY d.next_attempt_at, d.id
	 LIMIT `;

/** The delivery queue: one row per (event, endpoint), with its attempt history. */
export class DeliveriesStore {
	private readonly statements;
	/** The due query per LIMIT (1 to an endpoint's max_concurrency): see dueStatement. */
	private readonly dueByLimit = new Map< number, Database.Statement >();

	constructor( private readonly db: Db ) {
		this.statements = {
			// next_attempt_at is left as it was when claimed (already due): the cut-short attempts go
			// ahead of everything that came due after them, instead of behind the whole backlog.
			recover: db.prepare(
				`UPDATE deliveries SET status = 'pending', updated_at = ? WHERE status = 'in_flight'`
			),
			claim: db.prepare(
				`UPDATE deliveries SET status = 'in_flight', updated_at = ? WHERE id = ? AND status = 'pending'`
			),
			complete: db.prepare(
				`UPDATE deliveries SET status = @status, attempt_count = @attemptNumber, cycle_attempts = @cycleAttempts,
				 next_attempt_at = @nextAttemptAt, next_trigger = 'scheduled', last_status_code = @statusCode, last_error = @lastError,
				 updated_at = @now
				 WHERE id = @deliveryId AND status = 'in_flight'`
			),
			insertAttempt: db.prepare(
				`INSERT INTO attempts (delivery_id, endpoint_id, attempt_number, started_at, duration_ms, status_code, error_code, response_excerpt, next_attempt_at, trigger)
				 VALUES (@deliveryId, @endpointId, @attemptNumber, @startedAt, @durationMs, @statusCode, @errorCode, @responseExcerpt, @nextAttemptAt, @trigger)`
			),
			nextDue: db.prepare(
				`SELECT MIN(next_attempt_at) AS at FROM deliveries INDEXED BY deliveries_pending_at WHERE status = 'pending' AND next_attempt_at > ?`
			),
			requeueEvent: db.prepare(
				`UPDATE deliveries SET ${ REQUEUE_SET } WHERE event_id = @eventId AND status <> 'in_flight' AND ${ ACTIVE_ENDPOINT }`
			),
			requeueEventEndpoint: db.prepare(
				`UPDATE deliveries SET ${ REQUEUE_SET } WHERE event_id = @eventId AND endpoint_id = @endpointId AND status <> 'in_flight' AND ${ ACTIVE_ENDPOINT }`
			),
			insertManual: db.prepare(
				`INSERT INTO deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, next_trigger, created_at, updated_at)
				 SELECT id, @endpointId, ordering_key, 'pending', @now, 'manual', @now, @now FROM events WHERE id = @eventId
				 ON CONFLICT (event_id, endpoint_id) DO NOTHING`
			),
			// updated_at is when the delivery failed (or was cancelled): "what failed since".
			requeueSince: db.prepare(
				`UPDATE deliveries SET ${ REQUEUE_SET } WHERE status IN ('failed', 'cancelled') AND updated_at >= @since AND ${ ACTIVE_ENDPOINT } AND ${ PAYLOAD_HELD }`
			),
			requeueSinceEndpoint: db.prepare(
				`UPDATE deliveries SET ${ REQUEUE_SET }
				 WHERE status IN ('failed', 'cancelled') AND updated_at >= @since AND endpoint_id = @endpointId AND ${ ACTIVE_ENDPOINT } AND ${ PAYLOAD_HELD }`
			),
			// A range replay's events in arrival order (rowid), each with its delivery to the endpoint if
			// any; events past the payload retention have nothing left to send.
			rangeEvents: db.prepare(
				`SELECT e.id AS event_id, e.received_at, d.id AS delivery_id, d.status
				 FROM events e INDEXED BY events_by_received LEFT JOIN deliveries d ON d.event_id = e.id AND d.endpoint_id = @endpointId
				 WHERE e.received_at >= @from AND e.received_at < @to AND e.payload_cleared_at IS NULL AND ${ NOT_A_TEST_EVENT_SQL }
				   AND (json_array_length(@types) = 0 OR e.type IN (SELECT value FROM json_each(@types)))
				 ORDER BY e.rowid
				 LIMIT @limit`
			),
			maxId: db.prepare( 'SELECT COALESCE(MAX(id), 0) AS id FROM deliveries' ),
			insertReplay: db.prepare(
				`INSERT INTO deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, next_trigger, created_at, updated_at)
				 SELECT id, @endpointId, ordering_key, 'pending', @now, 'manual', @now, @now FROM events WHERE id = @eventId`
			),
			requeueId: db.prepare( `UPDATE deliveries SET ${ REQUEUE_SET } WHERE id = @id` ),
			moveDelivery: db.prepare( 'UPDATE deliveries SET id = @to WHERE id = @from' ),
			moveAttempts: db.prepare( 'UPDATE attempts SET delivery_id = @to WHERE delivery_id = @from' ),
			recentAttempts: db.prepare(
				`SELECT started_at, status_code, error_code, response_excerpt FROM attempts
				 WHERE endpoint_id = ? AND started_at >= ? ORDER BY started_at DESC LIMIT ?`
			),
			pruneDeliveries: db.prepare(
				`DELETE FROM deliveries WHERE id IN (
				   SELECT id FROM deliveries WHERE status IN ('succeeded', 'failed', 'cancelled') AND updated_at < ? LIMIT ?)`
			),
			pruneEvents: db.prepare(
				`DELETE FROM events WHERE id IN (
				   SELECT e.id FROM events e WHERE e.received_at < ? AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id) LIMIT ?)`
			),
			ofEvent: db.prepare(
				`SELECT ${ DELIVERY_COLUMNS } FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.event_id = ? ORDER BY d.id`
			),
			attemptsOfEvent: db.prepare(
				`SELECT a.* FROM attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id = ? ORDER BY a.delivery_id, a.attempt_number`
			),
			countStatus: db.prepare( 'SELECT COUNT(*) AS n FROM deliveries WHERE status = ?' ),
			// Every endpoint, with its pending deliveries read from the deliveries_due index alone.
			queue: db.prepare(
				`SELECT e.id AS endpoint_id, COUNT(d.next_attempt_at) AS pending, MIN(d.next_attempt_at) AS first_at
				 FROM endpoints e LEFT JOIN deliveries d INDEXED BY deliveries_due ON d.endpoint_id = e.id AND d.status = 'pending'
				 WHERE e.deleted_at IS NULL GROUP BY e.id`
			),
		};
	}

	/**
	 * At-least-once: an attempt cut short by a crash may or may not have arrived, so send it
	 * again, first: it keeps the due time it was claimed at.
	 */
	recoverInFlight( now: number ): number {
		return this.statements.recover.run( now ).changes;
	}

	/**
	 * Takes up to `limit` due deliveries of an endpoint (pending -> in_flight). Runs in the
	 * caller's transaction if there is one (the dispatcher batches a whole pump in one).
	 */
	claimDue( endpointId: string, now: number, limit: number ): ClaimedDelivery[] {
		if ( limit <= 0 ) {
			return [];
		}
		return this.atomically( () => {
			const rows = this.dueStatement( limit ).all( endpointId, now ) as {
				id: number;
				event_id: string;
				type: DeliveredEventType;
				endpoint_id: string;
				payload: string;
				attempt_count: number;
				cycle_attempts: number;
				next_trigger: AttemptTrigger;
				received_at: number;
				created_at: number;
			}[];
			const claimed: ClaimedDelivery[] = [];
			for ( const row of rows ) {
				if ( this.statements.claim.run( now, row.id ).changes === 1 ) {
					claimed.push( {
						id: row.id,
						eventId: row.event_id,
						eventType: row.type,
						endpointId: row.endpoint_id,
						payload: row.payload,
						attemptCount: row.attempt_count,
						cycleAttempts: row.cycle_attempts,
						trigger: row.next_trigger,
						receivedAt: row.received_at,
						createdAt: row.created_at,
					} );
				}
			}
			return claimed;
		} );
	}

	/**
	 * Records an attempt and moves the delivery on, atomically. Returns false when the
	 * delivery is gone (its endpoint was deleted while the attempt ran).
	 */
	complete( completion: Completion ): boolean {
		return this.atomically( () => {
			if ( this.statements.complete.run( completion ).changes === 0 ) {
				return false;
			}
			this.statements.insertAttempt.run( completion );
			return true;
		} );
	}

	/**
	 * A LIMIT given as a bound parameter makes SQLite prepare the statement again at every
	 * call (the planner takes the bound value into account): ~30 µs instead of ~2 µs for this
	 * query, twice per delivery. One statement per limit value, with the limit as a literal.
	 */
	private dueStatement( limit: number ): Database.Statement {
		let statement = this.dueByLimit.get( limit );
		if ( ! statement ) {
			statement = this.db.prepare( `${ DUE_SQL } ${ Math.floor( limit ) }` );
			this.dueByLimit.set( limit, statement );
		}
		return statement;
	}

	/** Runs fn in the caller's transaction, or in a new one. */
	private atomically< T >( fn: () => T ): T {
		return this.db.inTransaction ? fn() : this.db.transaction( fn ).immediate();
	}

	/** The earliest retry strictly after now (due rows are handled by wake-ups). */
	nextDueAfter( now: number ): number | undefined {
		const row = this.statements.nextDue.get( now ) as { at: number | null };
		return row.at ?? undefined;
	}

	/**
	 * Manual replay of one event: every delivery to an active endpoint (or the one to
	 * endpointId, created if the endpoint never had one) goes out again, same event id.
	 * Attempts in flight are left alone: they are being delivered already.
	 */
	requeueEvent( eventId: string, endpointId: string | undefined, now: number ): number {
		return this.db
			.transaction( () => {
				if ( endpointId === undefined ) {
					return this.statements.requeueEvent.run( { eventId, now } ).changes;
				}
				if ( this.statements.insertManual.run( { eventId, endpointId, now } ).changes === 1 ) {
					return 1;
				}
				return this.statements.requeueEventEndpoint.run( { eventId, endpointId, now } ).changes;
			} )
			.immediate();
	}

	/** Requeues deliveries to active endpoints that failed (or were cancelled) since `since`. */
	requeueFailedSince( since: number, endpointId: string | undefined, now: number ): number {
		return endpointId === undefined
			? this.statements.requeueSince.run( { since, now } ).changes
			: this.statements.requeueSinceEndpoint.run( { since, endpointId, now } ).changes;
	}

	/**
	 * Replays to one endpoint the events of `types` received in [from, to), in arrival order,
	 * at most `limit`, as model/range-replay.ts plans it: new deliveries for those the endpoint
	 * never got, finished ones queued again, open ones left to go out once, ids renumbered to
	 * follow arrival (a fresh id is the largest + 1). One transaction; a dry run only counts.
	 */
	replayRange( replay: RangeReplay ): RangeReplayResult {
		return this.db
			.transaction( (): RangeReplayResult => {
				const rows = this.statements.rangeEvents.all( {
					endpointId: replay.endpointId,
					from: replay.from,
					to: replay.to,
					types: JSON.stringify( replay.types ),
					limit: replay.limit + 1,
				} ) as {
					event_id: string;
					received_at: number;
					delivery_id: number | null;
					status: DeliveryStatus | null;
				}[];
				const { taken, more, nextFrom } = takeRange(
					rows.map( ( row ) => ( {
						eventId: row.event_id,
						receivedAt: row.received_at,
						deliveryId: row.delivery_id,
						status: row.status,
					} ) ),
					replay.limit
				);
				const { steps, counts } = planRangeReplay( taken );
				if ( ! replay.dryRun ) {
					// attempts.delivery_id references deliveries.id: checked at commit, once both moved.
					this.db.pragma( 'defer_foreign_keys = ON' );
					for ( const step of steps ) {
						this.replayStep( step, replay );
					}
				}
				return { ...counts, more, nextFrom };
			} )
			.immediate();
	}

	private replayStep( step: ReplayStep, replay: RangeReplay ): void {
		if ( step.action === 'create' ) {
			this.statements.insertReplay.run( {
				eventId: step.eventId,
				endpointId: replay.endpointId,
				now: replay.now,
			} );
			return;
		}
		let id = step.deliveryId;
		if ( step.move ) {
			const to = ( this.statements.maxId.get() as { id: number } ).id + 1;
			this.statements.moveDelivery.run( { from: id, to } );
			this.statements.moveAttempts.run( { from: id, to } );
			id = to;
		}
		if ( step.action === 'requeue' ) {
			this.statements.requeueId.run( { id, now: replay.now } );
		}
	}

	list( filter: DeliveryFilter ): { deliveries: Delivery[]; total: number } {
		const query = deliveryListQuery( filter );
		return this.db.transaction( () => {
			const total = ( this.db.prepare( query.count ).get( query.params ) as { n: number } ).n;
			const rows = this.db.prepare( query.page ).all( {
				...query.params,
				limit: filter.perPage,
				offset: ( filter.page - 1 ) * filter.perPage,
			} ) as DeliveryRow[];
			return { deliveries: rows.map( toDelivery ), total };
		} )();
	}

	/**
	 * An endpoint's recent attempts (the last `limit` since `since`): how many, how many
	 * succeeded, and the newest failure among them. One indexed range read.
	 */
	health( endpointId: string, since: number, limit: number ): EndpointHealth {
		return summariseHealth( this.statements.recentAttempts.all( endpointId, since, limit ) as RecentAttemptRow[] );
	}

	/**
	 * Retention: deletes up to `limit` finished deliveries (succeeded, failed, cancelled;
	 * never pending or in flight) last changed before `before`, with their attempts, then
	 * up to `limit` events received before `before` that no delivery refers to any more.
	 */
	prune( before: number, limit: number ): { deliveries: number; events: number } {
		return this.db
			.transaction( () => ( {
				deliveries: this.statements.pruneDeliveries.run( before, limit ).changes,
				events: this.statements.pruneEvents.run( before, limit ).changes,
			} ) )
			.immediate();
	}

	/** Every delivery of an event with its attempts, oldest first. */
	ofEvent( eventId: string ): ( Delivery & { attempts: Attempt[] } )[] {
		return this.db.transaction( () => {
			const attempts = new Map< number, Attempt[] >();
			for ( const row of this.statements.attemptsOfEvent.all( eventId ) as AttemptRow[] ) {
				attempts.set( row.delivery_id, [ ...( attempts.get( row.delivery_id ) ?? [] ), toAttempt( row ) ] );
			}
			return ( this.statements.ofEvent.all( eventId ) as DeliveryRow[] ).map( ( row ) => ( {
				...toDelivery( row ),
				attempts: attempts.get( row.id ) ?? [],
			} ) );
		} )();
	}

	/**
	 * Per endpoint: how many deliveries are pending and the earliest next attempt among them.
	 * One query, for the metrics scrape; its cost grows with the pending rows, not the history.
	 */
	queueByEndpoint(): { endpointId: string; pending: number; firstAttemptAt: number | null }[] {
		return (
			this.statements.queue.all() as { endpoint_id: string; pending: number; first_at: number | null }[]
		 ).map( ( row ) => ( {
			endpointId: row.endpoint_id,
			pending: row.pending,
			firstAttemptAt: row.first_at,
		} ) );
	}

	countByStatus(): Record< 'pending' | 'in_flight' | 'failed' | 'cancelled', number > {
		const count = ( status: DeliveryStatus ) => ( this.statements.countStatus.get( status ) as { n: number } ).n;
		return {
			pending: count( 'pending' ),
			in_flight: count( 'in_flight' ),
			failed: count( 'failed' ),
			cancelled: count( 'cancelled' ),
		};
	}
}

/** The delivery list's two queries for a filter (exported so tests can check their plans). */
export function deliveryListQuery( filter: Pick< DeliveryFilter, 'endpointId' | 'type' | 'status' > ) {
	const where: string[] = [];
	const params: Record< string, string | number > = {};
	if ( filter.endpointId !== undefined ) {
		where.push( 'd.endpoint_id = @endpointId' );
		params.endpointId = filter.endpointId;
	}
	if ( filter.type !== undefined ) {
		where.push( 'e.type = @type' );
		params.type = filter.type;
	}
	if ( filter.status !== undefined ) {
		where.push( 'd.status = @status' );
		params.status = filter.status;
	}
	const clause = where.length > 0 ? `WHERE ${ where.join( ' AND ' ) }` : '';
	const from = 'FROM deliveries d JOIN events e ON e.id = d.event_id';
	return {
		params,
		// Joined only to filter on the type: a large queue's count otherwise looks up every delivery's event.
		count: `SELECT COUNT(*) AS n ${ filter.type === undefined ? 'FROM deliveries d' : from } ${ clause }`,
		page: `SELECT ${ DELIVERY_COLUMNS } ${ from } ${ clause } ORDER BY d.id DESC LIMIT @limit OFFSET @offset`,
	};
}

function toDelivery( row: DeliveryRow ): Delivery {
	return {
		id: row.id,
		eventId: row.event_id,
		eventType: row.event_type,
		endpointId: row.endpoint_id,
		status: row.status,
		attemptCount: row.attempt_count,
		nextAttemptAt: row.next_attempt_at,
		lastStatusCode: row.last_status_code,
		lastError: row.last_error,
		resentOnRecoveryAt: row.resent_on_recovery_at,
		createdAt: row.created_at,
		updatedAt: row.updated_at,
	};
}

function toAttempt( row: AttemptRow ): Attempt {
	return {
		attemptNumber: row.attempt_number,
		startedAt: row.started_at,
		durationMs: row.duration_ms,
		statusCode: row.status_code,
		errorCode: row.error_code,
		responseExcerpt: row.response_excerpt,
		nextAttemptAt: row.next_attempt_at,
		trigger: row.trigger,
	};
}

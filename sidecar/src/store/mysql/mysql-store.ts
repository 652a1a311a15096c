import mysql, { type Pool, type PoolConnection, type ResultSetHeader, type RowDataPacket } from 'mysql2/promise';
import type {
	DeliveredEventType,
	EventType,
	AttemptTrigger,
	DeliveryStatus,
	DisabledBy,
	EndpointStatus,
} from '../../contracts/constants';
import { summariseHealth, type EndpointHealth } from '../../model/health';
import { emptyHealthResult, roundHealth, runHealthAsync } from '../../model/round-health';
import {
	type Attempt,
	type ClaimedDelivery,
	type Completion,
	type Delivery,
	type DeliveryFilter,
} from '../../model/deliveries';
import {
	newEndpointId,
	type EnableResult,
	type Endpoint,
	type EndpointPatch,
	type NewEndpoint,
} from '../../model/endpoints';
import type { QueueSnapshot } from '../../metrics/registry';
import type { Notice } from '../../model/notices';
import {
	eventPayload,
	NOT_A_TEST_EVENT_SQL,
	receives,
	type InsertResult,
	type NewEvent,
	type StoredEvent,
} from '../../model/events';
import type { Lease, QueueStore, RoundInput, RoundResult } from '../queue-store';
import { ENDPOINT_BACKLOG_INLINE_ROWS } from '../endpoint-backlog';
import { cancelPendingOf, deleteDeliveriesOf, MysqlEndpointBacklog } from './mysql-endpoint-backlog';
import { MysqlFailureStreaks } from './mysql-failure-streaks';
import { MysqlInboundStore } from './mysql-inbound';
import { MYSQL_MIGRATIONS } from './mysql-migrations';
import { MysqlNoticeQueue } from './mysql-notices';
import { MysqlPayloadRetention } from './mysql-payload-retention';
import { MysqlPrivacyQueue } from './mysql-privacy';
import { readQueueByEndpoint } from './mysql-queue-metrics';
import { MysqlReplayQueue } from './mysql-replay';
import {
	engineOf,
	SERVER_STATEMENT_LIMIT_MS,
	STATEMENT_DEADLINE_MS,
	statementLimitSql,
	withDeadlines,
} from './mysql-deadline';
import { claimDueOn, completeAll } from './mysql-claims';
import { inTransaction } from './mysql-transaction';

/** Names of the database locks (GET_LOCK) the instances share; prefixed with the database name. */
const MIGRATION_LOCK = 'migrate';
const MIGRATION_LOCK_WAIT_SECONDS = 120;
/** ER_DUP_FIELDNAME, ER_DUP_KEYNAME: a migration cut short after this statement, run again. */
const ALREADY_APPLIED = new Set( [ 1060, 1061 ] );

type Row = RowDataPacket & Record< string, unknown >;

/** The statuses retention deletes (a pending or in-flight delivery is never pruned). */
const FINISHED_STATUSES = [ 'succeeded', 'failed', 'cancelled' ] as const;

export interface MysqlStoreOptions {
	url: string;
	/** Connections per instance; the dispatcher holds one per claim or completion, briefly. */
	connectionLimit?: number;
}

/**
 * The shared store on MySQL 8.0+ / MariaDB 10.6+ (mysql2 pool). Every instance reads and
 * writes the same rows; the database's own locks coordinate them: GET_LOCK for migrations
 * and maintenance, SELECT … FOR UPDATE SKIP LOCKED for claims, and a lease (claimed_by,
 * claimed_until) on each claimed delivery so that another instance takes it over when its
 * claimer dies. Sessions run at READ COMMITTED: a plain read sees what other instances
 * have committed, which the ordering check relies on.
 */
export class MysqlStore implements QueueStore {
	readonly kind = 'mysql';
	readonly inbound: MysqlInboundStore;
	readonly replays: MysqlReplayQueue;
	readonly privacy: MysqlPrivacyQueue;
	private readonly lockPrefix: string;

	/** Every statement but the migrations' has a deadline (mysql-deadline.ts). */
	private readonly pool: Pool;

	private constructor(
		private readonly rawPool: Pool,
		database: string,
		private readonly engine: 'mariadb' | 'mysql'
	) {
		this.pool = withDeadlines( rawPool );
		this.lockPrefix = `service_integration_sidecar:${ database }:`;
		this.inbound = new MysqlInboundStore( this.pool );
		this.replays = new MysqlReplayQueue( this.pool, this.lockPrefix );
		this.privacy = new MysqlPrivacyQueue( this.pool );
	}

	/** Connects and migrates (once across instances starting together: a GET_LOCK around it). */
	static async open( options: MysqlStoreOptions ): Promise< MysqlStore > {
		const url = new URL( options.url );
		const database = decodeURIComponent( url.pathname.slice( 1 ) );
		const pool = mysql.createPool( {
			host: url.hostname,
			port: url.port === '' ? 3306 : Number( url.port ),
			user: decodeURIComponent( url.username ),
			password: decodeURIComponent( url.password ),
			database,
			connectionLimit: options.connectionLimit ?? 10,
			// Fail fast when the server is away: requests answer 503 rather than hang.
			connectTimeout: STATEMENT_DEADLINE_MS,
			enableKeepAlive: true,
			charset: 'utf8mb4',
		} );
		let engine: 'mariadb' | 'mysql' | undefined;
		pool.on( 'connection', ( connection ) => {
			// The callback API of the underlying connection: the pool hands it out only after these are queued.
			const queue = ( connection as unknown as { query: ( sql: string ) => void } ).query.bind( connection );
			queue( 'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED' );
			if ( engine ) {
				queue( statementLimitSql( engine, SERVER_STATEMENT_LIMIT_MS ) );
			}
		} );
		try {
			// Which session variable limits a statement: asked on a first connection, which is then
			// closed (it was opened before the answer, without the limit).
			const first = await pool.getConnection();
			const [ version ] = await first.query< Row[] >( 'SELECT VERSION() AS v' );
			first.destroy();
			engine = engineOf( String( version[ 0 ]?.v ?? '' ) );
		} catch ( error ) {
			await pool.end();
			throw error;
		}
		const store = new MysqlStore( pool, database, engine );
		try {
			await store.migrate();
		} catch ( error ) {
			await pool.end();
			throw error;
		}
		return store;
	}

	/**
	 * Versioned migrations under a database lock: the first instance applies them, the others
	 * wait for the lock and then find the schema current. A schema newer than this code is refused.
	 */
	async migrate(): Promise< number > {
		const connection = await this.rawPool.getConnection();
		let limitLifted = false;
		try {
			// An ALTER TABLE on a large table takes longer than a statement may: no limit on this
			// connection, which is closed afterwards rather than handed out again without it.
			await connection.query( statementLimitSql( this.engine, 0 ) );
			limitLifted = true;
			const [ locked ] = await connection.query< Row[] >( 'SELECT GET_LOCK(?, ?) AS ok', [
				this.lockPrefix + MIGRATION_LOCK,
				MIGRATION_LOCK_WAIT_SECONDS,
			] );
			if ( locked[ 0 ]?.ok !== 1 ) {
				throw new Error(
					`could not take the migration lock within ${ MIGRATION_LOCK_WAIT_SECONDS } s (another instance is migrating)`
				);
			}
			try {
				await connection.query(
					'CREATE TABLE IF NOT EXISTS sidecar_schema (version INT NOT NULL) ENGINE=InnoDB'
				);
				const [ rows ] = await connection.query< Row[] >( 'SELECT version FROM sidecar_schema' );
				let current = rows.length === 0 ? 0 : Number( rows[ 0 ]?.version );
				if ( rows.length === 0 ) {
					await connection.query( 'INSERT INTO sidecar_schema (version) VALUES (0)' );
				}
				if ( current > MYSQL_MIGRATIONS.length ) {
					throw new Error(
						`The database schema is version ${ current }, newer than this sidecar knows (${ MYSQL_MIGRATIONS.length }); upgrade the sidecar.`
					);
				}
				for ( ; current < MYSQL_MIGRATIONS.length; current++ ) {
					for ( const statement of MYSQL_MIGRATIONS[ current ] as readonly string[] ) {
						await connection.query( statement ).catch( ( error: { errno?: number } ) => {
							if ( ! ALREADY_APPLIED.has( error.errno ?? 0 ) ) {
								throw error;
							}
						} );
					}
					await connection.query( 'UPDATE sidecar_schema SET version = ?', [ current + 1 ] );
				}
				return current;
			} finally {
				await connection.query( 'SELECT RELEASE_LOCK(?)', [ this.lockPrefix + MIGRATION_LOCK ] );
			}
		} finally {
			if ( limitLifted ) {
				connection.destroy();
			} else {
				connection.release();
			}
		}
	}

	/**
	 * Stores the batch in a fixed number of statements: the ids already stored are read, the
	 * others inserted in one multi-row INSERT IGNORE, their deliveries in another. Another
	 * instance handed some of the same events over between the read and the insert if the insert
	 * skipped any: then the transaction is run again from the start as a deadlock's victim is
	 * (mysql-transaction.ts), and the read finds them stored.
	 */
	async insertBatch( events: NewEvent[], now: number, firstAttemptAt: number ): Promise< InsertResult > {
		return inTransaction( this.pool, async ( connection ) => {
			const [ endpointRows ] = await connection.query< Row[] >(
				`SELECT id, event_types FROM endpoints WHERE status = 'active' ORDER BY id`
			);
			const endpoints = endpointRows.map( ( row ) => ( {
				id: String( row.id ),
				types: new Set( JSON.parse( String( row.event_types ) ) as string[] ),
			} ) );
			const result: InsertResult = { accepted: [], duplicates: [], endpointIds: [] };
			if ( events.length === 0 ) {
				return result;
			}
			const [ stored ] = await connection.query< Row[] >( 'SELECT id FROM events WHERE id IN (?)', [
				events.map( ( event ) => event.id ),
			] );
			const seen = new Set( stored.map( ( row ) => String( row.id ) ) );
			const fresh: NewEvent[] = [];
			for ( const event of events ) {
				if ( seen.has( event.id ) ) {
					result.duplicates.push( event.id );
					continue;
				}
				seen.add( event.id );
				fresh.push( event );
				result.accepted.push( event.id );
			}
			if ( fresh.length === 0 ) {
				return result;
			}
			// In batch order: the ids (seq, and the deliveries' below) follow arrival, which the ordering check relies on.
			const [ inserted ] = await connection.query< ResultSetHeader >(
				'INSERT IGNORE INTO events (id, type, timestamp, ordering_key, payload, received_at) VALUES ?',
				[
					fresh.map( ( event ) => [
						event.id,
						event.type,
						event.timestamp,
						event.orderingKey,
						eventPayload( event ),
						now,
					] ),
				]
			);
			if ( inserted.affectedRows !== fresh.length ) {
				throw Object.assign( new Error( 'another instance stored some of these events meanwhile' ), {
					code: 'ER_LOCK_DEADLOCK',
				} );
			}
			const touched = new Set< string >();
			const deliveries: unknown[][] = [];
			for ( const event of fresh ) {
				for ( const endpoint of endpoints ) {
					if ( receives( endpoint, event ) ) {
						deliveries.push( [
							event.id,
							endpoint.id,
							event.orderingKey,
							'pending',
							firstAttemptAt,
							now,
							now,
						] );
						touched.add( endpoint.id );
					}
				}
			}
			if ( deliveries.length > 0 ) {
				await connection.query(
					'INSERT INTO deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, created_at, updated_at) VALUES ?',
					[ deliveries ]
				);
			}
			result.endpointIds = [ ...touched ];
			return result;
		} );
	}

	async getEvent( id: string ): Promise< StoredEvent | undefined > {
		const [ rows ] = await this.pool.query< Row[] >( 'SELECT * FROM events WHERE id = ?', [ id ] );
		const row = rows[ 0 ];
		return row
			? {
					id: String( row.id ),
					type: row.type as DeliveredEventType,
					timestamp: String( row.timestamp ),
					orderingKey: ( row.ordering_key as string | null ) ?? null,
					payload: String( row.payload ),
					receivedAt: Number( row.received_at ),
					payloadClearedAt: nullableNumber( row.payload_cleared_at ),
					redactedAt: nullableNumber( row.redacted_at ),
				}
			: undefined;
	}

	async endpointHealth( endpointId: string, since: number, limit: number ): Promise< EndpointHealth > {
		const [ rows ] = await this.pool.query< Row[] >(
			'SELECT started_at, status_code, error_code, response_excerpt FROM attempts WHERE endpoint_id = ? AND started_at >= ? ORDER BY started_at DESC LIMIT ?',
			[ endpointId, since, limit ]
		);
		return summariseHealth(
			rows.map( ( row ) => ( {
				started_at: Number( row.started_at ),
				status_code: nullableNumber( row.status_code ),
				error_code: ( row.error_code as string | null ) ?? null,
				response_excerpt: ( row.response_excerpt as string | null ) ?? null,
			} ) )
		);
	}

	async deliveriesOfEvent( eventId: string ): Promise< ( Delivery & { attempts: Attempt[] } )[] > {
		const [ attemptRows ] = await this.pool.query< Row[] >(
			'SELECT a.* FROM attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id = ? ORDER BY a.delivery_id, a.attempt_number',
			[ eventId ]
		);
		const attempts = new Map< number, Attempt[] >();
		for ( const row of attemptRows ) {
			const id = Number( row.delivery_id );
			attempts.set( id, [
				...( attempts.get( id ) ?? [] ),
				{
					attemptNumber: Number( row.attempt_number ),
					startedAt: Number( row.started_at ),
					durationMs: Number( row.duration_ms ),
					statusCode: nullableNumber( row.status_code ),
					errorCode: ( row.error_code as string | null ) ?? null,
					responseExcerpt: ( row.response_excerpt as string | null ) ?? null,
					nextAttemptAt: nullableNumber( row.next_attempt_at ),
					trigger: row.trigger as AttemptTrigger,
				},
			] );
		}
		const [ rows ] = await this.pool.query< Row[] >(
			`SELECT d.*, e.type AS event_type FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.event_id = ? ORDER BY d.id`,
			[ eventId ]
		);
		return rows.map( ( row ) => ( { ...toDelivery( row ), attempts: attempts.get( Number( row.id ) ) ?? [] } ) );
	}

	async listEndpoints( now: number ): Promise< Endpoint[] > {
		const [ secrets ] = await this.pool.query< Row[] >(
			'SELECT * FROM endpoint_secrets WHERE expires_at IS NULL OR expires_at > ? ORDER BY created_at DESC, id DESC',
			[ now ]
		);
		const byEndpoint = new Map< string, Row[] >();
		for ( const secret of secrets ) {
			const id = String( secret.endpoint_id );
			byEndpoint.set( id, [ ...( byEndpoint.get( id ) ?? [] ), secret ] );
		}
		const [ rows ] = await this.pool.query< Row[] >(
			'SELECT * FROM endpoints WHERE deleted_at IS NULL ORDER BY created_at, id'
		);
		return rows.map( ( row ) => toEndpoint( row, byEndpoint.get( String( row.id ) ) ?? [] ) );
	}

	async getEndpoint( id: string, now: number ): Promise< Endpoint | undefined > {
		// A deleted endpoint (deleted_at set) is gone for every reader; only endpointBacklog sees it.
		const [ rows ] = await this.pool.query< Row[] >(
			'SELECT * FROM endpoints WHERE id = ? AND deleted_at IS NULL',
			[ id ]
		);
		const row = rows[ 0 ];
		if ( ! row ) {
			return undefined;
		}
		const [ secrets ] = await this.pool.query< Row[] >(
			'SELECT * FROM endpoint_secrets WHERE endpoint_id = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC, id DESC',
			[ id, now ]
		);
		return toEndpoint( row, secrets );
	}

	async createEndpoint( input: NewEndpoint, now: number ): Promise< Endpoint > {
		const id = newEndpointId();
		await inTransaction( this.pool, async ( connection ) => {
			await connection.query(
				`INSERT INTO endpoints (id, url, description, event_types, status, max_concurrency, wc_compat_signature,
				   resend_failed_on_recovery, created_at, updated_at)
				 VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)`,
				[
					id,
					input.url,
					input.description,
					JSON.stringify( input.eventTypes ),
					input.maxConcurrency,
					input.wcCompatSignature ? 1 : 0,
					input.resendFailedOnRecovery === false ? 0 : 1,
					now,
					now,
				]
			);
			await connection.query(
				'INSERT INTO endpoint_secrets (endpoint_id, secret, created_at, expires_at) VALUES (?, ?, ?, NULL)',
				[ id, input.secret, now ]
			);
		} );
		return ( await this.getEndpoint( id, now ) ) as Endpoint;
	}

	async updateEndpoint( id: string, patch: EndpointPatch, now: number ): Promise< Endpoint | undefined > {
		const found = await inTransaction( this.pool, async ( connection ) => {
			// Locked: two instances patching different fields at once both keep their change.
			const [ rows ] = await connection.query< Row[] >(
				'SELECT * FROM endpoints WHERE id = ? AND deleted_at IS NULL FOR UPDATE',
				[ id ]
			);
			const row = rows[ 0 ];
			if ( ! row ) {
				return false;
			}
			const current = toEndpoint( row, [] );
			await connection.query(
				`UPDATE endpoints SET url = ?, description = ?, event_types = ?, max_concurrency = ?, wc_compat_signature = ?,
				   resend_failed_on_recovery = ?, updated_at = ?
				 WHERE id = ?`,
				[
					patch.url ?? current.url,
					patch.description ?? current.description,
					JSON.stringify( patch.eventTypes ?? current.eventTypes ),
					patch.maxConcurrency ?? current.maxConcurrency,
					( patch.wcCompatSignature ?? current.wcCompatSignature ) ? 1 : 0,
					( patch.resendFailedOnRecovery ?? current.resendFailedOnRecovery ) ? 1 : 0,
					now,
					id,
				]
			);
			return true;
		} );
		return found ? this.getEndpoint( id, now ) : undefined;
	}

	async rotateEndpointSecret(
		id: string,
		secret: string,
		graceMs: number,
		now: number
	): Promise< Endpoint | undefined > {
		const found = await inTransaction( this.pool, async ( connection ) => {
			const [ rows ] = await connection.query< Row[] >(
				'SELECT id FROM endpoints WHERE id = ? AND deleted_at IS NULL FOR UPDATE',
				[ id ]
			);
			if ( rows.length === 0 ) {
				return false;
			}
			await connection.query(
				'DELETE FROM endpoint_secrets WHERE endpoint_id = ? AND expires_at IS NOT NULL AND expires_at <= ?',
				[ id, now ]
			);
			await connection.query(
				'UPDATE endpoint_secrets SET expires_at = ? WHERE endpoint_id = ? AND expires_at IS NULL',
				[ now + graceMs, id ]
			);
			await connection.query(
				'INSERT INTO endpoint_secrets (endpoint_id, secret, created_at, expires_at) VALUES (?, ?, ?, NULL)',
				[ id, secret, now ]
			);
			await connection.query( 'UPDATE endpoints SET updated_at = ? WHERE id = ?', [ now, id ] );
			return true;
		} );
		return found ? this.getEndpoint( id, now ) : undefined;
	}

	async disableEndpoint( id: string, reason: string, by: DisabledBy, now: number ): Promise< boolean > {
		return inTransaction( this.pool, async ( connection ) => {
			const [ disabled ] = await connection.query< ResultSetHeader >(
				`UPDATE endpoints SET status = 'disabled', disabled_reason = ?, disabled_by = ?, disabled_at = ?, updated_at = ?
				 WHERE id = ? AND status = 'active'`,
				[ reason, by, now, now, id ]
			);
			if ( disabled.affectedRows === 0 ) {
				return false;
			}
			// Queued work stops with the endpoint (enableEndpoint brings it back); past the bound,
			// the rest is cancelled in the background (endpointBacklog), and no instance claims it.
			await cancelPendingOf( connection, id, reason, now, ENDPOINT_BACKLOG_INLINE_ROWS );
			return true;
		} );
	}

	/** As EndpointsStore.enable, on the shared tables; the notice is queued in the same transaction. */
	async enableEndpoint( id: string, now: number, redeliver?: boolean ): Promise< EnableResult > {
		return inTransaction( this.pool, async ( connection ) => {
			const result = await this.enableIn( connection, id, now, redeliver );
			await this.replaceNotices( connection, id, { type: 'endpoint.enabled', endpoint_id: id }, now );
			return result;
		} );
	}

	private async enableIn(
		connection: PoolConnection,
		id: string,
		now: number,
		redeliver: boolean | undefined
	): Promise< EnableResult > {
		const [ rows ] = await connection.query< Row[] >(
			'SELECT * FROM endpoints WHERE id = ? AND deleted_at IS NULL FOR UPDATE',
			[ id ]
		);
		const row = rows[ 0 ];
		if ( ! row || row.status !== 'disabled' ) {
			return { enabled: false, redelivered: false, requeued: 0, missed: 0, skipped: 0 };
		}
		const endpoint = toEndpoint( row, [] );
		const disabledAt = endpoint.disabledAt ?? now;
		const since = Math.min( endpoint.failingSince ?? disabledAt, disabledAt );
		// The types it subscribes to now ([] = all).
		const typeFilter = endpoint.eventTypes.length === 0 ? '' : 'AND e.type IN (?)';
		const typeParams = endpoint.eventTypes.length === 0 ? [] : [ endpoint.eventTypes ];
		await connection.query(
			`UPDATE endpoints SET status = 'active', disabled_reason = NULL, disabled_at = NULL, disabled_by = NULL, failing_since = NULL,
			 updated_at = ? WHERE id = ?`,
			[ now, id ]
		);
		const failedSince = `FROM deliveries d JOIN events e ON e.id = d.event_id
			WHERE d.endpoint_id = ? AND d.status IN ('failed', 'cancelled') AND d.updated_at >= ? AND e.payload_cleared_at IS NULL`;
		const missedEvents = `FROM events e WHERE e.received_at >= ? AND e.payload_cleared_at IS NULL AND ${ NOT_A_TEST_EVENT_SQL } ${ typeFilter }`;
		if ( ! ( redeliver ?? endpoint.disabledBy !== 'owner' ) ) {
			const [ failed ] = await connection.query< Row[] >( `SELECT COUNT(*) AS n ${ failedSince }`, [
				id,
				since,
			] );
			const [ missed ] = await connection.query< Row[] >(
				`SELECT COUNT(*) AS n ${ missedEvents }
				 AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.endpoint_id = ?)`,
				[ disabledAt, ...typeParams, id ]
			);
			const skipped = Number( failed[ 0 ]?.n ?? 0 ) + Number( missed[ 0 ]?.n ?? 0 );
			return { enabled: true, redelivered: false, requeued: 0, missed: 0, skipped };
		}
		// What failed or was cancelled during the failing run and the disable (and still has its payload).
		const [ requeued ] = await connection.query< ResultSetHeader >(
			`UPDATE deliveries d JOIN events e ON e.id = d.event_id
			 SET d.status = 'pending', d.next_attempt_at = ?, d.cycle_attempts = 0, d.next_trigger = 'manual', d.updated_at = ?
			 WHERE d.endpoint_id = ? AND d.status IN ('failed', 'cancelled') AND d.updated_at >= ? AND e.payload_cleared_at IS NULL`,
			[ now, now, id, since ]
		);
		// Events that arrived while it was disabled got no delivery for it: created in order of arrival (seq).
		const [ missed ] = await connection.query< ResultSetHeader >(
			`INSERT IGNORE INTO deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, created_at, updated_at)
			 SELECT e.id, ?, e.ordering_key, 'pending', ?, ?, ? ${ missedEvents } ORDER BY e.seq`,
			[ id, now, now, now, disabledAt, ...typeParams ]
		);
		return {
			enabled: true,
			redelivered: true,
			requeued: requeued.affectedRows,
			missed: missed.affectedRows,
			skipped: 0,
		};
	}

	async deleteEndpoint( id: string, now: number ): Promise< { deleted: boolean; droppedNotices: number } > {
		return inTransaction( this.pool, async ( connection ) => {
			const [ rows ] = await connection.query< Row[] >(
				'SELECT id FROM endpoints WHERE id = ? AND deleted_at IS NULL FOR UPDATE',
				[ id ]
			);
			if ( rows.length === 0 ) {
				return { deleted: false, droppedNotices: 0 };
			}
			// At once when the queue is short; otherwise marked deleted (gone for every reader, and
			// disabled: nothing new is queued for it) and endpointBacklog removes the rest in batches.
			if (
				( await deleteDeliveriesOf( connection, id, ENDPOINT_BACKLOG_INLINE_ROWS ) ) <
				ENDPOINT_BACKLOG_INLINE_ROWS
			) {
				await connection.query( 'DELETE FROM endpoints WHERE id = ?', [ id ] );
			} else {
				await connection.query(
					`UPDATE endpoints SET status = 'disabled', deleted_at = ?, updated_at = ? WHERE id = ?`,
					[ now, now, id ]
				);
			}
			const droppedNotices = await this.replaceNotices(
				connection,
				id,
				{ type: 'endpoint.deleted', endpoint_id: id },
				now
			);
			return { deleted: true, droppedNotices };
		} );
	}

	/**
	 * Drops the notices not yet acknowledged about the endpoint and queues `notice` in their
	 * place, in the caller's transaction; returns how many were dropped.
	 */
	private async replaceNotices(
		connection: PoolConnection,
		endpointId: string,
		notice: Notice,
		now: number
	): Promise< number > {
		const [ dropped ] = await connection.query< ResultSetHeader >(
			`DELETE FROM notices WHERE acknowledged_at IS NULL AND JSON_UNQUOTE(JSON_EXTRACT(payload, '$.endpoint_id')) = ?`,
			[ endpointId ]
		);
		await connection.query( 'INSERT INTO notices (payload, created_at, next_attempt_at) VALUES (?, ?, ?)', [
			JSON.stringify( notice ),
			now,
			now,
		] );
		return dropped.affectedRows;
	}

	async listDeliveries( filter: DeliveryFilter ): Promise< { deliveries: Delivery[]; total: number } > {
		const where: string[] = [];
		const params: unknown[] = [];
		if ( filter.endpointId !== undefined ) {
			where.push( 'd.endpoint_id = ?' );
			params.push( filter.endpointId );
		}
		if ( filter.type !== undefined ) {
			where.push( 'e.type = ?' );
			params.push( filter.type );
		}
		if ( filter.status !== undefined ) {
			where.push( 'd.status = ?' );
			params.push( filter.status );
		}
		const clause = where.length > 0 ? `WHERE ${ where.join( ' AND ' ) }` : '';
		const from = `FROM deliveries d JOIN events e ON e.id = d.event_id ${ clause }`;
		// Counted from the deliveries' own indexes, joined only to filter on the type: InnoDB
		// counts by walking rows, and a primary-key lookup of the event for each of a large queue's
		// deliveries took longer than a statement may (the log answered 503 at 200,000).
		const [ counted ] = await this.pool.query< Row[] >(
			`SELECT COUNT(*) AS n ${ filter.type === undefined ? `FROM deliveries d ${ clause }` : from }`,
			params
		);
		const [ rows ] = await this.pool.query< Row[] >(
			`SELECT d.*, e.type AS event_type ${ from } ORDER BY d.id DESC LIMIT ? OFFSET ?`,
			[ ...params, filter.perPage, ( filter.page - 1 ) * filter.perPage ]
		);
		return { deliveries: rows.map( toDelivery ), total: Number( counted[ 0 ]?.n ?? 0 ) };
	}

	/** See claimDueOn (mysql-claims.ts): the round's claim, for one endpoint. */
	async claimDue( endpointId: string, now: number, limit: number, lease: Lease ): Promise< ClaimedDelivery[] > {
		return claimDueOn( this.pool, [ { endpointId, limit } ], now, lease );
	}

	/** See completeAll (mysql-claims.ts): the round's recording, for one attempt. */
	async complete( completion: Completion, lease: Lease ): Promise< boolean > {
		const [ recorded ] = await completeAll( this.pool, [ completion ], lease );
		return recorded === true;
	}

	/**
	 * The dispatcher's round on the shared store, in a few statements however many deliveries
	 * it carries: the hand-over in its own transaction, every finished attempt recorded in one
	 * (completeAll), each endpoint's health moved (model/round-health.ts through FailureStreaks,
	 * only when a streak starts or ends: a streak starts once across instances, a disabling
	 * re-reads it under the endpoint's row lock), then the claims of every endpoint at once (claimDueOn).
	 */
	async round( input: RoundInput ): Promise< RoundResult > {
		const { now, lease } = input;
		const result: RoundResult = { ...emptyHealthResult(), claimed: [] };
		const claimOn = [ ...input.claimOn ];
		if ( input.ingest ) {
			result.ingested = await this.insertBatch( input.ingest.events, now, input.ingest.firstAttemptAt );
			claimOn.push( ...result.ingested.endpointIds.filter( ( id ) => ! claimOn.includes( id ) ) );
		}
		result.recorded = await completeAll(
			this.pool,
			input.finished.map( ( { completion } ) => completion ),
			lease
		);
		try {
			await this.afterRecording( input, claimOn, result );
		} catch ( error ) {
			result.cutShort = error;
		}
		return result;
	}

	/** The round's health moves (model/round-health.ts) and claims, once its attempts are recorded. */
	private async afterRecording( input: RoundInput, claimOn: string[], result: RoundResult ): Promise< void > {
		const { now, lease } = input;
		const streaks = this.failureStreaks;
		const disabled = await runHealthAsync( roundHealth( input, result ), async ( request ) => {
			switch ( request.write ) {
				case 'clear':
					return streaks.clearFailing( request.endpointId, now );
				case 'mark':
					return streaks.markFailing( request.endpointId, now );
				case 'disable':
					return streaks.disableWithNotice(
						request.endpointId,
						now,
						( failingSince ) => request.disableFor( failingSince )?.reason ?? null
					);
			}
		} );
		result.claimed = await claimDueOn(
			this.pool,
			claimOn
				.filter( ( id ) => ! disabled.has( id ) )
				.map( ( id ) => ( { endpointId: id, limit: input.limit( id ) } ) ),
			now,
			lease
		);
	}

	/**
	 * This instance's own claims from before a restart: its attempts were cut short, so they go
	 * out again now, first: each keeps the due time it was claimed at, ahead of everything that
	 * came due after it.
	 */
	async recoverInFlight( lease: Lease, now: number ): Promise< number > {
		const [ result ] = await this.pool.query< ResultSetHeader >(
			`UPDATE deliveries SET status = 'pending', claimed_by = NULL, claimed_until = NULL, updated_at = ?
			 WHERE status = 'in_flight' AND claimed_by = ?`,
			[ now, lease.instanceId ]
		);
		return result.affectedRows;
	}

	async nextDueAfter( now: number ): Promise< number | undefined > {
		const [ rows ] = await this.pool.query< Row[] >(
			`SELECT MIN(next_attempt_at) AS at FROM deliveries WHERE status = 'pending' AND next_attempt_at > ?`,
			[ now ]
		);
		return nullableNumber( rows[ 0 ]?.at ) ?? undefined;
	}

	async countByStatus() {
		const [ rows ] = await this.pool.query< Row[] >(
			`SELECT status, COUNT(*) AS n FROM deliveries WHERE status IN ('pending', 'in_flight', 'failed', 'cancelled') GROUP BY status`
		);
		const counts = { pending: 0, in_flight: 0, failed: 0, cancelled: 0 };
		for ( const row of rows ) {
			counts[ row.status as keyof typeof counts ] = Number( row.n );
		}
		return counts;
	}

	async queueByEndpoint(): Promise< QueueSnapshot[] > {
		return readQueueByEndpoint( this.pool );
	}

	/**
	 * Retention in bounded statements, each its own short transaction. The finished deliveries'
	 * ids are read first, one index range per status (deliveries_by_status_updated), and deleted
	 * by id: a DELETE … ORDER BY id LIMIT walked the primary key through every pending delivery
	 * of a large queue (seconds, with its locks held); their attempts go by the cascade. Then up
	 * to `limit` events received before `before` that no delivery refers to, oldest first.
	 */
	async prune( before: number, limit: number ): Promise< { deliveries: number; events: number } > {
		const [ finished ] = await this.pool.query< Row[] >(
			FINISHED_STATUSES.map(
				() => '(SELECT id FROM deliveries WHERE status = ? AND updated_at < ? ORDER BY updated_at LIMIT ?)'
			).join( ' UNION ALL ' ),
			FINISHED_STATUSES.flatMap( ( status ) => [ status, before, limit ] )
		);
		const ids = finished.slice( 0, limit ).map( ( row ) => Number( row.id ) );
		let deliveries = 0;
		if ( ids.length > 0 ) {
			// Checked again: one may have been replayed (pending again) since it was read.
			const [ deleted ] = await this.pool.query< ResultSetHeader >(
				`DELETE FROM deliveries WHERE id IN (?) AND status IN (?) AND updated_at < ?`,
				[ ids, FINISHED_STATUSES, before ]
			);
			deliveries = deleted.affectedRows;
		}
		const [ events ] = await this.pool.query< ResultSetHeader >(
			`DELETE FROM events WHERE received_at < ? AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = events.id) ORDER BY received_at LIMIT ?`,
			[ before, limit ]
		);
		return { deliveries, events: events.affectedRows };
	}

	/** GET_LOCK with no wait: the lock lives on the connection, held for fn's whole run. */
	async exclusively( name: string, fn: () => Promise< void > ): Promise< boolean > {
		const connection = await this.pool.getConnection();
		try {
			const [ locked ] = await connection.query< Row[] >( 'SELECT GET_LOCK(?, 0) AS ok', [
				this.lockPrefix + name,
			] );
			if ( locked[ 0 ]?.ok !== 1 ) {
				return false;
			}
			try {
				await fn();
				return true;
			} finally {
				await connection.query( 'SELECT RELEASE_LOCK(?)', [ this.lockPrefix + name ] );
			}
		} finally {
			connection.release();
		}
	}

	async ping(): Promise< void > {
		await this.pool.query( 'SELECT 1' );
	}

	async schemaVersion(): Promise< { current: number; latest: number } > {
		const [ rows ] = await this.pool.query< Row[] >( 'SELECT version FROM sidecar_schema' );
		return { current: Number( rows[ 0 ]?.version ?? 0 ), latest: MYSQL_MIGRATIONS.length };
	}

	async close(): Promise< void > {
		await this.rawPool.end();
	}

	get notices(): MysqlNoticeQueue {
		return new MysqlNoticeQueue( this.pool );
	}
	get failureStreaks(): MysqlFailureStreaks {
		return new MysqlFailureStreaks( this.pool );
	}
	get payloadRetention(): MysqlPayloadRetention {
		return new MysqlPayloadRetention( this.pool );
	}
	get endpointBacklog(): MysqlEndpointBacklog {
		return new MysqlEndpointBacklog( this.pool );
	}
}

function nullableNumber( value: unknown ): number | null {
	return value === null || value === undefined ? null : Number( value );
}

/** A deliveries row joined with its event's type (event_type). */
function toDelivery( row: Row ): Delivery {
	return {
		id: Number( row.id ),
		eventId: String( row.event_id ),
		eventType: row.event_type as DeliveredEventType,
		endpointId: String( row.endpoint_id ),
		status: row.status as DeliveryStatus,
		attemptCount: Number( row.attempt_count ),
		nextAttemptAt: nullableNumber( row.next_attempt_at ),
		lastStatusCode: nullableNumber( row.last_status_code ),
		lastError: ( row.last_error as string | null ) ?? null,
		resentOnRecoveryAt: nullableNumber( row.resent_on_recovery_at ),
		createdAt: Number( row.created_at ),
		updatedAt: Number( row.updated_at ),
	};
}

function toEndpoint( row: Row, secrets: Row[] ): Endpoint {
	return {
		id: String( row.id ),
		url: String( row.url ),
		description: String( row.description ),
		eventTypes: JSON.parse( String( row.event_types ) ) as EventType[],
		status: row.status as EndpointStatus,
		disabledReason: ( row.disabled_reason as string | null ) ?? null,
		disabledAt: nullableNumber( row.disabled_at ),
		disabledBy: ( row.disabled_by as DisabledBy | null ) ?? null,
		failingSince: nullableNumber( row.failing_since ),
		maxConcurrency: Number( row.max_concurrency ),
		wcCompatSignature: Number( row.wc_compat_signature ) === 1,
		resendFailedOnRecovery: Number( row.resend_failed_on_recovery ) === 1,
		createdAt: Number( row.created_at ),
		updatedAt: Number( row.updated_at ),
		secrets: secrets.map( ( secret ) => ( {
			secret: String( secret.secret ),
			createdAt: Number( secret.created_at ),
			expiresAt: nullableNumber( secret.expires_at ),
		} ) ),
	};
}

import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { endpointDisabledNotice, summariseHealth } from '../../model/health';
import { GUARD_REFUSAL_CODE, type StreakEndCounts } from '../../model/recovery';
import type { FailureStreaks } from '../failure-streaks';
import { ENDPOINT_BACKLOG_INLINE_ROWS } from '../endpoint-backlog';
import { cancelPendingOf } from './mysql-endpoint-backlog';
import { inTransaction } from './mysql-transaction';

type Row = RowDataPacket & Record< string, unknown >;

/**
 * Deliveries changed per statement on a recovery: each statement stays far below the
 * statement deadline (mysql-deadline.ts) however many ran out of attempts, and all of them
 * commit together, so no instance sees half of them queued (a newer delivery of a key would
 * otherwise go out before an older one still waiting for its batch).
 */
const RECOVERY_BATCH = 2000;

// The re-send on recovery (model/recovery.ts): what ran out of attempts during the streak.
const RESEND_SQL = `UPDATE deliveries SET status = 'pending', next_attempt_at = ?, cycle_attempts = 0, next_trigger = 'scheduled',
	   resent_on_recovery_at = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ?
	 WHERE endpoint_id = ? AND status = 'failed' AND updated_at >= ?
	   AND event_id IN (SELECT id FROM events WHERE payload_cleared_at IS NULL)
	   AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a.delivery_id = deliveries.id
	     AND a.attempt_number = deliveries.attempt_count AND a.error_code = ?)
	 ORDER BY id LIMIT ?`;

// Also on recovery: the retries waiting for later are due now.
const RETRIES_DUE_SQL = `UPDATE deliveries SET next_attempt_at = ?
	 WHERE endpoint_id = ? AND status = 'pending' AND next_attempt_at > ?
	 ORDER BY id LIMIT ?`;

/** Runs an UPDATE … LIMIT (its last parameter) until it changes fewer rows than that; the rows it changed. */
async function inBatches( connection: PoolConnection, sql: string, params: unknown[] ): Promise< number > {
	let changed = 0;
	for (;;) {
		const [ result ] = await connection.query< ResultSetHeader >( sql, [ ...params, RECOVERY_BATCH ] );
		changed += result.affectedRows;
		if ( result.affectedRows < RECOVERY_BATCH ) {
			return changed;
		}
	}
}

/**
 * FailureStreaks on the shared tables. Several instances record outcomes of the same endpoint
 * at once: a streak starts once (UPDATE … WHERE failing_since IS NULL), and the endpoint's row
 * is locked while it is disabled, so one instance disables it and one notice is queued.
 */
export class MysqlFailureStreaks implements FailureStreaks {
	constructor( private readonly pool: Pool ) {}

	async markFailing( endpointId: string, now: number ): Promise< number | null > {
		await this.pool.query( 'UPDATE endpoints SET failing_since = ? WHERE id = ? AND failing_since IS NULL', [
			now,
			endpointId,
		] );
		const [ rows ] = await this.pool.query< Row[] >( 'SELECT failing_since FROM endpoints WHERE id = ?', [
			endpointId,
		] );
		const since = rows[ 0 ]?.failing_since;
		return since === null || since === undefined ? null : Number( since );
	}

	/** The endpoint's row lock is the claim: the instance that finds the streak still running ends it and re-sends. */
	async clearFailing( endpointId: string, now: number ): Promise< StreakEndCounts | null > {
		return inTransaction( this.pool, async ( connection ) => {
			const [ rows ] = await connection.query< Row[] >(
				'SELECT failing_since, resend_failed_on_recovery FROM endpoints WHERE id = ? FOR UPDATE',
				[ endpointId ]
			);
			const since = rows[ 0 ]?.failing_since;
			if ( since === null || since === undefined ) {
				return null;
			}
			await connection.query( 'UPDATE endpoints SET failing_since = NULL WHERE id = ?', [ endpointId ] );
			const resent =
				Number( rows[ 0 ]?.resend_failed_on_recovery ) === 1
					? await inBatches( connection, RESEND_SQL, [
							now,
							now,
							now,
							endpointId,
							Number( since ),
							GUARD_REFUSAL_CODE,
						] )
					: 0;
			return { resent, retriesDueNow: await inBatches( connection, RETRIES_DUE_SQL, [ now, endpointId, now ] ) };
		} );
	}

	async failingSince( before: number ): Promise< string[] > {
		const [ rows ] = await this.pool.query< Row[] >(
			`SELECT id FROM endpoints WHERE status = 'active' AND failing_since IS NOT NULL AND failing_since <= ? ORDER BY failing_since`,
			[ before ]
		);
		return rows.map( ( row ) => String( row.id ) );
	}

	async disableWithNotice(
		endpointId: string,
		now: number,
		reasonFor: ( failingSince: number | null ) => string | null
	): Promise< boolean > {
		return inTransaction( this.pool, async ( connection ) => {
			const [ rows ] = await connection.query< Row[] >(
				'SELECT id, url, status, failing_since FROM endpoints WHERE id = ? FOR UPDATE',
				[ endpointId ]
			);
			const row = rows[ 0 ];
			if ( ! row || row.status !== 'active' ) {
				return false;
			}
			const failingSince =
				row.failing_since === null || row.failing_since === undefined ? null : Number( row.failing_since );
			const reason = reasonFor( failingSince );
			if ( reason === null ) {
				return false;
			}
			// As MysqlStore.disableEndpoint, by 'auto'; its queued work stops with it.
			await connection.query< ResultSetHeader >(
				`UPDATE endpoints SET status = 'disabled', disabled_reason = ?, disabled_by = 'auto', disabled_at = ?, updated_at = ?
				 WHERE id = ?`,
				[ reason, now, now, endpointId ]
			);
			// Up to a bound: a long queue made this one statement of seconds that held the endpoint's
			// row locked, and the next sweep's SELECT … FOR UPDATE waited behind it (endpointBacklog
			// cancels the rest in batches).
			await cancelPendingOf( connection, endpointId, reason, now, ENDPOINT_BACKLOG_INLINE_ROWS );
			const [ attempts ] = await connection.query< Row[] >(
				'SELECT started_at, status_code, error_code, response_excerpt FROM attempts WHERE endpoint_id = ? ORDER BY started_at DESC LIMIT 1',
				[ endpointId ]
			);
			const { lastError } = summariseHealth(
				attempts.map( ( attempt ) => ( {
					started_at: Number( attempt.started_at ),
					status_code: attempt.status_code === null ? null : Number( attempt.status_code ),
					error_code: ( attempt.error_code as string | null ) ?? null,
					response_excerpt: ( attempt.response_excerpt as string | null ) ?? null,
				} ) )
			);
			const notice = endpointDisabledNotice(
				{ id: endpointId, url: String( row.url ), failingSince },
				reason,
				lastError
			);
			await connection.query( 'INSERT INTO notices (payload, created_at, next_attempt_at) VALUES (?, ?, ?)', [
				JSON.stringify( notice ),
				now,
				now,
			] );
			return true;
		} );
	}
}

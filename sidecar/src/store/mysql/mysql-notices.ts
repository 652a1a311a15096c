import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { NoticeQueue } from '../notice-queue';
import type { Notice, QueuedNotice } from '../../model/notices';

type Row = RowDataPacket & Record< string, unknown >;

/**
 * The shared `notices` table as the notice sender reads it: the same statements as the
 * embedded NoticesStore. Notices are queued by MysqlStore in the transactions that change an
 * endpoint, and by the automatic disabling (MysqlFailureStreaks). Which instance sends them is
 * not decided here: the sender runs under a database lock (NoticeSender's `exclusively`).
 */
export class MysqlNoticeQueue implements NoticeQueue {
	constructor( private readonly pool: Pool ) {}

	async due( now: number, limit: number ): Promise< QueuedNotice[] > {
		const [ rows ] = await this.pool.query< Row[] >(
			'SELECT id, payload, attempts FROM notices WHERE acknowledged_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?',
			[ now, limit ]
		);
		return rows.map( ( row ) => ( {
			id: Number( row.id ),
			notice: JSON.parse( String( row.payload ) ) as Notice,
			attempts: Number( row.attempts ),
		} ) );
	}

	async isPending( id: number ): Promise< boolean > {
		const [ rows ] = await this.pool.query< Row[] >(
			'SELECT 1 AS yes FROM notices WHERE id = ? AND acknowledged_at IS NULL',
			[ id ]
		);
		return rows.length > 0;
	}

	async acknowledge( id: number, now: number ): Promise< void > {
		await this.pool.query(
			'UPDATE notices SET acknowledged_at = ?, next_attempt_at = NULL, attempts = attempts + 1, last_error = NULL WHERE id = ?',
			[ now, id ]
		);
	}

	async failed( id: number, error: string, nextAttemptAt: number ): Promise< void > {
		await this.pool.query(
			'UPDATE notices SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?',
			[ error.slice( 0, 500 ), nextAttemptAt, id ]
		);
	}

	async nextDue(): Promise< number | undefined > {
		const [ rows ] = await this.pool.query< Row[] >(
			'SELECT MIN(next_attempt_at) AS at FROM notices WHERE acknowledged_at IS NULL'
		);
		const at = rows[ 0 ]?.at;
		return at === null || at === undefined ? undefined : Number( at );
	}

	async pendingCount(): Promise< number > {
		const [ rows ] = await this.pool.query< Row[] >(
			'SELECT COUNT(*) AS n FROM notices WHERE acknowledged_at IS NULL'
		);
		return Number( rows[ 0 ]?.n ?? 0 );
	}

	async prune( before: number, limit: number ): Promise< number > {
		const [ result ] = await this.pool.query< ResultSetHeader >(
			'DELETE FROM notices WHERE acknowledged_at IS NOT NULL AND acknowledged_at < ? ORDER BY id LIMIT ?',
			[ before, limit ]
		);
		return result.affectedRows;
	}
}

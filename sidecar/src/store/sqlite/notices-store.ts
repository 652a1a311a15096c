import { QueuedNotice, Notice } from '../../model/notices';
import type { Db } from './database';

interface NoticeRow {
	id: number;
	payload: string;
	attempts: number;
}

/**
 * Notices for WordPress, kept until WordPress acknowledges them. enqueue() runs in the
 * caller's transaction, so a notice exists exactly when the state change it reports
 * was committed, and survives a crash before it is sent.
 */
export class NoticesStore {
	private readonly statements;

	constructor( db: Db ) {
		this.statements = {
			insert: db.prepare( 'INSERT INTO notices (payload, created_at, next_attempt_at) VALUES (?, ?, ?)' ),
			due: db.prepare(
				'SELECT id, payload, attempts FROM notices WHERE acknowledged_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?'
			),
			acknowledge: db.prepare(
				'UPDATE notices SET acknowledged_at = ?, next_attempt_at = NULL, attempts = attempts + 1, last_error = NULL WHERE id = ?'
			),
			failed: db.prepare(
				'UPDATE notices SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?'
			),
			nextDue: db.prepare( 'SELECT MIN(next_attempt_at) AS at FROM notices WHERE acknowledged_at IS NULL' ),
			pending: db.prepare( 'SELECT COUNT(*) AS n FROM notices WHERE acknowledged_at IS NULL' ),
			isPending: db.prepare( 'SELECT 1 AS yes FROM notices WHERE id = ? AND acknowledged_at IS NULL' ),
			// The endpoint id lives in the payload (the JSON sent to WordPress); notices are few.
			dropForEndpoint: db.prepare(
				"DELETE FROM notices WHERE acknowledged_at IS NULL AND json_extract(payload, '$.endpoint_id') = ?"
			),
			prune: db.prepare(
				'DELETE FROM notices WHERE id IN (SELECT id FROM notices WHERE acknowledged_at IS NOT NULL AND acknowledged_at < ? LIMIT ?)'
			),
		};
	}

	enqueue( notice: Notice, now: number ): void {
		this.statements.insert.run( JSON.stringify( notice ), now, now );
	}

	due( now: number, limit: number ): QueuedNotice[] {
		return ( this.statements.due.all( now, limit ) as NoticeRow[] ).map( ( row ) => ( {
			id: row.id,
			notice: JSON.parse( row.payload ) as Notice,
			attempts: row.attempts,
		} ) );
	}

	acknowledge( id: number, now: number ): void {
		this.statements.acknowledge.run( now, id );
	}

	failed( id: number, error: string, nextAttemptAt: number ): void {
		this.statements.failed.run( error.slice( 0, 500 ), nextAttemptAt, id );
	}

	/** The earliest unacknowledged notice's next attempt, if any. */
	nextDue(): number | undefined {
		return ( this.statements.nextDue.get() as { at: number | null } ).at ?? undefined;
	}

	/** Whether the notice still waits for WordPress (it may have been dropped since it was read). */
	isPending( id: number ): boolean {
		return this.statements.isPending.get( id ) !== undefined;
	}

	/**
	 * Drops the notices not yet acknowledged about an endpoint that no longer exists (run in
	 * the transaction that deletes it): WordPress must not be told, late, that a deleted
	 * endpoint was disabled. Returns how many were dropped.
	 */
	dropForEndpoint( endpointId: string ): number {
		return this.statements.dropForEndpoint.run( endpointId ).changes;
	}

	pendingCount(): number {
		return ( this.statements.pending.get() as { n: number } ).n;
	}

	/** Deletes up to `limit` acknowledged notices older than `before`; returns how many. */
	prune( before: number, limit: number ): number {
		return this.statements.prune.run( before, limit ).changes;
	}
}

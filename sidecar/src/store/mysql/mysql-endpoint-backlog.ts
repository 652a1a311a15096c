import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { EndpointBacklog } from '../endpoint-backlog';
import { inTransaction } from './mysql-transaction';

type Row = RowDataPacket & Record< string, unknown >;

/**
 * Cancels up to `limit` pending deliveries of a disabled endpoint, in the caller's transaction:
 * one index range (deliveries_due) and a LIMIT, so the statement and its row locks stay short
 * however long the queue. The one statement of the disable, the health sweep and the backlog.
 */
export async function cancelPendingOf(
	connection: PoolConnection,
	endpointId: string,
	reason: string,
	now: number,
	limit: number
): Promise< number > {
	const [ cancelled ] = await connection.query< ResultSetHeader >(
		`UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, last_error = ?, updated_at = ?
		 WHERE endpoint_id = ? AND status = 'pending' LIMIT ?`,
		[ `endpoint disabled: ${ reason }`, now, endpointId, limit ]
	);
	return cancelled.affectedRows;
}

/**
 * Deletes up to `limit` deliveries of an endpoint (their attempts go by the foreign key's
 * cascade), in the caller's transaction.
 */
export async function deleteDeliveriesOf( connection: PoolConnection, endpointId: string, limit: number ) {
	const [ deleted ] = await connection.query< ResultSetHeader >(
		'DELETE FROM deliveries WHERE endpoint_id = ? LIMIT ?',
		[ endpointId, limit ]
	);
	return deleted.affectedRows;
}

/**
 * EndpointBacklog on the shared tables: one short transaction per endpoint and batch. The
 * endpoint's row is read under a shared lock first, so a concurrent enable (which locks it
 * for update) either comes before, and the endpoint is skipped, or waits for the batch.
 */
export class MysqlEndpointBacklog implements EndpointBacklog {
	constructor( private readonly pool: Pool ) {}

	async cancelDisabled( limit: number, now: number ): Promise< number > {
		const [ endpoints ] = await this.pool.query< Row[] >(
			`SELECT id FROM endpoints WHERE status = 'disabled' AND deleted_at IS NULL ORDER BY id`
		);
		let cancelled = 0;
		for ( const { id } of endpoints ) {
			if ( cancelled >= limit ) {
				break;
			}
			cancelled += await inTransaction( this.pool, async ( connection ) => {
				const [ rows ] = await connection.query< Row[] >(
					`SELECT disabled_reason FROM endpoints WHERE id = ? AND status = 'disabled' AND deleted_at IS NULL LOCK IN SHARE MODE`,
					[ id ]
				);
				const row = rows[ 0 ];
				return row
					? cancelPendingOf( connection, String( id ), String( row.disabled_reason ), now, limit - cancelled )
					: 0;
			} );
		}
		return cancelled;
	}

	async purgeDeleted( limit: number ): Promise< { deliveries: number; endpoints: number } > {
		const [ endpoints ] = await this.pool.query< Row[] >(
			'SELECT id FROM endpoints WHERE deleted_at IS NOT NULL ORDER BY id'
		);
		const purged = { deliveries: 0, endpoints: 0 };
		for ( const { id } of endpoints ) {
			const room = limit - purged.deliveries;
			if ( room <= 0 ) {
				break;
			}
			await inTransaction( this.pool, async ( connection ) => {
				const deleted = await deleteDeliveriesOf( connection, String( id ), room );
				purged.deliveries += deleted;
				if ( deleted < room ) {
					// The last of them: the row goes too (its secrets by the cascade).
					const [ removed ] = await connection.query< ResultSetHeader >(
						'DELETE FROM endpoints WHERE id = ? AND deleted_at IS NOT NULL',
						[ id ]
					);
					purged.endpoints += removed.affectedRows;
				}
			} );
		}
		return purged;
	}
}

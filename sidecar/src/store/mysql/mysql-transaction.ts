import type { Pool, PoolConnection } from 'mysql2/promise';

/** Tries of a transaction that InnoDB chose as a deadlock's victim (it was rolled back whole). */
export const DEADLOCK_TRIES = 4;

/** Whether InnoDB rolled the transaction back to break a deadlock (ER_LOCK_DEADLOCK, 1213). */
export function isDeadlock( error: unknown ): boolean {
	return ( error as { code?: unknown } | null )?.code === 'ER_LOCK_DEADLOCK';
}

/**
 * Runs fn in one transaction on a connection of the pool: committed when fn resolves, rolled
 * back when it throws (the error goes on to the caller), the connection released either way.
 * fn must use the connection it is given, never the pool, for what belongs to the transaction.
 * A deadlock victim is run again from the start, a few times after a short random pause
 * (two range replays to one endpoint, or a replay during live hand-overs, lock the same rows in
 * different orders): fn must do nothing outside the transaction. The last deadlock goes to the
 * caller.
 */
export async function inTransaction< T >(
	pool: Pool,
	fn: ( connection: PoolConnection ) => Promise< T >
): Promise< T > {
	for ( let attempt = 1; ; attempt++ ) {
		try {
			return await once( pool, fn );
		} catch ( error ) {
			if ( ! isDeadlock( error ) || attempt >= DEADLOCK_TRIES ) {
				throw error;
			}
			await new Promise( ( resolve ) => setTimeout( resolve, 10 + Math.random() * 40 * attempt ) );
		}
	}
}

async function once< T >( pool: Pool, fn: ( connection: PoolConnection ) => Promise< T > ): Promise< T > {
	const connection = await pool.getConnection();
	try {
		await connection.beginTransaction();
		try {
			const result = await fn( connection );
			await connection.commit();
			return result;
		} catch ( error ) {
			await connection.rollback().catch( () => undefined );
			throw error;
		}
	} finally {
		connection.release();
	}
}

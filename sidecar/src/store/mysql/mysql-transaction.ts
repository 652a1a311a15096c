import type { Pool, PoolConnection } from 'mysql2/promise';

/**
 * Runs fn in one transaction on a connection of the pool: committed when fn resolves, rolled
 * back when it throws (the error goes on to the caller), the connection released either way.
 * fn must use the connection it is given, never the pool, for what belongs to the transaction.
 */
export async function inTransaction< T >(
	pool: Pool,
	fn: ( connection: PoolConnection ) => Promise< T >
): Promise< T > {
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

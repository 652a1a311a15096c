import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { QueueSnapshot } from '../../metrics/registry';

type Row = RowDataPacket & { endpoint_id: string; pending: number | string; first_at: number | string | null };

/**
 * The queue gauges' scrape-time read on the shared store: every endpoint with its pending
 * deliveries and the earliest next_attempt_at among them, as the embedded store reads it.
 * One query, answered from the deliveries_due index (endpoint_id, status, next_attempt_at).
 * Every instance reads the same rows, so each one's /metrics shows the whole shared queue.
 */
export async function readQueueByEndpoint( pool: Pick< Pool, 'query' > ): Promise< QueueSnapshot[] > {
	const [ rows ] = await pool.query< Row[] >(
		`SELECT e.id AS endpoint_id, COUNT(d.next_attempt_at) AS pending, MIN(d.next_attempt_at) AS first_at
		 FROM endpoints e LEFT JOIN deliveries d ON d.endpoint_id = e.id AND d.status = 'pending'
		 WHERE e.deleted_at IS NULL GROUP BY e.id`
	);
	// COUNT and MIN of a BIGINT come back as strings or numbers depending on the server: read both.
	return rows.map( ( row ) => ( {
		endpointId: String( row.endpoint_id ),
		pending: Number( row.pending ),
		firstAttemptAt: row.first_at === null ? null : Number( row.first_at ),
	} ) );
}

import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { DeliveredEventType } from '../../contracts/constants';
import { eventPayload } from '../../model/events';
import type { PayloadRetention } from '../payload-retention';

type Row = RowDataPacket & Record< string, unknown >;

/**
 * Payload retention on the shared tables, with the embedded store's rule (PrivacyStore.clearPayloads):
 * an event keeps its ids, type, timestamp and ordering key and gets the envelope
 * {type, timestamp, data: {}}; payload_cleared_at marks it, so replays and re-enabling skip it.
 * Run by one instance at a time (SharedMaintenance holds the maintenance lock).
 */
export class MysqlPayloadRetention implements PayloadRetention {
	constructor( private readonly pool: Pool ) {}

	async clearPayloads(
		before: number,
		limit: number,
		now: number
	): Promise< { payloads: number; excerpts: number } > {
		const connection = await this.pool.getConnection();
		let payloads = 0;
		try {
			await connection.beginTransaction();
			try {
				// Locked: a delivery being queued for one of these events (a replay) waits for the commit,
				// and then finds the payload cleared.
				const [ due ] = await connection.query< Row[] >(
					`SELECT id, type, timestamp FROM events
					 WHERE payload_cleared_at IS NULL AND received_at < ?
					   AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = events.id AND d.status IN ('pending', 'in_flight'))
					 ORDER BY received_at LIMIT ? FOR UPDATE`,
					[ before, limit ]
				);
				for ( const event of due ) {
					const [ cleared ] = await connection.query< ResultSetHeader >(
						'UPDATE events SET payload = ?, payload_cleared_at = ? WHERE id = ? AND payload_cleared_at IS NULL',
						[
							eventPayload( {
								type: event.type as DeliveredEventType,
								timestamp: String( event.timestamp ),
								data: {},
							} ),
							now,
							event.id,
						]
					);
					payloads += cleared.affectedRows;
				}
				await connection.commit();
			} catch ( error ) {
				await connection.rollback().catch( () => undefined );
				throw error;
			}
		} finally {
			connection.release();
		}
		const [ excerpts ] = await this.pool.query< ResultSetHeader >(
			'UPDATE attempts SET response_excerpt = NULL WHERE excerpt_held = 1 AND started_at < ? ORDER BY started_at LIMIT ?',
			[ before, limit ]
		);
		return { payloads, excerpts: excerpts.affectedRows };
	}
}

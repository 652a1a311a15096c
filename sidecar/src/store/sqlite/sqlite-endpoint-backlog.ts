import type { Db } from './database';
import type { EndpointBacklog } from '../endpoint-backlog';

/**
 * EndpointBacklog on the embedded store. Each call is one short synchronous transaction of at
 * most `limit` deliveries, so requests and deliveries get the event loop between two batches.
 */
export class SqliteEndpointBacklog implements EndpointBacklog {
	private readonly statements;

	constructor( private readonly db: Db ) {
		this.statements = {
			cancel: db.prepare(
				`UPDATE deliveries SET status = 'cancelled', next_attempt_at = NULL, updated_at = @now,
				   last_error = 'endpoint disabled: ' || (SELECT e.disabled_reason FROM endpoints e WHERE e.id = deliveries.endpoint_id)
				 WHERE id IN (
				   SELECT d.id FROM endpoints e JOIN deliveries d INDEXED BY deliveries_due ON d.endpoint_id = e.id AND d.status = 'pending'
				   WHERE e.status = 'disabled' AND e.deleted_at IS NULL LIMIT @limit)`
			),
			purge: db.prepare(
				`DELETE FROM deliveries WHERE id IN (
				   SELECT d.id FROM endpoints e JOIN deliveries d ON d.endpoint_id = e.id
				   WHERE e.deleted_at IS NOT NULL LIMIT ?)`
			),
			removeEmpty: db.prepare(
				`DELETE FROM endpoints WHERE deleted_at IS NOT NULL
				   AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.endpoint_id = endpoints.id)`
			),
		};
	}

	async cancelDisabled( limit: number, now: number ): Promise< number > {
		return this.db.transaction( () => this.statements.cancel.run( { now, limit } ).changes ).immediate();
	}

	async purgeDeleted( limit: number ): Promise< { deliveries: number; endpoints: number } > {
		return this.db
			.transaction( () => {
				const deliveries = this.statements.purge.run( limit ).changes;
				const endpoints = deliveries < limit ? this.statements.removeEmpty.run().changes : 0;
				return { deliveries, endpoints };
			} )
			.immediate();
	}
}

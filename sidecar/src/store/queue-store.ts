import type {
	Attempt,
	ClaimedDelivery,
	Completion,
	Delivery,
	DeliveryStatus,
	EndpointHealth,
} from './deliveries-store';
import type { Endpoint, NewEndpoint } from './endpoints-store';
import type { InsertResult, NewEvent, StoredEvent } from './events-store';
import type { Stores } from './stores';

/** A claimed delivery with the instance lease it was taken under. */
export interface Lease {
	instanceId: string;
	/** How long the claim holds (Unix ms after now); past it another instance may take the delivery. */
	leaseMs: number;
}

/** An attempt as the shared store records it: who made it, and when it started and ended. */
export interface RecordedAttempt {
	deliveryId: number;
	instanceId: string | null;
	startedAt: number;
	endedAt: number;
	statusCode: number | null;
}

/**
 * The store every instance shares: what the outbound path (the HTTP hand-over of events,
 * endpoint management, the dispatcher) needs, async so it can sit on a database server.
 * Two implementations: SqliteQueueStore (the embedded default, over the synchronous stores)
 * and MysqlStore (MySQL/MariaDB, several instances at once).
 */
export interface QueueStore {
	readonly kind: 'sqlite' | 'mysql';
	insertBatch: ( events: NewEvent[], now: number, firstAttemptAt: number ) => Promise< InsertResult >;
	getEvent: ( id: string ) => Promise< StoredEvent | undefined >;
	deliveriesOfEvent: ( eventId: string ) => Promise< ( Delivery & { attempts: Attempt[] } )[] >;
	listEndpoints: ( now: number ) => Promise< Endpoint[] >;
	getEndpoint: ( id: string, now: number ) => Promise< Endpoint | undefined >;
	createEndpoint: ( input: NewEndpoint, now: number ) => Promise< Endpoint >;
	deleteEndpoint: ( id: string ) => Promise< boolean >;
	/** The endpoint's last `limit` attempts since `since`, summed up for its view. */
	endpointHealth: ( endpointId: string, since: number, limit: number ) => Promise< EndpointHealth >;
	/**
	 * Takes up to `limit` due deliveries of an endpoint: pending and due, or (shared store)
	 * in flight under an expired lease; never one behind an unfinished earlier delivery of
	 * its ordering key.
	 */
	claimDue: ( endpointId: string, now: number, limit: number, lease: Lease ) => Promise< ClaimedDelivery[] >;
	/** Records the attempt and moves the delivery on; false if the delivery is gone or no longer ours. */
	complete: ( completion: Completion, lease: Lease ) => Promise< boolean >;
	/** The earliest retry strictly after now. */
	nextDueAfter: ( now: number ) => Promise< number | undefined >;
	countByStatus: () => Promise<
		Record< Extract< DeliveryStatus, 'pending' | 'in_flight' | 'failed' | 'cancelled' >, number >
	>;
	/** Deletes finished deliveries and unreferenced events older than `before` (retention). */
	prune: ( before: number, limit: number ) => Promise< { deliveries: number; events: number } >;
	/**
	 * Runs fn only if no other instance runs it under the same name now (a database lock on
	 * the shared store, taken without waiting); false if another instance holds it.
	 */
	exclusively: ( name: string, fn: () => Promise< void > ) => Promise< boolean >;
	/** Throws when the store cannot answer a trivial query. */
	ping: () => Promise< void >;
	/** Schema version applied, and the latest this code knows. */
	schemaVersion: () => Promise< { current: number; latest: number } >;
	close: () => Promise< void >;
}

/**
 * The embedded store behind the async interface: one process owns the SQLite file, so
 * leases are moot (a crash's in-flight rows are queued again at start) and `exclusively`
 * just runs. The calls stay synchronous inside; only the result is wrapped.
 */
export class SqliteQueueStore implements QueueStore {
	readonly kind = 'sqlite';

	constructor( private readonly stores: Stores ) {}

	async insertBatch( events: NewEvent[], now: number, firstAttemptAt: number ): Promise< InsertResult > {
		return this.stores.events.insertBatch( events, now, firstAttemptAt );
	}
	async getEvent( id: string ): Promise< StoredEvent | undefined > {
		return this.stores.events.get( id );
	}
	async deliveriesOfEvent( eventId: string ): Promise< ( Delivery & { attempts: Attempt[] } )[] > {
		return this.stores.deliveries.ofEvent( eventId );
	}
	async listEndpoints( now: number ): Promise< Endpoint[] > {
		return this.stores.endpoints.list( now );
	}
	async getEndpoint( id: string, now: number ): Promise< Endpoint | undefined > {
		return this.stores.endpoints.get( id, now );
	}
	async endpointHealth( endpointId: string, since: number, limit: number ): Promise< EndpointHealth > {
		return this.stores.deliveries.health( endpointId, since, limit );
	}

	async createEndpoint( input: NewEndpoint, now: number ): Promise< Endpoint > {
		return this.stores.endpoints.create( input, now );
	}
	async deleteEndpoint( id: string ): Promise< boolean > {
		return this.stores.endpoints.delete( id );
	}
	async claimDue( endpointId: string, now: number, limit: number ): Promise< ClaimedDelivery[] > {
		return this.stores.deliveries.claimDue( endpointId, now, limit );
	}
	async complete( completion: Completion ): Promise< boolean > {
		return this.stores.deliveries.complete( completion );
	}
	async nextDueAfter( now: number ): Promise< number | undefined > {
		return this.stores.deliveries.nextDueAfter( now );
	}
	async countByStatus() {
		return this.stores.deliveries.countByStatus();
	}
	async prune( before: number, limit: number ) {
		return this.stores.deliveries.prune( before, limit );
	}
	async exclusively( _name: string, fn: () => Promise< void > ): Promise< boolean > {
		await fn();
		return true;
	}
	async ping(): Promise< void > {
		this.stores.db.prepare( 'SELECT 1' ).get();
	}
	async schemaVersion(): Promise< { current: number; latest: number } > {
		const { MIGRATIONS } = await import( './migrations' );
		return {
			current: this.stores.db.pragma( 'user_version', { simple: true } ) as number,
			latest: MIGRATIONS.length,
		};
	}
	async close(): Promise< void > {
		this.stores.db.close();
	}
}

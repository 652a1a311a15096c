import { endpointDisabledNotice } from '../model/health';
import type { Stores } from './stores';

/**
 * The failure streaks of endpoints and their automatic disabling, as the maintenance's health
 * sweep (both stores) and the shared store's round (MysqlStore.round) use them; the embedded
 * store's round does the same inside its own transaction. The rule itself (how long a streak
 * may last) is the caller's: model/health.ts.
 */
export interface FailureStreaks {
	/**
	 * A failed attempt: starts the endpoint's streak unless one runs already. Returns when the
	 * streak began (possibly earlier, recorded by another instance); null if the endpoint is gone.
	 */
	markFailing: ( endpointId: string, now: number ) => Promise< number | null >;
	/** A successful attempt: the streak is over. */
	clearFailing: ( endpointId: string ) => Promise< void >;
	/** Active endpoints whose streak began at or before `before`, longest first. */
	failingSince: ( before: number ) => Promise< string[] >;
	/**
	 * Disables the endpoint automatically (cancelling its queued deliveries) and queues its
	 * endpoint.disabled notice, in one transaction, if it is still active and `reasonFor`, given
	 * its streak's start as the transaction reads it, returns a reason. True if it was disabled.
	 */
	disableWithNotice: (
		endpointId: string,
		now: number,
		reasonFor: ( failingSince: number | null ) => string | null
	) => Promise< boolean >;
}

/** The embedded stores behind FailureStreaks (the dispatcher's tests run it on both stores). */
export class SqliteFailureStreaks implements FailureStreaks {
	constructor( private readonly stores: Stores ) {}

	async markFailing( endpointId: string, now: number ): Promise< number | null > {
		this.stores.endpoints.markFailing( endpointId, now );
		return this.stores.endpoints.get( endpointId, now )?.failingSince ?? null;
	}
	async clearFailing( endpointId: string ): Promise< void > {
		this.stores.endpoints.clearFailing( endpointId );
	}
	async failingSince( before: number ): Promise< string[] > {
		return this.stores.endpoints.failingBefore( before );
	}
	async disableWithNotice(
		endpointId: string,
		now: number,
		reasonFor: ( failingSince: number | null ) => string | null
	): Promise< boolean > {
		const { db, endpoints, deliveries, notices } = this.stores;
		return db
			.transaction( () => {
				const endpoint = endpoints.get( endpointId, now );
				const reason = endpoint?.status === 'active' ? reasonFor( endpoint.failingSince ) : null;
				if ( ! endpoint || reason === null || ! endpoints.disable( endpointId, reason, 'auto', now ) ) {
					return false;
				}
				const lastError = deliveries.health( endpointId, 0, 1 ).lastError;
				notices.enqueue( endpointDisabledNotice( endpoint, reason, lastError ), now );
				return true;
			} )
			.immediate();
	}
}

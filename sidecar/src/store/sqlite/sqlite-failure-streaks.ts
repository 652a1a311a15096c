import { endpointDisabledNotice } from '../../model/health';
import type { StreakEndCounts } from '../../model/recovery';
import type { Stores } from './stores';

import type { FailureStreaks } from '../failure-streaks';

/** The embedded stores behind FailureStreaks (the dispatcher's tests run it on both stores). */
export class SqliteFailureStreaks implements FailureStreaks {
	constructor( private readonly stores: Stores ) {}

	async markFailing( endpointId: string, now: number ): Promise< number | null > {
		this.stores.endpoints.markFailing( endpointId, now );
		return this.stores.endpoints.get( endpointId, now )?.failingSince ?? null;
	}
	async clearFailing( endpointId: string, now: number ): Promise< StreakEndCounts | null > {
		return this.stores.endpoints.clearFailing( endpointId, now );
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

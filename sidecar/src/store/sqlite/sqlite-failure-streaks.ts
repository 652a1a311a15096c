import { endpointDisabledNotice } from '../../model/health';
import type { HealthAnswer, HealthWrite } from '../../model/round-health';
import type { FailureStreaks } from '../failure-streaks';
import { promised } from './promised';
import type { Stores } from './stores';

/**
 * FailureStreaks on the embedded stores, and the round's health writes (model/round-health.ts)
 * inside its transaction: the same two synchronous steps below serve both.
 */
export function sqliteFailureStreaks( stores: Stores ): FailureStreaks {
	return {
		...promised( stores.endpoints, { clearFailing: 'clearFailing', failingSince: 'failingBefore' } ),
		markFailing: async ( endpointId, now ) => markFailing( stores, endpointId, now ),
		disableWithNotice: async ( endpointId, now, reasonFor ) =>
			stores.db.transaction( () => disableWithNotice( stores, endpointId, now, reasonFor ) ).immediate(),
	};
}

/** One write the round's health step asks for, answered at once (the caller's transaction holds). */
export function writeHealth( stores: Stores, request: HealthWrite, now: number ): HealthAnswer {
	switch ( request.write ) {
		case 'clear':
			return stores.endpoints.clearFailing( request.endpointId, now );
		case 'mark':
			return markFailing( stores, request.endpointId, now );
		case 'disable':
			return disableWithNotice(
				stores,
				request.endpointId,
				now,
				( failingSince ) => request.disableFor( failingSince )?.reason ?? null
			);
	}
}

/** Starts the streak unless one runs; when it began, or null if the endpoint is gone. */
function markFailing( stores: Stores, endpointId: string, now: number ): number | null {
	stores.endpoints.markFailing( endpointId, now );
	return stores.endpoints.get( endpointId, now )?.failingSince ?? null;
}

/** See FailureStreaks.disableWithNotice; runs in the caller's transaction. */
function disableWithNotice(
	stores: Stores,
	endpointId: string,
	now: number,
	reasonFor: ( failingSince: number | null ) => string | null
): boolean {
	const { endpoints, deliveries, notices } = stores;
	const endpoint = endpoints.get( endpointId, now );
	const reason = endpoint?.status === 'active' ? reasonFor( endpoint.failingSince ) : null;
	if ( ! endpoint || reason === null || ! endpoints.disable( endpointId, reason, 'auto', now ) ) {
		return false;
	}
	// The newest attempt is the failure that disabled it: a success would have ended the streak.
	const lastError = deliveries.health( endpointId, 0, 1 ).lastError;
	notices.enqueue( endpointDisabledNotice( endpoint, reason, lastError ), now );
	return true;
}

import type { StreakEndCounts } from '../model/recovery';

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
	/**
	 * A successful attempt: the streak is over and, in the same transaction, what ran out of
	 * attempts during it is queued again if the endpoint says so (model/recovery.ts). Of several
	 * instances ending one streak at once, one does it. Returns what it queued again and made due;
	 * null if no streak ran (another instance ended it, or the endpoint is gone).
	 */
	clearFailing: ( endpointId: string, now: number ) => Promise< StreakEndCounts | null >;
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

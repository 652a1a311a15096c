/**
 * The re-send on recovery, the same rule on both stores (store/sqlite/endpoints-store.ts,
 * store/mysql/mysql-failure-streaks.ts):
 *
 * When an attempt to an endpoint whose failure streak runs (`failingSince` set) succeeds, the
 * streak ends, and, if the endpoint's `resendFailedOnRecovery` is on, in the same transaction
 * every delivery of that endpoint that
 *  - is `failed` (its retries ran out: the retry policy gave up),
 *  - failed during that streak (`updated_at >= failingSince`, the streak began with the first
 *    failed attempt after the last success, so nothing from before the last success comes back),
 *  - still has its payload (payload retention has not emptied it), and
 *  - was not refused by the URL guard (its last attempt's error is not EBLOCKED: sending it
 *    again would only fail again, and start a new streak),
 * is queued again: pending, due now, with a fresh retry schedule, its `resent_on_recovery_at`
 * set to now (the delivery log shows it). A delivery keeps its id, so the scheduler's ordering
 * rule (nothing goes out while an earlier delivery of its ordering key is unfinished) sends
 * the re-sent ones in their original order, before anything of their key queued after them.
 * (An attempt already in flight when the streak ends, such as the one whose success ends it,
 * is not held back: it may reach the receiver before an older delivery of its key re-sent now.)
 *
 * Whatever the setting, the endpoint's pending retries waiting for a later time become due now
 * in the same transaction: late in a long outage the schedule's gaps are a day long, and a
 * receiver that answers again should not wait that long for what is queued for it.
 *
 * The transaction that ends the streak is the claim: on the shared store it locks the
 * endpoint's row and ends the streak only if it still runs, so of several instances recording
 * successes at once, one re-sends, once.
 */

/** The URL guard's refusal (outbound/url-guard.ts): a delivery it refused is not sent again. */
export const GUARD_REFUSAL_CODE = 'EBLOCKED';

/** What ending a failure streak did. */
export interface StreakEndCounts {
	/** Failed deliveries queued again (0 when the setting is off or none ran out of attempts). */
	resent: number;
	/** Pending retries made due now. */
	retriesDueNow: number;
}

export interface StreakEnd extends StreakEndCounts {
	endpointId: string;
}

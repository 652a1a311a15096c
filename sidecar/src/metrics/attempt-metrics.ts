import type { AttemptResult } from '../outbound/delivery-client';
import type { Decision } from '../outbound/retry-policy';
import type { ClaimedDelivery, Completion } from '../model/deliveries';
import { classifyAttempt, giveUpReason, type DeliveryOutcome, type GiveUpReason } from './outcomes';
import type { SidecarMetrics } from './registry';

/** What one recorded attempt adds to the metrics: the same on both stores' dispatchers. */
export interface AttemptMetrics {
	kind: 'attempt';
	endpointId: string;
	outcome: DeliveryOutcome;
	durationSeconds: number;
	firstAttemptDelaySeconds: number | null;
	/** Set when the delivery reached a final state (succeeded, or failed for good). */
	finished: { giveUp: GiveUpReason | null } | null;
}

export function attemptMetrics(
	endpointId: string,
	claimed: Pick< ClaimedDelivery, 'attemptCount' | 'createdAt' | 'receivedAt' >,
	result: Pick< AttemptResult, 'outcome' | 'durationMs' | 'startedAt' >,
	decision: Decision,
	status: Completion[ 'status' ]
): AttemptMetrics {
	const outcome = classifyAttempt( result.outcome );
	return {
		kind: 'attempt',
		endpointId,
		outcome,
		durationSeconds: result.durationMs / 1000,
		// A delivery's first attempt, when the delivery was made as the event arrived (not later,
		// by a replay to another endpoint or by re-enabling one).
		firstAttemptDelaySeconds:
			claimed.attemptCount === 0 && claimed.createdAt === claimed.receivedAt
				? ( result.startedAt - claimed.receivedAt ) / 1000
				: null,
		finished: status === 'succeeded' || status === 'failed' ? { giveUp: giveUpReason( decision, outcome ) } : null,
	};
}

/** Counts one recorded attempt (and its delivery's end, when it ended). */
export function countAttempt(
	metrics: Pick< SidecarMetrics, 'recordAttempt' | 'recordDeliveryFinished' >,
	item: AttemptMetrics
): void {
	metrics.recordAttempt( item.endpointId, item.outcome, item.durationSeconds, item.firstAttemptDelaySeconds );
	if ( item.finished ) {
		metrics.recordDeliveryFinished( item.endpointId, item.outcome, item.finished.giveUp );
	}
}

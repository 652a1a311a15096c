/**
 * Deliveries and their attempts as both stores hold them, and the rules on them that both apply.
 */
import type { AttemptTrigger, DeliveredEventType, DeliveryStatus, EventType } from '../contracts/constants';

export interface Delivery {
	id: number;
	eventId: string;
	eventType: DeliveredEventType;
	endpointId: string;
	status: DeliveryStatus;
	attemptCount: number;
	nextAttemptAt: number | null;
	lastStatusCode: number | null;
	lastError: string | null;
	/** When it was last queued again because its endpoint recovered (model/recovery.ts); null if never. */
	resentOnRecoveryAt: number | null;
	createdAt: number;
	updatedAt: number;
}

export interface Attempt {
	attemptNumber: number;
	startedAt: number;
	durationMs: number;
	statusCode: number | null;
	errorCode: string | null;
	responseExcerpt: string | null;
	nextAttemptAt: number | null;
	trigger: AttemptTrigger;
}

/** A delivery taken by the dispatcher, with what it needs to send it. */
export interface ClaimedDelivery {
	id: number;
	eventId: string;
	eventType: DeliveredEventType;
	endpointId: string;
	payload: string;
	attemptCount: number;
	/** Attempts since the last (re)queue; the retry schedule is indexed by this. */
	cycleAttempts: number;
	trigger: AttemptTrigger;
	/** When the event reached the sidecar, and when this delivery was created (the same for a delivery made at arrival). */
	receivedAt: number;
	createdAt: number;
}

export interface Completion {
	deliveryId: number;
	endpointId: string;
	/** What the row becomes: back to pending for a retry, or a final status. */
	status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
	attemptNumber: number;
	cycleAttempts: number;
	trigger: AttemptTrigger;
	startedAt: number;
	durationMs: number;
	statusCode: number | null;
	errorCode: string | null;
	responseExcerpt: string | null;
	nextAttemptAt: number | null;
	lastError: string | null;
	now: number;
}

/**
 * A retry of a delivery whose endpoint was disabled (or deleted) while the attempt ran is
 * parked with the rest of its queue, which the disabling cancelled: cancelled, not pending,
 * so that enabling the endpoint brings it back with the others and nothing claims it before.
 * One rule for both stores, given the endpoint as the completing transaction sees it.
 */
export function parkedIfEndpointStopped(
	completion: Completion,
	endpoint: { status: string; disabledReason: string | null } | undefined
): Completion {
	if ( completion.status !== 'pending' || endpoint?.status === 'active' ) {
		return completion;
	}
	return {
		...completion,
		status: 'cancelled',
		nextAttemptAt: null,
		lastError: `endpoint disabled: ${ endpoint?.disabledReason ?? 'deleted' }`,
	};
}

export interface DeliveryFilter {
	endpointId?: string;
	type?: EventType;
	status?: DeliveryStatus;
	page: number;
	perPage: number;
}

/** A replay of the events of some types received in [from, to), to one endpoint. */
export interface RangeReplay {
	endpointId: string;
	/** Unix ms, inclusive. */
	from: number;
	/** Unix ms, exclusive. */
	to: number;
	/** [] = every type. */
	types: EventType[];
	limit: number;
	dryRun: boolean;
	now: number;
}

export interface RangeReplayResult {
	/** Events in the range, at most `limit`. */
	matched: number;
	/** Of those, deliveries this request queued (new ones and finished ones queued again). */
	queued: number;
	/** Of those, deliveries already pending or in flight: they go out once, not twice. */
	alreadyQueued: number;
	/** Whether events beyond `limit` remain in the range. */
	more: boolean;
	/** When `more`: the receipt time of the first event left out, where a next replay starts. */
	nextFrom: number | null;
}

import type { RangeReplay, RangeReplayResult } from '../model/deliveries';

/**
 * Manual replays, on either store (QueueStore.replays): one event again, what failed since a
 * time, and a range of past events to one endpoint. Every requeued or new delivery is pending
 * and due now with a manual trigger, so whichever instance claims next sends it.
 */
export interface ReplayQueue {
	/**
	 * One event again, same id: every delivery to an active endpoint, or the one to endpointId
	 * (created if the endpoint never had one). Deliveries in flight are left alone.
	 */
	requeueEvent: ( eventId: string, endpointId: string | undefined, now: number ) => Promise< number >;
	/** Deliveries to active endpoints that failed (or were cancelled) since `since`, payload still held. */
	requeueFailedSince: ( since: number, endpointId: string | undefined, now: number ) => Promise< number >;
	/** See DeliveriesStore.replayRange: arrival order, each event once, ids renumbered to follow it. */
	replayRange: ( replay: RangeReplay ) => Promise< RangeReplayResult >;
}

/**
 * A range replay refused because another one to the same endpoint is being written right now
 * (the shared store: through another instance). Nothing was queued; the API answers 409.
 */
export class ReplayConflict extends Error {
	constructor() {
		super( 'another replay to this endpoint is being written' );
		this.name = 'ReplayConflict';
	}
}

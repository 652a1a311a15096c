import type { DeliveryStatus } from '../contracts/constants';
import type { RangeReplayResult } from './deliveries';

/**
 * A range replay (RangeReplay, ReplayQueue.replayRange) planned once for both stores; each
 * store reads the rows and applies the steps with its own SQL, in one transaction.
 */

/** An event of the range, in arrival order (events.seq), with its delivery to the endpoint if it has one. */
export interface RangeRow {
	eventId: string;
	receivedAt: number;
	/** null: the endpoint never got a delivery of it (or, on the shared store, it was pruned since the read). */
	deliveryId: number | null;
	status: DeliveryStatus | null;
}

/**
 * What a replay does with one event of the range:
 *  - `create`: a new delivery, pending and due now (the endpoint never got one);
 *  - `requeue`: the finished delivery is queued again (pending, due now, a manual trigger);
 *  - `keep`: the delivery is pending or in flight already: it goes out once, not twice.
 * `move`: the delivery first takes a fresh id (above every id there is), its attempts with it.
 */
export type ReplayStep =
	{ action: 'create'; eventId: string } | { action: 'requeue' | 'keep'; deliveryId: number; move: boolean };

/**
 * The first `limit` rows of a range read `limit + 1` rows deep: whether more remain, and where
 * the next replay starts (the receipt time of the first event left out).
 */
export function takeRange< Row extends { receivedAt: number } >(
	rows: Row[],
	limit: number
): { taken: Row[]; more: boolean; nextFrom: number | null } {
	const more = rows.length > limit;
	return { taken: rows.slice( 0, limit ), more, nextFrom: more ? ( rows[ limit ] as Row ).receivedAt : null };
}

/**
 * The steps of a replay of `taken`, in order, and what it counts. Order: the scheduler holds a
 * delivery back while an earlier one (smaller id) of its ordering key to the endpoint is
 * unfinished, so the replayed deliveries' ids must follow arrival: one whose id is below the
 * previous replayed one's moves to a fresh id. In-flight deliveries cannot move (an attempt is
 * being recorded against them); later ones wait for them. A created or moved delivery's id is
 * fresh, above every id read, so every delivery after it that can move does.
 */
export function planRangeReplay( taken: RangeRow[] ): {
	steps: ReplayStep[];
	counts: Pick< RangeReplayResult, 'matched' | 'queued' | 'alreadyQueued' >;
} {
	const steps: ReplayStep[] = [];
	let queued = 0;
	let alreadyQueued = 0;
	let last = 0; // the largest id replayed so far; Infinity once it is a fresh one
	for ( const row of taken ) {
		const open = row.status === 'pending' || row.status === 'in_flight';
		if ( open ) {
			alreadyQueued++;
		} else {
			queued++;
		}
		if ( row.deliveryId === null || row.status === null ) {
			steps.push( { action: 'create', eventId: row.eventId } );
			last = Infinity;
			continue;
		}
		const move = row.status !== 'in_flight' && row.deliveryId < last;
		steps.push( { action: open ? 'keep' : 'requeue', deliveryId: row.deliveryId, move } );
		last = move ? Infinity : Math.max( last, row.deliveryId );
	}
	return { steps, counts: { matched: taken.length, queued, alreadyQueued } };
}

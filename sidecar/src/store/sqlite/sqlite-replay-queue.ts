import type { DeliveriesStore } from './deliveries-store';
import type { RangeReplay, RangeReplayResult } from '../../model/deliveries';

import type { ReplayQueue } from '../replay-queue';

/** The embedded store's replays: its synchronous DeliveriesStore, wrapped. */
export class SqliteReplayQueue implements ReplayQueue {
	constructor( private readonly deliveries: DeliveriesStore ) {}

	async requeueEvent( eventId: string, endpointId: string | undefined, now: number ): Promise< number > {
		return this.deliveries.requeueEvent( eventId, endpointId, now );
	}
	async requeueFailedSince( since: number, endpointId: string | undefined, now: number ): Promise< number > {
		return this.deliveries.requeueFailedSince( since, endpointId, now );
	}
	async replayRange( replay: RangeReplay ): Promise< RangeReplayResult > {
		return this.deliveries.replayRange( replay );
	}
}

import { planRangeReplay, takeRange, type RangeRow } from '../../../sidecar/src/model/range-replay';

function row( eventId: string, deliveryId: number | null, status: RangeRow[ 'status' ] ): RangeRow {
	return { eventId, receivedAt: Number( eventId.slice( 1 ) ), deliveryId, status };
}

/**
 * The range replay as both stores run it (tests/sidecar/replay-range.test.ts and
 * replay-queue.test.ts check what they write): here the plan alone, on rows chosen so that each
 * of its rules decides something.
 */
describe( 'a range replay planned for either store', () => {
	it( 'takes `limit` rows of a read one deeper, and says where the next replay starts', () => {
		const rows = [ row( 'e1', 1, 'failed' ), row( 'e2', 2, 'failed' ), row( 'e3', 3, 'failed' ) ];
		expect( takeRange( rows, 2 ) ).toEqual( { taken: rows.slice( 0, 2 ), more: true, nextFrom: 3 } );
		expect( takeRange( rows, 3 ) ).toEqual( { taken: rows, more: false, nextFrom: null } );
	} );

	it( 'queues finished deliveries again, leaves open ones, creates missing ones, and moves ids below the last replayed one', () => {
		const { steps, counts } = planRangeReplay( [
			row( 'e1', 5, 'succeeded' ), // requeued in place: nothing replayed before it
			row( 'e2', 3, 'failed' ), // below 5: moves to a fresh id
			row( 'e3', 9, 'pending' ), // open, but after a fresh id: moves
			row( 'e4', 2, 'in_flight' ), // in flight: never moves
			row( 'e5', null, null ), // never delivered to this endpoint: created
			row( 'e6', 20, 'cancelled' ), // after a created one (a fresh id): moves
		] );
		expect( steps ).toEqual( [
			{ action: 'requeue', deliveryId: 5, move: false },
			{ action: 'requeue', deliveryId: 3, move: true },
			{ action: 'keep', deliveryId: 9, move: true },
			{ action: 'keep', deliveryId: 2, move: false },
			{ action: 'create', eventId: 'e5' },
			{ action: 'requeue', deliveryId: 20, move: true },
		] );
		expect( counts ).toEqual( { matched: 6, queued: 4, alreadyQueued: 2 } );
	} );

	it( 'moves nothing when the ids already follow arrival', () => {
		const { steps } = planRangeReplay( [
			row( 'e1', 1, 'failed' ),
			row( 'e2', 2, 'pending' ),
			row( 'e3', 4, 'in_flight' ),
			row( 'e4', 7, 'succeeded' ),
		] );
		expect( steps.filter( ( step ) => step.action !== 'create' && step.move ) ).toEqual( [] );
	} );
} );

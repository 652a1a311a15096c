import type { Completion } from '../../sidecar/src/model/deliveries';
import type { NewEvent } from '../../sidecar/src/model/events';
import type { EventType } from '../../sidecar/src/contracts/constants';
import type { QueueStore } from '../../sidecar/src/store/queue-store';
import { STORE_KINDS, useBackend, createTestEndpoint } from './support/stores-under-test';

const LEASE = { instanceId: 'instance-a', leaseMs: 60_000 };

function event( id: string, type: NewEvent[ 'type' ], orderingKey: string | null = 'order:10' ): NewEvent {
	return { id, type, timestamp: '2026-11-24T10:00:00Z', orderingKey, data: { id } };
}

function finished( deliveryId: number, endpointId: string, now: number, status: 'succeeded' | 'failed' ): Completion {
	return {
		deliveryId,
		endpointId,
		status,
		attemptNumber: 1,
		cycleAttempts: 1,
		trigger: 'scheduled',
		startedAt: now,
		durationMs: 5,
		statusCode: status === 'succeeded' ? 200 : 500,
		errorCode: null,
		responseExcerpt: null,
		nextAttemptAt: null,
		lastError: status === 'failed' ? 'HTTP 500' : null,
		now,
	};
}

function endpoint( store: QueueStore, types: EventType[] = [] ) {
	return createTestEndpoint( store, types, 500 );
}

/** Each event in its own batch, received at its own time (ms). */
async function receive( store: QueueStore, ...events: [ NewEvent, number ][] ) {
	for ( const [ stored, at ] of events ) {
		await store.insertBatch( [ stored ], at, at );
	}
}

/** The endpoint's deliveries in id order, as event ids with their status. */
async function byId( store: QueueStore, endpointId: string ) {
	const { deliveries } = await store.listDeliveries( { endpointId, page: 1, perPage: 100 } );
	return deliveries.reverse().map( ( d ) => [ d.eventId, d.status ] );
}

const CREATED_PAID_REFUNDED: EventType[] = [ 'order.created', 'order.paid', 'order.refunded' ];

/** The replays of both stores (QueueStore.replays): the same cases, the same answers. */
describe.each( STORE_KINDS )( 'replays on the %s store', ( kind ) => {
	const backend = useBackend( kind );

	it( 'replays a range in arrival order: new deliveries around a finished one, ids renumbered, attempts kept', async () => {
		const store = await backend.open();
		const target = await endpoint( store, [ 'order.paid' ] );
		await receive(
			store,
			[ event( 'f_created', 'order.created' ), 1000 ],
			[ event( 'f_paid', 'order.paid' ), 1001 ],
			[ event( 'f_refunded', 'order.refunded' ), 1002 ]
		);
		const [ paid ] = await store.claimDue( target.id, 1100, 10, LEASE );
		expect( await store.complete( finished( paid!.id, target.id, 1200, 'succeeded' ), LEASE ) ).toBe( true );

		const range = { endpointId: target.id, from: 1000, to: 1003, types: CREATED_PAID_REFUNDED, limit: 10 };
		const dry = await store.replays.replayRange( { ...range, dryRun: true, now: 2000 } );
		expect( dry ).toEqual( { matched: 3, queued: 3, alreadyQueued: 0, more: false, nextFrom: null } );
		expect( await byId( store, target.id ) ).toEqual( [ [ 'f_paid', 'succeeded' ] ] );

		expect( await store.replays.replayRange( { ...range, dryRun: false, now: 2000 } ) ).toEqual( dry );
		expect( await byId( store, target.id ) ).toEqual( [
			[ 'f_created', 'pending' ],
			[ 'f_paid', 'pending' ],
			[ 'f_refunded', 'pending' ],
		] );
		// One ordering key: the claim follows the ids, so the events leave in arrival order.
		const sent: string[] = [];
		for ( let now = 2100; sent.length < 3; now += 100 ) {
			const claimed = await store.claimDue( target.id, now, 10, LEASE );
			expect( claimed ).toHaveLength( 1 );
			const [ next ] = claimed;
			expect( next?.trigger ).toBe( 'manual' );
			sent.push( next!.eventId );
			await store.complete( finished( next!.id, target.id, now, 'succeeded' ), LEASE );
		}
		expect( sent ).toEqual( [ 'f_created', 'f_paid', 'f_refunded' ] );
		const [ moved ] = await store.deliveriesOfEvent( 'f_paid' );
		expect( moved?.attempts.map( ( a ) => a.startedAt ) ).toEqual( [ 1200, 2200 ] );
	} );

	it( 'stops at the limit and says where the rest starts; a dry run writes nothing', async () => {
		const store = await backend.open();
		await receive(
			store,
			...[ 1, 2, 3, 4, 5 ].map( ( n ): [ NewEvent, number ] => [
				event( `m_${ n }`, 'order.created', null ),
				2000 + n,
			] )
		);
		const target = await endpoint( store );
		const range = { endpointId: target.id, to: 3000, types: [], limit: 2, now: 4000 };

		expect( await store.replays.replayRange( { ...range, from: 2001, dryRun: true } ) ).toEqual( {
			matched: 2,
			queued: 2,
			alreadyQueued: 0,
			more: true,
			nextFrom: 2003,
		} );
		expect( await byId( store, target.id ) ).toEqual( [] );

		const first = await store.replays.replayRange( { ...range, from: 2001, dryRun: false } );
		expect( first ).toMatchObject( { matched: 2, queued: 2, more: true, nextFrom: 2003 } );
		const rest = await store.replays.replayRange( { ...range, from: first.nextFrom!, dryRun: false } );
		expect( rest ).toMatchObject( { matched: 2, queued: 2, more: true, nextFrom: 2005 } );
		const last = await store.replays.replayRange( { ...range, from: rest.nextFrom!, dryRun: false } );
		expect( last ).toEqual( { matched: 1, queued: 1, alreadyQueued: 0, more: false, nextFrom: null } );
		expect( ( await byId( store, target.id ) ).map( ( [ id ] ) => id ) ).toEqual( [
			'm_1',
			'm_2',
			'm_3',
			'm_4',
			'm_5',
		] );
	} );

	it( 'never queues an event twice: pending and in-flight deliveries count as already queued', async () => {
		const store = await backend.open();
		const target = await endpoint( store );
		await receive(
			store,
			[ event( 'h_1', 'order.created', null ), 1000 ],
			[ event( 'h_2', 'order.paid', null ), 1001 ],
			[ event( 'h_3', 'order.refunded', null ), 1002 ]
		);
		const [ held ] = await store.claimDue( target.id, 1100, 1, LEASE );
		const range = { endpointId: target.id, from: 1000, to: 1003, types: [], limit: 10, dryRun: false };
		expect( await store.replays.replayRange( { ...range, now: 1200 } ) ).toMatchObject( {
			matched: 3,
			queued: 0,
			alreadyQueued: 3,
		} );
		await store.complete( finished( held!.id, target.id, 1300, 'failed' ), LEASE );
		expect( await store.replays.replayRange( { ...range, now: 1400 } ) ).toMatchObject( {
			matched: 3,
			queued: 1,
			alreadyQueued: 2,
		} );
		expect( ( await store.deliveriesOfEvent( held!.eventId ) ).map( ( d ) => d.status ) ).toEqual( [ 'pending' ] );
		expect( await store.countByStatus() ).toEqual( { pending: 3, in_flight: 0, failed: 0, cancelled: 0 } );
	} );

	it( 'never replays an event past the payload retention, by range or by failure time', async () => {
		const store = await backend.open();
		const target = await endpoint( store );
		await receive(
			store,
			[ event( 'kept', 'order.paid', null ), 1000 ],
			[ event( 'cleared', 'order.paid', null ), 1001 ]
		);
		for ( const claimed of await store.claimDue( target.id, 1100, 10, LEASE ) ) {
			await store.complete( finished( claimed.id, target.id, 1200, 'failed' ), LEASE );
		}
		await backend.sql( `UPDATE events SET payload = '', payload_cleared_at = 1500 WHERE id = 'cleared'` );

		expect(
			await store.replays.replayRange( {
				endpointId: target.id,
				from: 0,
				to: 5000,
				types: [],
				limit: 10,
				dryRun: true,
				now: 2000,
			} )
		).toMatchObject( { matched: 1, queued: 1 } );
		expect( await store.replays.requeueFailedSince( 1000, undefined, 2000 ) ).toBe( 1 );
		expect( ( await store.deliveriesOfEvent( 'cleared' ) )[ 0 ]?.status ).toBe( 'failed' );
		expect( ( await store.deliveriesOfEvent( 'kept' ) )[ 0 ]?.status ).toBe( 'pending' );
	} );

	it( 'requeues one event, or what failed since a time, only to active endpoints and never what is in flight', async () => {
		const store = await backend.open();
		const first = await endpoint( store );
		const off = await endpoint( store );
		await receive(
			store,
			[ event( 'e1', 'order.paid', null ), 1000 ],
			[ event( 'e2', 'order.paid', null ), 1001 ]
		);
		for ( const target of [ first, off ] ) {
			for ( const claimed of await store.claimDue( target.id, 1100, 10, LEASE ) ) {
				await store.complete( finished( claimed.id, target.id, 1200, 'failed' ), LEASE );
			}
		}
		await store.disableEndpoint( off.id, 'paused', 'owner', 1300 );
		expect( await store.replays.requeueFailedSince( 1250, undefined, 2000 ) ).toBe( 0 );
		expect( await store.replays.requeueFailedSince( 1200, first.id, 2000 ) ).toBe( 2 );
		const [ taken ] = await store.claimDue( first.id, 2100, 1, LEASE );
		expect( taken?.trigger ).toBe( 'manual' );
		expect( await store.replays.requeueEvent( taken!.eventId, undefined, 2200 ) ).toBe( 0 );

		const late = await endpoint( store, [ 'order.refunded' ] );
		expect( await store.replays.requeueEvent( 'e2', late.id, 2300 ) ).toBe( 1 );
		expect( ( await store.deliveriesOfEvent( 'e2' ) ).map( ( d ) => [ d.endpointId, d.status ] ) ).toEqual(
			expect.arrayContaining( [
				[ off.id, 'failed' ],
				[ late.id, 'pending' ],
			] )
		);
	} );
} );

describe( 'range replays through two instances at once on one MariaDB', () => {
	const backend = useBackend( 'mysql', { reset: false } );

	it( 'queues each event once between them, and the ids still follow arrival', async () => {
		const a = await backend.open();
		const b = await backend.open();
		await receive(
			a,
			...[ 1, 2, 3, 4, 5, 6 ].map( ( n ): [ NewEvent, number ] => [
				event( `c_${ n }`, 'order.paid' ),
				1000 + n,
			] )
		);
		const target = await endpoint( a );
		// The oldest event already has a finished delivery: each replay that gets to it first moves it.
		await b.replays.requeueEvent( 'c_1', target.id, 1100 );
		const [ first ] = await b.claimDue( target.id, 1200, 1, LEASE );
		await b.complete( finished( first!.id, target.id, 1300, 'succeeded' ), LEASE );

		const range = { endpointId: target.id, from: 0, to: 5000, types: [], limit: 100, dryRun: false, now: 2000 };
		const results = await Promise.all( [ a.replays.replayRange( range ), b.replays.replayRange( range ) ] );
		expect( results.map( ( r ) => r.matched ) ).toEqual( [ 6, 6 ] );
		expect( results.map( ( r ) => r.queued ).sort() ).toEqual( [ 0, 6 ] );
		expect( results.map( ( r ) => r.alreadyQueued ).sort() ).toEqual( [ 0, 6 ] );
		expect( await byId( a, target.id ) ).toEqual( [ 1, 2, 3, 4, 5, 6 ].map( ( n ) => [ `c_${ n }`, 'pending' ] ) );
	} );
} );

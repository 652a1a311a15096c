import type { ClaimedDelivery, Completion } from '../../sidecar/src/model/deliveries';
import type { Endpoint } from '../../sidecar/src/model/endpoints';
import type { NewEvent } from '../../sidecar/src/model/events';
import type { QueueStore, RoundInput, RoundResult } from '../../sidecar/src/store/queue-store';
import { STORE_KINDS, useBackend } from './support/stores-under-test';

/**
 * The re-send on recovery (sidecar/src/model/recovery.ts) through the store's round, the
 * dispatcher's path, on both stores: what ran out of attempts during a failure streak goes out
 * again when the endpoint succeeds again, in order, before what came after it on its key.
 */
const LEASE = { instanceId: 'instance-a', leaseMs: 60_000 };
const DAY = 86_400_000;

function event( id: string, orderingKey: string | null ): NewEvent {
	return { id, type: 'order.paid', timestamp: '2026-11-24T10:00:00Z', orderingKey, data: { id } };
}

/** The attempt's end as the dispatcher records it: a success, a retry-ending failure, or a URL guard refusal. */
function outcome( delivery: ClaimedDelivery, result: 'succeeded' | 'exhausted' | 'blocked', now: number ): Completion {
	const failed = result !== 'succeeded';
	return {
		deliveryId: delivery.id,
		endpointId: delivery.endpointId,
		status: failed ? 'failed' : 'succeeded',
		attemptNumber: delivery.attemptCount + 1,
		cycleAttempts: delivery.cycleAttempts + 1,
		trigger: delivery.trigger,
		startedAt: now,
		durationMs: 5,
		statusCode: result === 'succeeded' ? 200 : result === 'exhausted' ? 503 : null,
		errorCode: result === 'blocked' ? 'EBLOCKED' : null,
		responseExcerpt: null,
		nextAttemptAt: null,
		lastError: failed ? 'gave up' : null,
		now,
	};
}

/** One round as the dispatcher runs it: records `finished` (the endpoint as its cache holds it), then claims. */
function round(
	store: QueueStore,
	endpoint: Endpoint,
	now: number,
	finished: { delivery: ClaimedDelivery; result: 'succeeded' | 'exhausted' | 'blocked' }[],
	claim = 10
): Promise< RoundResult > {
	const input: RoundInput = {
		now,
		finished: finished.map( ( { delivery, result } ) => ( {
			completion: outcome( delivery, result, now ),
			endpoint,
			succeeded: result === 'succeeded',
			gone: null,
		} ) ),
		claimOn: [ endpoint.id ],
		limit: () => claim,
		lease: LEASE,
		disableAfterMs: 5 * DAY,
	};
	return store.round( input );
}

function createEndpoint( store: QueueStore, resendFailedOnRecovery?: boolean ) {
	return store.createEndpoint(
		{
			url: 'https://hooks.example/x',
			description: '',
			eventTypes: [],
			maxConcurrency: 10,
			wcCompatSignature: false,
			...( resendFailedOnRecovery === undefined ? {} : { resendFailedOnRecovery } ),
			secret: 'whsec_test',
		},
		1000
	);
}

const ids = ( claimed: ClaimedDelivery[] ) => claimed.map( ( delivery ) => delivery.eventId ).sort();

/**
 * Two events of order 1 and one of order 2 run out of attempts during a streak that begins at
 * 2000; then order 1's next event (queued behind them) and a free event arrive. Returns the
 * endpoint as the dispatcher's cache holds it at that point, and the claimed free event.
 */
async function outage( store: QueueStore, resend?: boolean ) {
	let endpoint = await createEndpoint( store, resend );
	await store.insertBatch( [ event( 'o1_paid', 'order:1' ), event( 'o2_paid', 'order:2' ) ], 1500, 1500 );
	const first = await round( store, endpoint, 2000, [] );
	expect( ids( first.claimed ) ).toEqual( [ 'o1_paid', 'o2_paid' ] );
	const failed = await round(
		store,
		endpoint,
		2000,
		first.claimed.map( ( delivery ) => ( { delivery, result: 'exhausted' as const } ) )
	);
	expect( failed.failingSince.get( endpoint.id ) ).toBe( 2000 );
	// o1_paid failed, so order 1's next event is not held behind it: it fails too.
	await store.insertBatch( [ event( 'o1_refund', 'order:1' ) ], 3000, 3000 );
	const refund = await round( store, ( endpoint = ( await store.getEndpoint( endpoint.id, 3000 ) )! ), 3000, [] );
	expect( ids( refund.claimed ) ).toEqual( [ 'o1_refund' ] );
	await round( store, endpoint, 3500, [ { delivery: refund.claimed[ 0 ]!, result: 'exhausted' } ] );
	// Order 1's last event arrives and waits (it is not claimed yet); a free event goes first.
	await store.insertBatch( [ event( 'free', null ) ], 4000, 4000 );
	const free = await round( store, endpoint, 4000, [], 1 );
	expect( ids( free.claimed ) ).toEqual( [ 'free' ] );
	// Its first attempt waits far ahead, as a late retry of a long outage would.
	await store.insertBatch( [ event( 'o1_done', 'order:1' ) ], 4100, 20 * DAY );
	return { endpoint: ( await store.getEndpoint( endpoint.id, 4100 ) )!, free: free.claimed[ 0 ]! };
}

describe.each( STORE_KINDS )( 'the re-send on recovery on %s', ( kind ) => {
	const backend = useBackend( kind );

	it( 'sends again what ran out of attempts during the streak, in order, before what came after it on its key', async () => {
		const store = await backend.open();
		const { endpoint, free } = await outage( store );
		expect( endpoint ).toMatchObject( { resendFailedOnRecovery: true, failingSince: 2000 } );
		// Failed before the streak began (before the last success): outside the window.
		await store.insertBatch( [ event( 'before', null ) ], 1000, 1000 );
		await backend.sql( "UPDATE deliveries SET status = 'failed', updated_at = 1900 WHERE event_id = 'before'" );

		// The free event succeeds: the endpoint recovered, and o1_done's far-off attempt is due now.
		const recovered = await round( store, endpoint, 10 * DAY, [ { delivery: free, result: 'succeeded' } ] );
		expect( recovered.recovered ).toEqual( [ { endpointId: endpoint.id, resent: 3, retriesDueNow: 1 } ] );
		expect( recovered.failingSince.get( endpoint.id ) ).toBeNull();
		// The heads of their keys go out first: o1_refund and o1_done wait behind o1_paid.
		expect( ids( recovered.claimed ) ).toEqual( [ 'o1_paid', 'o2_paid' ] );
		const [ resent ] = await store.deliveriesOfEvent( 'o1_paid' );
		expect( resent ).toMatchObject( { status: 'in_flight', resentOnRecoveryAt: 10 * DAY } );
		expect( ( await store.deliveriesOfEvent( 'before' ) )[ 0 ] ).toMatchObject( {
			status: 'failed',
			resentOnRecoveryAt: null,
		} );
		expect( ( await store.deliveriesOfEvent( 'o1_done' ) )[ 0 ] ).toMatchObject( {
			status: 'pending',
			nextAttemptAt: 10 * DAY,
			resentOnRecoveryAt: null,
		} );

		const paid = recovered.claimed.find( ( delivery ) => delivery.eventId === 'o1_paid' )!;
		expect( paid.cycleAttempts ).toBe( 0 ); // a fresh retry schedule
		const next = await round( store, endpoint, 10 * DAY + 1, [ { delivery: paid, result: 'succeeded' } ] );
		expect( ids( next.claimed ) ).toEqual( [ 'o1_refund' ] );
		const last = await round( store, endpoint, 10 * DAY + 2, [
			{ delivery: next.claimed[ 0 ]!, result: 'succeeded' },
		] );
		expect( ids( last.claimed ) ).toEqual( [ 'o1_done' ] );
		expect( last.recovered ).toEqual( [] ); // no streak running: nothing to end
	} );

	it( 'leaves alone what the URL guard refused, and what has no payload left', async () => {
		const store = await backend.open();
		let endpoint = await createEndpoint( store );
		await store.insertBatch(
			[ event( 'blocked', null ), event( 'cleared', null ), event( 'ok', null ) ],
			1500,
			1500
		);
		const claimed = ( await round( store, endpoint, 2000, [], 2 ) ).claimed;
		const blocked = claimed.find( ( delivery ) => delivery.eventId === 'blocked' )!;
		const cleared = claimed.find( ( delivery ) => delivery.eventId === 'cleared' )!;
		const more = await round( store, endpoint, 2000, [
			{ delivery: blocked, result: 'blocked' },
			{ delivery: cleared, result: 'exhausted' },
		] );
		await backend.sql( "UPDATE events SET payload_cleared_at = 2500 WHERE id = 'cleared'" );
		endpoint = ( await store.getEndpoint( endpoint.id, 3000 ) )!;
		const recovered = await round( store, endpoint, 3000, [
			{ delivery: more.claimed[ 0 ]!, result: 'succeeded' },
		] );
		expect( recovered.recovered ).toEqual( [ { endpointId: endpoint.id, resent: 0, retriesDueNow: 0 } ] );
		expect( await store.countByStatus() ).toMatchObject( { failed: 2, pending: 0, in_flight: 0 } );
	} );

	it( 'with the setting off, ends the streak and sends nothing again; the waiting retries are due all the same', async () => {
		const store = await backend.open();
		const { endpoint, free } = await outage( store, false );
		expect( endpoint.resendFailedOnRecovery ).toBe( false );
		const recovered = await round( store, endpoint, 10 * DAY, [ { delivery: free, result: 'succeeded' } ] );
		expect( recovered.recovered ).toEqual( [ { endpointId: endpoint.id, resent: 0, retriesDueNow: 1 } ] );
		expect( recovered.failingSince.get( endpoint.id ) ).toBeNull();
		// Nothing ahead of it any more: order 1's last event goes, now.
		expect( ids( recovered.claimed ) ).toEqual( [ 'o1_done' ] );
		expect( await store.countByStatus() ).toMatchObject( { failed: 3 } );

		// Turned on, it applies from the next recovery.
		expect(
			( await store.updateEndpoint( endpoint.id, { resendFailedOnRecovery: true }, 10 * DAY ) )
				?.resendFailedOnRecovery
		).toBe( true );
	} );

	it( 'two instances recording successes at once: the failed deliveries are sent again once', async () => {
		const one = await backend.open();
		const two = await backend.open();
		const endpoint = await createEndpoint( one );
		const failing = Array.from( { length: 40 }, ( _, i ) => event( `lost_${ i }`, `order:${ i }` ) );
		await one.insertBatch( failing, 1500, 1500 );
		const claimed = ( await round( one, endpoint, 2000, [], 40 ) ).claimed;
		await round(
			one,
			endpoint,
			2000,
			claimed.map( ( delivery ) => ( { delivery, result: 'exhausted' as const } ) ),
			0
		);
		await one.insertBatch( [ event( 'a', null ), event( 'b', null ) ], 3000, 3000 );
		const [ a ] = ( await round( one, endpoint, 3000, [], 1 ) ).claimed;
		const [ b ] = ( await round( two, endpoint, 3000, [], 1 ) ).claimed;
		// Both instances' caches say the streak runs, and both record a success at once.
		const cached = ( await one.getEndpoint( endpoint.id, 3000 ) )!;
		expect( cached.failingSince ).toBe( 2000 );
		const [ fromOne, fromTwo ] = await Promise.all( [
			round( one, cached, 4000, [ { delivery: a!, result: 'succeeded' } ], 0 ),
			round( two, cached, 4000, [ { delivery: b!, result: 'succeeded' } ], 0 ),
		] );
		// One of them ended the streak and sent the 40 again; the other found it ended.
		expect( [ ...fromOne.recovered, ...fromTwo.recovered ] ).toEqual( [
			{ endpointId: endpoint.id, resent: 40, retriesDueNow: 0 },
		] );
		expect( await one.countByStatus() ).toMatchObject( { pending: 40, failed: 0 } );
		const rows = await backend.sql< { n: number } >(
			'SELECT COUNT(*) AS n FROM deliveries WHERE resent_on_recovery_at = 4000'
		);
		expect( Number( rows[ 0 ]?.n ) ).toBe( 40 );
	} );
} );

describe( 'the re-send on recovery on the shared store', () => {
	const backend = useBackend( 'mysql' );

	it( 'a delivery that runs out of attempts just after another instance ended the streak comes back at the next recovery', async () => {
		const one = await backend.open();
		const two = await backend.open();
		const endpoint = await createEndpoint( one );
		await one.insertBatch( [ event( 'late', null ), event( 'a', null ), event( 'b', null ) ], 1500, 1500 );
		const [ late ] = ( await round( two, endpoint, 2000, [], 1 ) ).claimed;
		const [ first ] = ( await round( one, endpoint, 2000, [], 1 ) ).claimed;
		await round( one, endpoint, 2000, [ { delivery: first!, result: 'exhausted' } ], 0 );
		const failing = ( await one.getEndpoint( endpoint.id, 2000 ) )!;
		const [ second ] = ( await round( one, failing, 2100, [], 1 ) ).claimed;
		// Instance one ends the streak; instance two, whose cache still says it runs, then records a give-up.
		expect(
			( await round( one, failing, 3000, [ { delivery: second!, result: 'succeeded' } ], 0 ) ).recovered
		).toEqual( [ { endpointId: endpoint.id, resent: 1, retriesDueNow: 0 } ] );
		const after = await round( two, failing, 3100, [ { delivery: late!, result: 'exhausted' } ], 0 );
		expect( after.failingSince.get( endpoint.id ) ).toBe( 3100 );
		// The next success sends it again.
		const [ again ] = ( await round( one, ( await one.getEndpoint( endpoint.id, 3200 ) )!, 3200, [], 1 ) ).claimed;
		const next = await round( one, ( await one.getEndpoint( endpoint.id, 3300 ) )!, 3300, [
			{ delivery: again!, result: 'succeeded' },
		] );
		expect( next.recovered ).toEqual( [ { endpointId: endpoint.id, resent: 1, retriesDueNow: 0 } ] );
		expect( ( await one.deliveriesOfEvent( 'late' ) )[ 0 ] ).toMatchObject( { resentOnRecoveryAt: 3300 } );
	} );
} );

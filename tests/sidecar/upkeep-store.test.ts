import type { Completion } from '../../sidecar/src/model/deliveries';
import type { NewEvent } from '../../sidecar/src/model/events';
import type { QueueStore } from '../../sidecar/src/store/queue-store';
import { STORE_KINDS, useBackend, createTestEndpoint } from './support/stores-under-test';

const LEASE = { instanceId: 'instance-a', leaseMs: 60_000 };

function event( id: string ): NewEvent {
	return { id, type: 'order.paid', timestamp: '2026-11-24T10:00:00Z', orderingKey: null, data: { id } };
}

function failure( deliveryId: number, endpointId: string, now: number ): Completion {
	return {
		deliveryId,
		endpointId,
		status: 'failed',
		attemptNumber: 1,
		cycleAttempts: 1,
		trigger: 'scheduled',
		startedAt: now,
		durationMs: 5,
		statusCode: 503,
		errorCode: null,
		responseExcerpt: 'busy',
		nextAttemptAt: null,
		lastError: 'HTTP 503',
		now,
	};
}

function endpoint( store: QueueStore ) {
	return createTestEndpoint( store, [], 1000 );
}

/** The upkeep's store calls (notices, failure streaks, payload retention): the same answers on both stores. */
describe.each( STORE_KINDS )( 'the upkeep store calls on %s', ( kind ) => {
	const backend = useBackend( kind );

	it( 'keeps one failure streak, and disables with its notice once, only when the rule gives a reason', async () => {
		const store = await backend.open();
		const target = await endpoint( store );
		const other = await endpoint( store );
		await store.insertBatch( [ event( 'e1' ) ], 1000, 1000 );
		const [ claimed ] = await store.claimDue( target.id, 1000, 1, LEASE );
		await store.complete( failure( claimed!.id, target.id, 1000 ), LEASE );

		expect( await store.failureStreaks.markFailing( target.id, 1000 ) ).toBe( 1000 );
		expect( await store.failureStreaks.markFailing( target.id, 2000 ) ).toBe( 1000 ); // the streak goes on
		expect( await store.failureStreaks.markFailing( 'ep_missing', 2000 ) ).toBeNull();
		expect( await store.failureStreaks.failingSince( 1500 ) ).toEqual( [ target.id ] );
		expect( await store.failureStreaks.failingSince( 999 ) ).toEqual( [] );

		const seen: ( number | null )[] = [];
		expect( await store.failureStreaks.disableWithNotice( target.id, 3000, () => null ) ).toBe( false );
		expect(
			await store.failureStreaks.disableWithNotice( target.id, 3000, ( since ) => {
				seen.push( since );
				return 'failing for too long';
			} )
		).toBe( true );
		expect( seen ).toEqual( [ 1000 ] );
		expect( await store.failureStreaks.disableWithNotice( target.id, 3000, () => 'again' ) ).toBe( false );
		expect( await store.failureStreaks.disableWithNotice( 'ep_missing', 3000, () => 'gone' ) ).toBe( false );
		expect( await store.getEndpoint( target.id, 3000 ) ).toMatchObject( {
			status: 'disabled',
			disabledBy: 'auto',
			disabledReason: 'failing for too long',
		} );
		expect( await store.failureStreaks.failingSince( 5000 ) ).toEqual( [] ); // disabled: no longer swept

		const due = await store.notices.due( 3000, 10 );
		expect( due.map( ( item ) => item.notice ) ).toEqual( [
			{
				type: 'endpoint.disabled',
				endpoint_id: target.id,
				url: 'https://hooks.example/x',
				reason: 'failing for too long',
				failing_since: new Date( 1000 ).toISOString(),
				last_error: { at: new Date( 1000 ).toISOString(), status: 503, message: 'HTTP 503: busy' },
			},
		] );

		await store.failureStreaks.markFailing( other.id, 4000 );
		expect( await store.failureStreaks.clearFailing( other.id, 4100 ) ).toEqual( { resent: 0, retriesDueNow: 0 } );
		expect( await store.failureStreaks.clearFailing( other.id, 4200 ) ).toBeNull(); // no streak left to end
		expect( ( await store.getEndpoint( other.id, 4000 ) )?.failingSince ).toBeNull();
	} );

	it( 'hands out due notices, retries a refused one later, acknowledges once, and prunes acknowledged ones', async () => {
		const store = await backend.open();
		const target = await endpoint( store );
		await store.enableEndpoint( target.id, 2000 ); // queues endpoint.enabled
		expect( await store.notices.pendingCount() ).toBe( 1 );
		expect( await store.notices.due( 1999, 10 ) ).toEqual( [] );
		const [ item ] = await store.notices.due( 2000, 10 );
		expect( item ).toMatchObject( { notice: { type: 'endpoint.enabled', endpoint_id: target.id }, attempts: 0 } );

		await store.notices.failed( item!.id, 'HTTP 503', 2500 );
		expect( await store.notices.nextDue() ).toBe( 2500 );
		expect( await store.notices.due( 2400, 10 ) ).toEqual( [] );
		expect( await store.notices.due( 2500, 10 ) ).toMatchObject( [ { id: item!.id, attempts: 1 } ] );

		await store.notices.acknowledge( item!.id, 3000 );
		expect( await store.notices.isPending( item!.id ) ).toBe( false );
		expect( await store.notices.pendingCount() ).toBe( 0 );
		expect( await store.notices.nextDue() ).toBeUndefined();
		expect( await store.notices.due( 9000, 10 ) ).toEqual( [] );
		expect( await store.notices.prune( 3000, 10 ) ).toBe( 0 ); // acknowledged at 3000, not before
		expect( await store.notices.prune( 3001, 10 ) ).toBe( 1 );
	} );

	it( 'clears the payloads of events with nothing left to send and old response excerpts, keeping the rows', async () => {
		const store = await backend.open();
		const target = await endpoint( store );
		await store.insertBatch( [ event( 'done' ), event( 'waiting' ) ], 1000, 1000 );
		const [ claimed ] = await store.claimDue( target.id, 1000, 1, LEASE );
		expect( claimed?.eventId ).toBe( 'done' );
		await store.complete( failure( claimed!.id, target.id, 1000 ), LEASE );

		expect( await store.payloadRetention.clearPayloads( 1000, 10, 5000 ) ).toEqual( { payloads: 0, excerpts: 0 } );
		expect( await store.payloadRetention.clearPayloads( 2000, 10, 5000 ) ).toEqual( { payloads: 1, excerpts: 1 } );
		expect( await store.payloadRetention.clearPayloads( 2000, 10, 5000 ) ).toEqual( { payloads: 0, excerpts: 0 } );
		expect( await store.getEvent( 'done' ) ).toMatchObject( {
			payload: JSON.stringify( { type: 'order.paid', timestamp: '2026-11-24T10:00:00Z', data: {} } ),
			payloadClearedAt: 5000,
		} );
		expect( await store.getEvent( 'waiting' ) ).toMatchObject( { payloadClearedAt: null } );
		const [ delivery ] = await store.deliveriesOfEvent( 'done' );
		expect( delivery ).toMatchObject( {
			status: 'failed',
			attempts: [ { statusCode: 503, responseExcerpt: null } ],
		} );
	} );
} );

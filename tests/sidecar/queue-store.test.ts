import type { Completion } from '../../sidecar/src/model/deliveries';
import type { NewEvent } from '../../sidecar/src/model/events';
import type { EventType } from '../../sidecar/src/contracts/constants';
import type { QueueStore } from '../../sidecar/src/store/queue-store';
import { MYSQL_MIGRATIONS } from '../../sidecar/src/store/mysql/mysql-migrations';
import { STORE_KINDS, useBackend, createTestEndpoint } from './support/stores-under-test';

const LEASE = { instanceId: 'instance-a', leaseMs: 60_000 };

function event( id: string, orderingKey: string | null = null, type: NewEvent[ 'type' ] = 'order.paid' ): NewEvent {
	return { id, type, timestamp: '2026-11-24T10:00:00Z', orderingKey, data: { id } };
}

function success( deliveryId: number, endpointId: string, now: number ): Completion {
	return {
		deliveryId,
		endpointId,
		status: 'succeeded',
		attemptNumber: 1,
		cycleAttempts: 1,
		trigger: 'scheduled',
		startedAt: now,
		durationMs: 5,
		statusCode: 200,
		errorCode: null,
		responseExcerpt: 'ok',
		nextAttemptAt: null,
		lastError: null,
		now,
	};
}

function endpoint( store: QueueStore, types: EventType[] = [] ) {
	return createTestEndpoint( store, types, 1000 );
}

describe.each( STORE_KINDS )( 'the queue store on %s', ( kind ) => {
	const backend = useBackend( kind );

	it( 'stores a batch with one delivery per subscribed active endpoint, and a repeated id is a no-op', async () => {
		const store = await backend.open();
		const all = await endpoint( store );
		const refundsOnly = await endpoint( store, [ 'order.refunded' ] );
		const first = await store.insertBatch( [ event( 'e1' ), event( 'e2', null, 'order.refunded' ) ], 2000, 2000 );
		expect( first.accepted ).toEqual( [ 'e1', 'e2' ] );
		expect( first.duplicates ).toEqual( [] );
		expect( new Set( first.endpointIds ) ).toEqual( new Set( [ all.id, refundsOnly.id ] ) );
		const again = await store.insertBatch( [ event( 'e1' ), event( 'e3' ) ], 3000, 3000 );
		expect( again.accepted ).toEqual( [ 'e3' ] );
		expect( again.duplicates ).toEqual( [ 'e1' ] );
		expect( ( await store.deliveriesOfEvent( 'e1' ) ).map( ( d ) => d.endpointId ) ).toEqual( [ all.id ] );
		expect( new Set( ( await store.deliveriesOfEvent( 'e2' ) ).map( ( d ) => d.endpointId ) ) ).toEqual(
			new Set( [ all.id, refundsOnly.id ] )
		);
		expect( ( await store.getEvent( 'e1' ) )?.payload ).toBe(
			JSON.stringify( { type: 'order.paid', timestamp: '2026-11-24T10:00:00Z', data: { id: 'e1' } } )
		);
		expect( await store.getEvent( 'nope' ) ).toBeUndefined();
		expect( await store.countByStatus() ).toEqual( { pending: 4, in_flight: 0, failed: 0, cancelled: 0 } );
	} );

	it( 'claims only what is due, and only the head of each ordering key until it finishes', async () => {
		const store = await backend.open();
		const target = await endpoint( store );
		await store.insertBatch(
			[ event( 'k1', 'order:1' ), event( 'k2', 'order:1' ), event( 'free' ), event( 'other', 'order:2' ) ],
			1000,
			1000
		);
		await store.insertBatch( [ event( 'later' ) ], 1000, 5000 );
		const claimed = await store.claimDue( target.id, 2000, 10, LEASE );
		expect( claimed.map( ( c ) => c.eventId ).sort() ).toEqual( [ 'free', 'k1', 'other' ] );
		expect( await store.claimDue( target.id, 2000, 10, LEASE ) ).toEqual( [] );
		expect( await store.nextDueAfter( 2000 ) ).toBe( 5000 );

		const head = claimed.find( ( c ) => c.eventId === 'k1' )!;
		expect( await store.complete( success( head.id, target.id, 2100 ), LEASE ) ).toBe( true );
		expect( ( await store.claimDue( target.id, 2200, 10, LEASE ) ).map( ( c ) => c.eventId ) ).toEqual( [ 'k2' ] );
		const [ delivery ] = await store.deliveriesOfEvent( 'k1' );
		expect( delivery ).toMatchObject( { status: 'succeeded', attemptCount: 1, lastStatusCode: 200 } );
		expect( delivery?.attempts ).toEqual( [
			expect.objectContaining( {
				attemptNumber: 1,
				startedAt: 2100,
				durationMs: 5,
				statusCode: 200,
				trigger: 'scheduled',
			} ),
		] );
	} );

	it( 'puts the attempts a restart cut short ahead of the backlog that came due after them', async () => {
		const store = await backend.open();
		const target = await endpoint( store );
		await store.insertBatch( [ event( 'cut-1', 'order:1' ), event( 'cut-2' ) ], 1000, 1000 );
		// Claimed, then the instance died with them in flight.
		expect( ( await store.claimDue( target.id, 2000, 10, LEASE ) ).map( ( c ) => c.eventId ).sort() ).toEqual( [
			'cut-1',
			'cut-2',
		] );
		await store.insertBatch(
			Array.from( { length: 30 }, ( _, i ) => event( `backlog-${ i }` ) ),
			3000,
			3000
		);
		expect( await store.recoverInFlight( LEASE, 10_000 ) ).toBe( 2 );
		expect( ( await store.claimDue( target.id, 10_000, 2, LEASE ) ).map( ( c ) => c.eventId ).sort() ).toEqual( [
			'cut-1',
			'cut-2',
		] );
	} );

	it( 'shares endpoints and their secrets; a deleted endpoint takes its deliveries with it', async () => {
		const store = await backend.open();
		const created = await endpoint( store );
		const reader = await backend.open();
		expect( ( await reader.getEndpoint( created.id, 2000 ) )?.secrets.map( ( s ) => s.secret ) ).toEqual( [
			'whsec_test',
		] );
		expect( ( await reader.listEndpoints( 2000 ) ).map( ( e ) => e.id ) ).toEqual( [ created.id ] );
		await store.insertBatch( [ event( 'e1' ) ], 1000, 1000 );
		expect( await reader.deleteEndpoint( created.id, 3000 ) ).toEqual( { deleted: true, droppedNotices: 0 } );
		expect( await store.deleteEndpoint( created.id, 3000 ) ).toEqual( { deleted: false, droppedNotices: 0 } );
		expect( await store.deliveriesOfEvent( 'e1' ) ).toEqual( [] );
	} );

	it( 'updates only the fields given, and rotates a secret keeping the old one for the grace period', async () => {
		const store = await backend.open();
		const created = await endpoint( store );
		const updated = await store.updateEndpoint(
			created.id,
			{ description: 'billing', eventTypes: [ 'order.paid' ] },
			2000
		);
		expect( updated ).toMatchObject( {
			url: created.url,
			description: 'billing',
			eventTypes: [ 'order.paid' ],
			maxConcurrency: 4,
			updatedAt: 2000,
		} );
		expect( await store.updateEndpoint( 'ep_missing', { description: 'x' }, 2000 ) ).toBeUndefined();

		const rotated = await store.rotateEndpointSecret( created.id, 'whsec_new', 500, 3000 );
		expect( rotated?.secrets ).toEqual( [
			{ secret: 'whsec_new', createdAt: 3000, expiresAt: null },
			{ secret: 'whsec_test', createdAt: 1000, expiresAt: 3500 },
		] );
		expect( ( await store.getEndpoint( created.id, 3500 ) )?.secrets.map( ( s ) => s.secret ) ).toEqual( [
			'whsec_new',
		] );
		expect( await store.rotateEndpointSecret( 'ep_missing', 'whsec_x', 0, 3000 ) ).toBeUndefined();
	} );

	it( 'disables (cancelling what is queued) and enables with or without redelivery', async () => {
		const store = await backend.open();
		const target = await endpoint( store );
		await store.insertBatch( [ event( 'before' ) ], 1000, 1000 );
		expect( await store.disableEndpoint( target.id, 'maintenance', 'owner', 2000 ) ).toBe( true );
		expect( await store.disableEndpoint( target.id, 'again', 'owner', 2100 ) ).toBe( false );
		expect( await store.getEndpoint( target.id, 2100 ) ).toMatchObject( {
			status: 'disabled',
			disabledReason: 'maintenance',
			disabledBy: 'owner',
			disabledAt: 2000,
		} );
		expect( ( await store.deliveriesOfEvent( 'before' ) )[ 0 ] ).toMatchObject( { status: 'cancelled' } );
		await store.insertBatch( [ event( 'while-disabled' ) ], 2500, 2500 );

		// The owner's disable: no redelivery unless asked; what was left out is counted.
		expect( await store.enableEndpoint( target.id, 3000 ) ).toEqual( {
			enabled: true,
			redelivered: false,
			requeued: 0,
			missed: 0,
			skipped: 2,
		} );
		expect( ( await store.enableEndpoint( target.id, 3100 ) ).enabled ).toBe( false );

		await store.disableEndpoint( target.id, 'maintenance', 'owner', 4000 );
		await store.insertBatch( [ event( 'later' ) ], 4500, 4500 );
		expect( await store.enableEndpoint( target.id, 5000, true ) ).toEqual( {
			enabled: true,
			redelivered: true,
			requeued: 0,
			missed: 1,
			skipped: 0,
		} );
		const { deliveries, total } = await store.listDeliveries( {
			endpointId: target.id,
			status: 'pending',
			page: 1,
			perPage: 10,
		} );
		expect( total ).toBe( 1 );
		expect( deliveries.map( ( d ) => [ d.eventId, d.eventType ] ) ).toEqual( [ [ 'later', 'order.paid' ] ] );
	} );

	it( 'parks a retry whose endpoint was disabled while the attempt ran as cancelled, and enabling brings it back', async () => {
		const store = await backend.open();
		const target = await endpoint( store );
		await store.insertBatch( [ event( 'in-flight' ), event( 'queued' ) ], 1000, 1000 );
		const [ claimed ] = await store.claimDue( target.id, 1000, 1, LEASE );
		// Another instance (or the owner through any instance) disables it meanwhile.
		expect( await store.disableEndpoint( target.id, 'maintenance', 'owner', 1500 ) ).toBe( true );
		const retry: Completion = {
			...success( claimed!.id, target.id, 2000 ),
			status: 'pending',
			statusCode: 500,
			responseExcerpt: 'busy',
			nextAttemptAt: 7000,
			lastError: 'HTTP 500',
		};
		expect( await store.complete( retry, LEASE ) ).toBe( true );
		const [ parked ] = await store.deliveriesOfEvent( claimed!.eventId );
		expect( parked ).toMatchObject( {
			status: 'cancelled',
			nextAttemptAt: null,
			lastError: 'endpoint disabled: maintenance',
			attemptCount: 1,
		} );
		expect( parked?.attempts.map( ( a ) => a.statusCode ) ).toEqual( [ 500 ] );
		expect( await store.nextDueAfter( 2000 ) ).toBeUndefined();

		// A success or a final failure stays what it was: only a retry waits on the endpoint.
		expect( await store.enableEndpoint( target.id, 3000, true ) ).toMatchObject( { enabled: true, requeued: 2 } );
		const [ again ] = await store.claimDue( target.id, 3000, 1, LEASE );
		expect( again?.eventId ).toBe( claimed!.eventId );
		await store.disableEndpoint( target.id, 'maintenance', 'owner', 3500 );
		expect( await store.complete( success( again!.id, target.id, 4000 ), LEASE ) ).toBe( true );
		expect( ( await store.deliveriesOfEvent( claimed!.eventId ) )[ 0 ] ).toMatchObject( { status: 'succeeded' } );
	} );

	it( 'lists deliveries newest first, filtered and paged', async () => {
		const store = await backend.open();
		const paid = await endpoint( store, [ 'order.paid' ] );
		const all = await endpoint( store );
		await store.insertBatch( [ event( 'p1' ), event( 'r1', null, 'order.refunded' ), event( 'p2' ) ], 1000, 1000 );
		const page = await store.listDeliveries( { page: 1, perPage: 2 } );
		expect( page.total ).toBe( 5 );
		expect( page.deliveries.map( ( d ) => d.eventId ) ).toEqual( [ 'p2', 'p2' ] );
		const refunded = await store.listDeliveries( { type: 'order.refunded', page: 1, perPage: 10 } );
		expect( refunded.deliveries.map( ( d ) => d.endpointId ) ).toEqual( [ all.id ] );
		const second = await store.listDeliveries( { endpointId: paid.id, page: 2, perPage: 1 } );
		expect( second ).toMatchObject( { total: 2, deliveries: [ { eventId: 'p1', status: 'pending' } ] } );
	} );

	it( 'prunes finished deliveries and the events nothing refers to any more, never pending ones', async () => {
		const store = await backend.open();
		const target = await endpoint( store );
		await store.insertBatch( [ event( 'old-done' ), event( 'old-pending' ) ], 1000, 1000 );
		const [ claimed ] = await store.claimDue( target.id, 1000, 1, LEASE );
		await store.complete( success( claimed!.id, target.id, 1000 ), LEASE );
		expect( await store.prune( 5000, 100 ) ).toEqual( { deliveries: 1, events: 1 } );
		expect( await store.getEvent( claimed!.eventId ) ).toBeUndefined();
		expect( await store.countByStatus() ).toMatchObject( { pending: 1 } );
	} );
} );

describe( 'several instances on one MariaDB', () => {
	const backend = useBackend( 'mysql' );

	it( 'migrates once when three instances start together, and refuses a newer schema', async () => {
		const stores = await Promise.all( [ backend.open(), backend.open(), backend.open() ] );
		expect( await backend.sql( 'SELECT version FROM sidecar_schema' ) ).toEqual( [
			{ version: MYSQL_MIGRATIONS.length },
		] );
		for ( const store of stores ) {
			expect( await store.schemaVersion() ).toEqual( {
				current: MYSQL_MIGRATIONS.length,
				latest: MYSQL_MIGRATIONS.length,
			} );
		}
		await backend.sql( 'UPDATE sidecar_schema SET version = ?', [ MYSQL_MIGRATIONS.length + 1 ] );
		await expect( backend.open() ).rejects.toThrow( /newer than this sidecar knows/ );
	} );

	it( 'runs a migration cut short again: what it had already added is taken as done, anything else still fails', async () => {
		await backend.open();
		// As if migration 2's statements (keys and a column) had run but the version had not moved yet.
		await backend.sql( 'UPDATE sidecar_schema SET version = 1' );
		await backend.open();
		expect( await backend.sql( 'SELECT version FROM sidecar_schema' ) ).toEqual( [
			{ version: MYSQL_MIGRATIONS.length },
		] );
		expect(
			await backend.sql(
				`SELECT index_name FROM information_schema.statistics
				 WHERE table_schema = DATABASE() AND index_name IN ('events_payload_held', 'attempts_excerpt_held')
				 GROUP BY index_name ORDER BY index_name`
			)
		).toEqual( [ { index_name: 'attempts_excerpt_held' }, { index_name: 'events_payload_held' } ] );
		// A real error is not swallowed: a table the migration needs is gone.
		await backend.sql( 'UPDATE sidecar_schema SET version = 1' );
		await backend.sql( 'DROP TABLE attempts' );
		await expect( backend.open() ).rejects.toThrow( /attempts/ );
	} );

	it( 'migration 3 makes the verification log say what each sender got, and changes nothing when run again', async () => {
		await backend.open();
		await backend.sql( 'DELETE FROM inbound_log' );
		// Rows as the sidecar wrote them before: the verdict, and WordPress's answer when it reported one.
		await backend.sql(
			`INSERT INTO inbound_log (at, source, outcome, status, code, event_id, answer_status) VALUES
			 (1, 'acme', 'verified', 200, NULL, 'msg_1', 202), (2, 'acme', 'verified', 200, NULL, 'msg_2', 503),
			 (3, 'acme', 'verified', 200, NULL, 'msg_3', NULL), (4, 'acme', 'refused', 401, 'invalid_signature', NULL, NULL)`
		);
		const expected = [
			{ at: 1, outcome: 'verified', answer_status: 202 },
			{ at: 2, outcome: 'not_stored', answer_status: 503 },
			{ at: 3, outcome: 'unconfirmed', answer_status: null },
			{ at: 4, outcome: 'refused', answer_status: 401 },
		];
		const rows = () => backend.sql( 'SELECT at, outcome, answer_status FROM inbound_log ORDER BY at' );
		for ( let run = 0; run < 2; run++ ) {
			await backend.sql( 'UPDATE sidecar_schema SET version = 2' );
			await backend.open();
			expect( await rows() ).toEqual( expected );
		}
	} );

	it( 'gives each due delivery to one instance when several claim at once (SKIP LOCKED)', async () => {
		const [ a, b, c ] = await Promise.all( [ backend.open(), backend.open(), backend.open() ] );
		const target = await endpoint( a! );
		await a!.insertBatch(
			Array.from( { length: 300 }, ( _x, i ) => event( `e${ i }` ) ),
			1000,
			1000
		);
		const claims = await Promise.all(
			[ a!, b!, c! ].flatMap( ( store, n ) =>
				Array.from( { length: 4 }, () =>
					store.claimDue( target.id, 2000, 40, { instanceId: `i${ n }`, leaseMs: 60_000 } )
				)
			)
		);
		const ids = claims.flat().map( ( claim ) => claim.id );
		expect( new Set( ids ).size ).toBe( ids.length );
		const leased = await backend.sql< { claimed_by: string; n: number } >(
			`SELECT claimed_by, COUNT(*) AS n FROM deliveries WHERE status = 'in_flight' GROUP BY claimed_by ORDER BY claimed_by`
		);
		expect( leased.reduce( ( sum, row ) => sum + Number( row.n ), 0 ) ).toBe( ids.length );
	} );

	it( 'lets another instance take a delivery over once its lease expires, and the late completion is refused', async () => {
		const [ a, b ] = await Promise.all( [ backend.open(), backend.open() ] );
		const target = await endpoint( a! );
		await a!.insertBatch( [ event( 'k1', 'order:9' ), event( 'k2', 'order:9' ) ], 1000, 1000 );
		const leaseA = { instanceId: 'a', leaseMs: 1000 };
		const leaseB = { instanceId: 'b', leaseMs: 1000 };
		const [ head ] = await a!.claimDue( target.id, 1000, 10, leaseA );
		expect( head?.eventId ).toBe( 'k1' );
		// Held: nothing for b (k2 waits behind k1 on every instance).
		expect( await b!.claimDue( target.id, 1500, 10, leaseB ) ).toEqual( [] );
		// Expired (a died): b takes k1 again, still not k2.
		expect( ( await b!.claimDue( target.id, 2001, 10, leaseB ) ).map( ( c ) => c.eventId ) ).toEqual( [ 'k1' ] );
		expect( await a!.complete( success( head!.id, target.id, 2100 ), leaseA ) ).toBe( false );
		expect( await b!.complete( success( head!.id, target.id, 2200 ), leaseB ) ).toBe( true );
		expect( ( await a!.claimDue( target.id, 2300, 10, leaseA ) ).map( ( c ) => c.eventId ) ).toEqual( [ 'k2' ] );
		expect( await backend.sql( 'SELECT instance_id, started_at, ended_at FROM attempts ORDER BY id' ) ).toEqual( [
			{ instance_id: 'a', started_at: 2100, ended_at: 2105 },
			{ instance_id: 'b', started_at: 2200, ended_at: 2205 },
		] );
	} );

	it( 'runs a named job on one instance at a time (GET_LOCK without waiting)', async () => {
		const [ a, b ] = await Promise.all( [ backend.open(), backend.open() ] );
		let release!: () => void;
		const held = new Promise< void >( ( resolve ) => {
			release = resolve;
		} );
		let started!: () => void;
		const running = new Promise< void >( ( resolve ) => {
			started = resolve;
		} );
		const first = a!.exclusively( 'maintenance', async () => {
			started();
			await held;
		} );
		await running;
		let ran = false;
		expect( await b!.exclusively( 'maintenance', async () => void ( ran = true ) ) ).toBe( false );
		expect( ran ).toBe( false );
		release();
		expect( await first ).toBe( true );
		expect( await b!.exclusively( 'maintenance', async () => void ( ran = true ) ) ).toBe( true );
		expect( ran ).toBe( true );
	} );
} );

import { loadConfig } from '../../sidecar/src/config';
import { createLogger } from '../../sidecar/src/logger';
import { Dispatcher } from '../../sidecar/src/outbound/dispatcher';
import { generateSecret } from '../../sidecar/src/outbound/signing';
import type { NewEvent } from '../../sidecar/src/model/events';
import type { QueueStore } from '../../sidecar/src/store/queue-store';
import { TEST_ENV } from './support/harness';
import { startReceiver, type Receiver } from './support/receiver';
import { waitUntil } from '../support/wait-until';
import { STORE_KINDS, startBackend, type Backend } from './support/stores-under-test';

const config = loadConfig( { ...TEST_ENV, SIDECAR_LOG_LEVEL: 'silent' } );
const log = createLogger( process.env.TEST_LOG ?? 'silent' );

function events( prefix: string, count: number ): NewEvent[] {
	return Array.from( { length: count }, ( _x, i ) => ( {
		id: `${ prefix }_${ i }`,
		type: ( [ 'order.created', 'order.paid', 'order.refunded' ] as const )[ i % 3 ] as NewEvent[ 'type' ],
		timestamp: '2026-11-24T10:00:00Z',
		orderingKey: `order:${ Math.floor( i / 3 ) }`,
		data: { i },
	} ) );
}

/** Each order's events reached the receiver in order (first arrivals), and every event did. */
function expectInOrder( receiver: Receiver, prefix: string, count: number ): void {
	const first = new Map< string, number >();
	receiver.requests.forEach( ( request, index ) => {
		const id = request.headers[ 'webhook-id' ] as string;
		if ( ! first.has( id ) ) {
			first.set( id, index );
		}
	} );
	expect( first.size ).toBe( count );
	for ( let i = 0; i + 1 < count; i++ ) {
		if ( Math.floor( i / 3 ) === Math.floor( ( i + 1 ) / 3 ) ) {
			expect( first.get( `${ prefix }_${ i }` ) as number ).toBeLessThan(
				first.get( `${ prefix }_${ i + 1 }` ) as number
			);
		}
	}
}

/** An endpoint to the test's receiver, created through this store. */
function endpointOn( store: QueueStore, maxConcurrency: number, receiver: Receiver ) {
	return store.createEndpoint(
		{
			url: receiver.url + '/hook',
			description: '',
			eventTypes: [],
			maxConcurrency,
			wcCompatSignature: false,
			secret: generateSecret(),
		},
		Date.now()
	);
}

/** The store with its round replaced (the test decides when a round goes on); the rest is the store's. */
function withRound( store: QueueStore, round: QueueStore[ 'round' ] ): QueueStore {
	return new Proxy( store, {
		get( target, property ) {
			if ( property === 'round' ) {
				return round;
			}
			const value: unknown = Reflect.get( target, property, target );
			return typeof value === 'function' ? value.bind( target ) : value;
		},
	} );
}

describe.each( STORE_KINDS )( 'the shared dispatcher on %s', ( kind ) => {
	let backend: Backend;
	let receiver: Receiver;
	const dispatchers: Dispatcher[] = [];
	beforeAll( async () => {
		backend = await startBackend( kind );
	} );
	afterAll( async () => {
		await backend?.stop();
	} );
	beforeEach( async () => {
		await backend.reset();
	} );
	afterEach( async () => {
		await Promise.all( dispatchers.splice( 0 ).map( ( dispatcher ) => dispatcher.stop( 1000 ) ) );
		await receiver?.close();
	} );

	const dispatcherOn = ( store: QueueStore, pollMs = 1000 ) => {
		const dispatcher = new Dispatcher( { config, log, store, coordination: { kind: 'leases', pollMs } } );
		dispatchers.push( dispatcher );
		dispatcher.start();
		return dispatcher;
	};

	it( 'sends every event once, in order per ordering key, retrying a failed attempt; the attempts are recorded', async () => {
		let refusedOnce = false;
		receiver = await startReceiver( ( request, res ) => {
			if ( request.headers[ 'webhook-id' ] === 'ev_4' && ! refusedOnce ) {
				refusedOnce = true;
				res.writeHead( 500 ).end( 'try again' );
				return;
			}
			res.writeHead( 200 ).end( 'ok' );
		} );
		const store = await backend.open();
		const endpoint = await endpointOn( store, 4, receiver );
		const dispatcher = dispatcherOn( store );
		const now = Date.now();
		const stored = await store.insertBatch( events( 'ev', 30 ), now, dispatcher.firstAttemptAt( now ) );
		dispatcher.wake( stored.endpointIds );
		await waitUntil(
			async () =>
				( await store.countByStatus() ).pending + ( await store.countByStatus() ).in_flight === 0 &&
				receiver.requests.length >= 31,
			20_000,
			'queue drained'
		);
		expectInOrder( receiver, 'ev', 30 );
		expect( receiver.requests ).toHaveLength( 31 ); // ev_4 twice: refused, then retried
		const [ delivery ] = await store.deliveriesOfEvent( 'ev_4' );
		expect( delivery ).toMatchObject( { endpointId: endpoint.id, status: 'succeeded', attemptCount: 2 } );
		expect( delivery?.attempts.map( ( a ) => a.statusCode ) ).toEqual( [ 500, 200 ] );
	} );

	it( 'sends a retry when it is due, not at the next poll', async () => {
		let calls = 0;
		receiver = await startReceiver( ( _request, res ) => void res.writeHead( ++calls === 1 ? 500 : 200 ).end() );
		const store = await backend.open();
		await endpointOn( store, 1, receiver );
		// The schedule retries after 50 ms; the next poll would come a minute later.
		const dispatcher = dispatcherOn( store, 60_000 );
		const now = Date.now();
		const stored = await store.insertBatch( events( 'retry', 1 ), now, dispatcher.firstAttemptAt( now ) );
		dispatcher.wake( stored.endpointIds );
		await receiver.waitFor( ( requests ) => requests.length === 2, 10_000 );
		await waitUntil(
			async () => ( await store.deliveriesOfEvent( 'retry_0' ) )[ 0 ]?.status === 'succeeded',
			10_000,
			'the retry recorded'
		);
		const [ delivery ] = await store.deliveriesOfEvent( 'retry_0' );
		expect( delivery?.attempts.map( ( a ) => a.statusCode ) ).toEqual( [ 500, 200 ] );
	} );

	it( 'stopping while a round claims: what the round claimed is sent and recorded before stop() returns', async () => {
		receiver = await startReceiver();
		const store = await backend.open();
		await endpointOn( store, 4, receiver );
		// The store answers a round that claimed only once the test lets it: stop() comes in between.
		let release: () => void = () => undefined;
		const released = new Promise< void >( ( resolve ) => ( release = resolve ) );
		let claimedInRound: () => void = () => undefined;
		const roundClaimed = new Promise< void >( ( resolve ) => ( claimedInRound = resolve ) );
		const gated = withRound( store, async ( input ) => {
			const result = await store.round( input );
			if ( result.claimed.length > 0 ) {
				claimedInRound();
				await released;
			}
			return result;
		} );
		const dispatcher = dispatcherOn( gated, 60_000 );
		const now = Date.now();
		const stored = await store.insertBatch( events( 'stop', 3 ), now, dispatcher.firstAttemptAt( now ) );
		dispatcher.wake( stored.endpointIds );
		await roundClaimed;
		const stopped = dispatcher.stop( 10_000 );
		release();
		await stopped;
		// Nothing left held; the order's next two events wait for the next start.
		expect( await store.countByStatus() ).toMatchObject( { pending: 2, in_flight: 0 } );
		expect( receiver.requests.map( ( request ) => request.headers[ 'webhook-id' ] ) ).toEqual( [ 'stop_0' ] );
		expect( ( await store.deliveriesOfEvent( 'stop_0' ) )[ 0 ] ).toMatchObject( {
			status: 'succeeded',
			attemptCount: 1,
		} );
	} );

	it( 'claims nothing more for an endpoint whose 410 Gone waits to be recorded', async () => {
		const store = await backend.open();
		// A round that begins while the 410 is on its way is held until the attempt has ended: its
		// slot is free then, and the 410 waits for the next round to be recorded.
		let holdNextRound = false;
		let roundHeld: () => void = () => undefined;
		const held = new Promise< void >( ( resolve ) => ( roundHeld = resolve ) );
		let release: () => void = () => undefined;
		const released = new Promise< void >( ( resolve ) => ( release = resolve ) );
		const gated = withRound( store, async ( input ) => {
			if ( holdNextRound && input.finished.length === 0 ) {
				holdNextRound = false;
				roundHeld();
				await released;
			}
			return store.round( input );
		} );
		receiver = await startReceiver( async ( _request, res ) => {
			holdNextRound = true;
			dispatcher.wake();
			await held;
			res.writeHead( 410 ).end( 'gone' );
		} );
		const endpoint = await endpointOn( store, 1, receiver );
		const dispatcher = dispatcherOn( gated, 60_000 );
		// gone_0 to gone_2 are one order's (sent one after the other), gone_3 another's.
		const now = Date.now();
		const stored = await store.insertBatch( events( 'gone', 4 ), now, dispatcher.firstAttemptAt( now ) );
		dispatcher.wake( stored.endpointIds );
		await held;
		await waitUntil( () => dispatcher.inFlightCount( endpoint.id ) === 0, 10_000, 'the 410 answered' );
		release();
		await waitUntil(
			async () => ( await store.getEndpoint( endpoint.id, Date.now() ) )?.status === 'disabled',
			10_000,
			'the endpoint disabled'
		);
		expect( receiver.requests.map( ( request ) => request.headers[ 'webhook-id' ] ) ).toEqual( [ 'gone_0' ] );
		expect( ( await store.deliveriesOfEvent( 'gone_3' ) )[ 0 ] ).toMatchObject( {
			status: 'cancelled',
			attemptCount: 0,
		} );
	} );

	if ( kind === 'mysql' ) {
		it( 'shares the queue between instances: events stored through one are sent by the other, each once', async () => {
			receiver = await startReceiver();
			const [ writer, other ] = await Promise.all( [ backend.open(), backend.open() ] );
			await endpointOn( writer!, 4, receiver );
			// Only the other instance runs a dispatcher: it finds the events at its next poll.
			const dispatcher = dispatcherOn( other!, 100 );
			const now = Date.now();
			await writer!.insertBatch( events( 'shared', 60 ), now, now );
			await waitUntil( () => receiver.requests.length >= 60, 20_000, 'every event delivered' );
			await waitUntil(
				async () => ( await other!.countByStatus() ).in_flight === 0,
				10_000,
				'attempts recorded'
			);
			expectInOrder( receiver, 'shared', 60 );
			const rows = await backend.sql< { instance_id: string; n: number } >(
				'SELECT instance_id, COUNT(*) AS n FROM attempts GROUP BY instance_id'
			);
			expect( rows ).toEqual( [ { instance_id: dispatcher.instanceId, n: 60 } ] );
		} );

		it( 'sends at once an event stored through it for an endpoint created through another instance since its last poll', async () => {
			receiver = await startReceiver();
			const [ creator, storer ] = await Promise.all( [ backend.open(), backend.open() ] );
			// The storing instance has read the endpoints (none yet); its next poll is a minute away.
			const read = jest.spyOn( storer!, 'listEndpoints' );
			const dispatcher = dispatcherOn( storer!, 60_000 );
			await waitUntil(
				async () => read.mock.results.length > 0 && ( await read.mock.results[ 0 ]!.value ).length === 0,
				10_000,
				'the first read of the endpoints'
			);
			await endpointOn( creator!, 1, receiver );
			const now = Date.now();
			const stored = await storer!.insertBatch( events( 'fresh', 1 ), now, dispatcher.firstAttemptAt( now ) );
			dispatcher.wake( stored.endpointIds );
			await receiver.waitFor( ( requests ) => requests.length === 1, 10_000 );
			expect( receiver.requests[ 0 ]?.headers[ 'webhook-id' ] ).toBe( 'fresh_0' );
		} );

		it( 'splits the work of two running instances without sending anything twice', async () => {
			receiver = await startReceiver();
			const [ a, b ] = await Promise.all( [ backend.open(), backend.open() ] );
			await endpointOn( a!, 4, receiver );
			const first = dispatcherOn( a!, 50 );
			const second = dispatcherOn( b!, 50 );
			const now = Date.now();
			await a!.insertBatch( events( 'split', 150 ), now, now );
			await waitUntil( () => receiver.requests.length >= 150, 30_000, 'every event delivered' );
			await waitUntil( async () => ( await a!.countByStatus() ).in_flight === 0, 10_000, 'attempts recorded' );
			expectInOrder( receiver, 'split', 150 );
			expect( receiver.requests ).toHaveLength( 150 );
			const rows = await backend.sql< { instance_id: string } >( 'SELECT DISTINCT instance_id FROM attempts' );
			expect( rows.map( ( row ) => row.instance_id ).sort() ).toEqual(
				[ first.instanceId, second.instanceId ].sort()
			);
		} );
	}
} );

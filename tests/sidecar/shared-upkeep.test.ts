import mysql from 'mysql2/promise';
import { loadConfig } from '../../sidecar/src/config';
import { createLogger } from '../../sidecar/src/logger';
import { createOutboundRuntime, type OutboundRuntime } from '../../sidecar/src/outbound/runtime';
import { CALLBACK_ROUTE } from '../../sidecar/src/outbound/wordpress-notice';
import { MysqlStore } from '../../sidecar/src/store/mysql/mysql-store';
import { startMariaDb, type RunningMariaDb } from '../support/mariadb';
import { sleep, waitUntil } from '../support/wait-until';
import { apiClient, orderEvent, type ApiCall } from './support/api-client';
import { TEST_ENV, TEST_KEY } from './support/harness';
import { startReceiver, startWordPress, type Receiver } from './support/receiver';
import { serveOnLoopback } from './support/loopback-server';
import { instanceApp } from './support/instance-app';
import { ManualClock } from './support/manual-clock';

const log = createLogger( process.env.TEST_LOG ?? 'silent' );

interface Instance {
	api: ApiCall;
	store: MysqlStore;
	outbound: OutboundRuntime;
	close: () => Promise< void >;
}

/**
 * One sidecar instance on the shared store, in this process, wired as cli-start.ts
 * wires it (createOutboundRuntime): dispatcher, notice sender and maintenance, all started, on
 * the clock the test moves (both instances on one). The dispatcher polls once a minute, so
 * deliveries follow from requests made to an instance.
 */
async function startInstance(
	url: string,
	name: string,
	env: NodeJS.ProcessEnv,
	clock: ManualClock
): Promise< Instance > {
	const config = loadConfig( { ...TEST_ENV, SIDECAR_LOG_LEVEL: 'silent', ...env } );
	const store = await MysqlStore.open( { url } );
	const outbound = createOutboundRuntime( {
		config,
		log,
		store,
		instanceId: name,
		coordination: { kind: 'leases', pollMs: 60_000 },
		busyRetryMs: 50,
		clock,
	} );
	outbound.start();
	const app = instanceApp( store, config, log, outbound.dispatcher );
	const server = await serveOnLoopback( app );
	return {
		api: apiClient( server.url, TEST_KEY ),
		store,
		outbound,
		close: async () => {
			await outbound.stop( 1000 );
			await server.close();
			await store.close();
		},
	};
}

/** What WordPress's callback route received, parsed. */
function noticesIn( wordpress: Receiver ): { type: string; endpoint_id: string; [ key: string ]: unknown }[] {
	return wordpress.requests
		.filter( ( request ) => request.path === `/wp-json${ CALLBACK_ROUTE }` )
		.map( ( request ) => JSON.parse( request.body ) );
}

describe( 'upkeep through two instances on one MariaDB', () => {
	let database: RunningMariaDb;
	let admin: mysql.Connection;
	const running: Instance[] = [];
	const receivers: Receiver[] = [];
	let clock: ManualClock;

	const two = async ( env: NodeJS.ProcessEnv ): Promise< [ Instance, Instance ] > => {
		clock = new ManualClock();
		const a = await startInstance( database.url, 'instance-a', env, clock );
		running.push( a );
		const b = await startInstance( database.url, 'instance-b', env, clock );
		running.push( b );
		// Each instance's first maintenance round (due at start) runs and ends before the test goes
		// on, so that a round the test runs never finds the lock held by one of those: it has ended
		// once its instance armed the timer for its next round.
		const next =
			clock.now() + Math.round( loadConfig( { ...TEST_ENV, ...env } ).maintenanceIntervalSeconds * 1000 );
		await clock.advanceUntil(
			() => clock.pending().filter( ( at ) => at === next ).length === 2,
			'both instances’ first maintenance round'
		);
		return [ a, b ];
	};
	const receiver = async ( handler?: Parameters< typeof startReceiver >[ 0 ], start = startReceiver ) => {
		const started = await start( handler );
		receivers.push( started );
		return started;
	};
	/** WordPress's callback route, the instances' hand-over requests at start kept apart. */
	const wordpressReceiver = ( handler?: Parameters< typeof startReceiver >[ 0 ] ) =>
		receiver( handler, startWordPress );
	const noticeRows = async () => {
		const [ rows ] = await admin.query< mysql.RowDataPacket[] >(
			'SELECT payload, attempts, acknowledged_at FROM notices ORDER BY id'
		);
		return rows.map( ( row ) => ( {
			notice: JSON.parse( String( row.payload ) ) as { type: string; endpoint_id: string },
			attempts: Number( row.attempts ),
			acknowledged: row.acknowledged_at !== null,
		} ) );
	};

	/** When the one notice not yet acknowledged is due (null once none is). */
	const noticeDueAt = async () => {
		const [ rows ] = await admin.query< mysql.RowDataPacket[] >(
			'SELECT MIN(next_attempt_at) AS at FROM notices WHERE acknowledged_at IS NULL'
		);
		const at = rows[ 0 ]?.at;
		return at === null || at === undefined ? null : Number( at );
	};
	/**
	 * Stops both instances' notice senders, which waits for a round of sending in progress: what
	 * WordPress has received then is all it will, without sleeping on it.
	 */
	const sendersStopped = ( ...instances: Instance[] ) =>
		Promise.all( instances.map( ( instance ) => instance.outbound.notices.stop( 5_000 ) ) );

	beforeAll( async () => {
		database = await startMariaDb( { name: 'shared_upkeep_test' } );
		admin = await mysql.createConnection( database.url );
	} );
	afterEach( async () => {
		await Promise.all( running.splice( 0 ).map( ( instance ) => instance.close() ) );
		await Promise.all( receivers.splice( 0 ).map( ( r ) => r.close() ) );
		// Each test starts from empty tables (the instances of the next test migrate nothing).
		for ( const table of [ 'notices', 'attempts', 'deliveries', 'events', 'endpoint_secrets', 'endpoints' ] ) {
			await admin.query( `DELETE FROM ${ table }` );
		}
	} );
	afterAll( async () => {
		await admin?.end();
		await database?.stop();
	} );

	it( 'sends each notice once while both instances’ senders run, whichever instance queued it', async () => {
		// A slow WordPress: a second sender running at the same time would send the same notice again.
		const wordpress = await wordpressReceiver( async ( _req, res ) => {
			await sleep( 150 );
			res.writeHead( 202 ).end();
		} );
		// Maintenance every 0.1 s on both instances: each round kicks its instance's sender.
		const [ a, b ] = await two( {
			SIDECAR_WORDPRESS_URL: wordpress.url,
			SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '0.1',
		} );
		const first = ( await a.api( 'POST', '/v1/endpoints', { url: 'https://hooks.example/one' } ) ).body;
		const second = ( await b.api( 'POST', '/v1/endpoints', { url: 'https://hooks.example/two' } ) ).body;

		expect( ( await a.api( 'POST', `/v1/endpoints/${ first.id }/enable` ) ).status ).toBe( 200 );
		expect( ( await b.api( 'DELETE', `/v1/endpoints/${ second.id }` ) ).status ).toBe( 200 );
		for ( let i = 0; i < 10; i++ ) {
			a.outbound.notices.kick();
			b.outbound.notices.kick();
		}
		await wordpress.waitFor( () => noticesIn( wordpress ).length >= 2 );
		await waitUntil( async () => ( await a.store.notices.pendingCount() ) === 0 );
		// Ten more maintenance rounds on each instance, each kicking its sender; then every round of
		// sending has ended: nothing was sent again.
		for ( let round = 0; round < 10; round++ ) {
			await clock.advance( 100 );
			await Promise.all( [ a.outbound.maintenance.tick(), b.outbound.maintenance.tick() ] );
		}
		await sendersStopped( a, b );

		expect( noticesIn( wordpress ) ).toEqual( [
			{ type: 'endpoint.enabled', endpoint_id: first.id },
			{ type: 'endpoint.deleted', endpoint_id: second.id },
		] );
		expect( await noticeRows() ).toEqual( [
			{ notice: { type: 'endpoint.enabled', endpoint_id: first.id }, attempts: 1, acknowledged: true },
			{ notice: { type: 'endpoint.deleted', endpoint_id: second.id }, attempts: 1, acknowledged: true },
		] );
	} );

	it( 'sends a notice queued through A from B when A’s sender is not running, retrying with backoff until acknowledged', async () => {
		let calls = 0;
		const wordpress = await wordpressReceiver(
			( _req, res ) => void res.writeHead( ++calls <= 2 ? 503 : 202 ).end()
		);
		const [ a, b ] = await two( {
			SIDECAR_WORDPRESS_URL: wordpress.url,
			SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '0.1',
		} );
		await a.outbound.notices.stop( 1000 );
		const endpoint = ( await a.api( 'POST', '/v1/endpoints', { url: 'https://hooks.example/one' } ) ).body;
		expect( ( await a.api( 'POST', `/v1/endpoints/${ endpoint.id }/enable` ) ).status ).toBe( 200 );
		const sent = () => noticesIn( wordpress ).length;

		// B finds it at its next maintenance round (0.1 s); WordPress refuses it.
		const first = clock.now() + 100;
		await clock.advance( 100 );
		await wordpress.waitFor( () => sent() === 1 );
		await waitUntil( async () => ( await noticeRows() )[ 0 ]?.attempts === 1, 10_000, 'the refusal recorded' );
		// Retried 0.1 s later, not a millisecond sooner, though maintenance kicks the sender meanwhile.
		expect( await noticeDueAt() ).toBe( first + 100 );
		await clock.advance( 99 );
		expect( sent() ).toBe( 1 );
		await clock.advance( 1 );
		await clock.advanceUntil( () => sent() === 2, 'the second send' );
		await waitUntil( async () => ( await noticeRows() )[ 0 ]?.attempts === 2, 10_000, 'the refusal recorded' );
		// Refused again: the delay doubles.
		expect( await noticeDueAt() ).toBe( first + 300 );
		await clock.advance( 199 );
		expect( sent() ).toBe( 2 );
		await clock.advance( 1 );
		await clock.advanceUntil( () => sent() === 3, 'the third send' );
		await waitUntil( async () => ( await b.store.notices.pendingCount() ) === 0 );
		// Acknowledged: more maintenance rounds send nothing more.
		await clock.advance( 1000 );
		await sendersStopped( a, b );
		expect( noticesIn( wordpress ) ).toEqual(
			Array( 3 ).fill( { type: 'endpoint.enabled', endpoint_id: endpoint.id } )
		);
		expect( await noticeRows() ).toEqual( [
			{ notice: { type: 'endpoint.enabled', endpoint_id: endpoint.id }, attempts: 3, acknowledged: true },
		] );
	} );

	it( 'disables an endpoint failing for too long in the health sweep, on one instance, and tells WordPress once', async () => {
		const wordpress = await wordpressReceiver( ( _req, res ) => void res.writeHead( 202 ).end() );
		const failing = await receiver( ( _req, res ) => void res.writeHead( 500 ).end( 'down' ) );
		// One attempt, then none; 0.0003 h = 1,080 ms of failure streak. Maintenance runs when the
		// clock first moves and then when the test asks.
		const [ a, b ] = await two( {
			SIDECAR_WORDPRESS_URL: wordpress.url,
			SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '3600',
			SIDECAR_RETRY_SCHEDULE: '0',
			SIDECAR_DISABLE_AFTER_HOURS: '0.0003',
		} );
		const endpoint = ( await a.api( 'POST', '/v1/endpoints', { url: failing.url } ) ).body;
		await a.api( 'POST', '/v1/events', { events: [ orderEvent( 'sweep_1', 'order.paid', 1 ) ] } );
		await waitUntil(
			async () => ( await b.api( 'GET', '/v1/events/sweep_1' ) ).body.deliveries[ 0 ]?.status === 'failed'
		);
		// The streak A's dispatcher recorded is what B answers with.
		const before = ( await b.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body;
		expect( before ).toMatchObject( { status: 'active', failing_since: new Date( clock.now() ).toISOString() } );

		// A millisecond short of the limit, neither instance's sweep disables it; at the limit one does.
		await clock.advance( 1079 );
		expect( await Promise.all( [ a.outbound.maintenance.tick(), b.outbound.maintenance.tick() ] ) ).toContain(
			true
		);
		expect( ( await b.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body.status ).toBe( 'active' );
		await clock.advance( 1 );
		const ran = await Promise.all( [ a.outbound.maintenance.tick(), b.outbound.maintenance.tick() ] );
		expect( ran ).toContain( true );
		await wordpress.waitFor( () => noticesIn( wordpress ).length >= 1 );
		await waitUntil( async () => ( await b.store.notices.pendingCount() ) === 0 );
		await Promise.all( [ a.outbound.maintenance.tick(), b.outbound.maintenance.tick() ] );
		await sendersStopped( a, b );

		expect( noticesIn( wordpress ) ).toEqual( [
			{
				type: 'endpoint.disabled',
				endpoint_id: endpoint.id,
				url: failing.url + '/',
				reason: expect.stringMatching( /^failing without a success since / ),
				failing_since: before.failing_since,
				last_error: { at: expect.any( String ), status: 500, message: 'HTTP 500: down' },
			},
		] );
		expect( ( await a.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body ).toMatchObject( {
			status: 'disabled',
			disabled_by: 'auto',
			disabled_reason: expect.stringMatching( /^failing without a success since / ),
		} );
		expect( failing.requests ).toHaveLength( 1 ); // disabled with no further attempt
	} );

	it( 'disables an endpoint that answers 410 Gone, and tells WordPress once', async () => {
		const wordpress = await wordpressReceiver( ( _req, res ) => void res.writeHead( 202 ).end() );
		const gone = await receiver( ( _req, res ) => void res.writeHead( 410 ).end() );
		const [ a, b ] = await two( {
			SIDECAR_WORDPRESS_URL: wordpress.url,
			SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '3600',
		} );
		const endpoint = ( await b.api( 'POST', '/v1/endpoints', { url: gone.url } ) ).body;
		await b.api( 'POST', '/v1/events', { events: [ orderEvent( 'gone_1', 'order.paid', 1 ) ] } );
		await wordpress.waitFor( () => noticesIn( wordpress ).length >= 1 );
		await waitUntil( async () => ( await a.store.notices.pendingCount() ) === 0 );
		await Promise.all( [ a.outbound.maintenance.tick(), b.outbound.maintenance.tick() ] );
		await sendersStopped( a, b );

		expect( noticesIn( wordpress ) ).toEqual( [
			{
				type: 'endpoint.disabled',
				endpoint_id: endpoint.id,
				url: gone.url + '/',
				reason: expect.stringMatching( /410/ ),
				failing_since: expect.any( String ),
				last_error: { at: expect.any( String ), status: 410, message: 'HTTP 410' },
			},
		] );
		expect( ( await b.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body ).toMatchObject( {
			status: 'disabled',
			disabled_by: 'auto',
		} );
	} );

	it( 'ends a failure streak on the next success, whichever instance made it', async () => {
		let down = true;
		const flaky = await receiver( ( _req, res ) => void res.writeHead( down ? 500 : 200 ).end() );
		const [ a, b ] = await two( { SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '3600', SIDECAR_RETRY_SCHEDULE: '0' } );
		const endpoint = ( await a.api( 'POST', '/v1/endpoints', { url: flaky.url } ) ).body;
		await a.api( 'POST', '/v1/events', { events: [ orderEvent( 'streak_1', 'order.paid', 1 ) ] } );
		await waitUntil(
			async () => ( await b.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body.failing_since !== null
		);
		down = false;
		b.outbound.dispatcher.endpointsChanged(); // B reads the streak A recorded
		await b.api( 'POST', '/v1/events', { events: [ orderEvent( 'streak_2', 'order.paid', 2 ) ] } );
		await waitUntil(
			async () => ( await a.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body.failing_since === null
		);
		expect( ( await a.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body.status ).toBe( 'active' );
	} );

	it( 'clears payloads and response excerpts past payload retention on one instance, keeping the rows, and prunes old notices', async () => {
		let release: () => void = () => undefined;
		const ok = await receiver( ( _req, res ) => void res.writeHead( 200 ).end( 'thanks bob@example.com' ) );
		const slow = await receiver( async ( _req, res ) => {
			await new Promise< void >( ( resolve ) => ( release = resolve ) );
			res.writeHead( 200 ).end();
		} );
		// 0.00001 days = 0.864 s of payload retention; the rows themselves are kept 30 days.
		const [ a, b ] = await two( {
			SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '3600',
			SIDECAR_PAYLOAD_RETENTION_DAYS: '0.00001',
		} );
		await a.api( 'POST', '/v1/endpoints', { url: ok.url, event_types: [ 'order.paid' ] } );
		await a.api( 'POST', '/v1/endpoints', { url: slow.url, event_types: [ 'order.refunded' ] } );
		await a.api( 'POST', '/v1/events', {
			events: [ orderEvent( 'old_1', 'order.paid', 1 ), orderEvent( 'held_1', 'order.refunded', 2 ) ],
		} );
		await waitUntil(
			async () => ( await a.api( 'GET', '/v1/events/old_1' ) ).body.deliveries[ 0 ]?.status === 'succeeded'
		);
		await waitUntil( async () => slow.requests.length === 1 ); // held_1's delivery is in flight
		// An acknowledged notice past SIDECAR_RETENTION_DAYS (30), one within it, and one not yet sent.
		const now = Date.now();
		await admin.query(
			'INSERT INTO notices (payload, created_at, attempts, next_attempt_at, acknowledged_at) VALUES ?',
			[
				[
					[ '{"type":"endpoint.enabled","endpoint_id":"ep_old"}', now, 1, null, now - 31 * 86_400_000 ],
					[ '{"type":"endpoint.enabled","endpoint_id":"ep_recent"}', now, 1, null, now - 86_400_000 ],
					[ '{"type":"endpoint.enabled","endpoint_id":"ep_pending"}', now, 0, now, null ],
				],
			]
		);
		await clock.advance( 1000 ); // past the payload retention

		expect( await b.outbound.maintenance.tick() ).toBe( true );
		const old = ( await a.api( 'GET', '/v1/events/old_1' ) ).body;
		expect( old.event ).toMatchObject( {
			id: 'old_1',
			type: 'order.paid',
			ordering_key: expect.any( String ),
			payload_cleared_at: expect.any( String ),
			data: {},
		} );
		expect( old.deliveries ).toHaveLength( 1 );
		expect( old.deliveries[ 0 ] ).toMatchObject( { status: 'succeeded' } );
		expect( old.deliveries[ 0 ].attempts ).toEqual( [
			expect.objectContaining( { status_code: 200, response_excerpt: null } ),
		] );
		// Still to be sent: its payload stays.
		const held = ( await a.api( 'GET', '/v1/events/held_1' ) ).body;
		expect( held.event.payload_cleared_at ).toBeNull();
		expect( held.event.data ).toEqual( orderEvent( 'held_1', 'order.refunded', 2 ).data );
		expect( ( await noticeRows() ).map( ( row ) => row.notice.endpoint_id ) ).toEqual( [
			'ep_recent',
			'ep_pending',
		] );
		release();
	} );
} );

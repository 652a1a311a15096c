import Database from 'better-sqlite3';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { loadConfig } from '../../sidecar/src/config';
import { createLogger } from '../../sidecar/src/logger';
import { createMetrics } from '../../sidecar/src/metrics/registry';
import { utf8Excerpt, type AttemptRequest } from '../../sidecar/src/outbound/delivery-client';
import { Dispatcher } from '../../sidecar/src/outbound/dispatcher';
import { DATABASE_FILE, migrate, openDatabase } from '../../sidecar/src/store/sqlite/database';
import { MIGRATIONS } from '../../sidecar/src/store/sqlite/migrations';
import { sqliteQueueStore } from '../../sidecar/src/store/sqlite/sqlite-queue-store';
import { createStores } from '../../sidecar/src/store/sqlite/stores';
import { orderEvent } from './support/api-client';
import { startHarness } from './support/harness';
import { startReceiver } from './support/receiver';
import { sleep } from '../support/wait-until';

describe( 'database', () => {
	const tempDir = () => fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-db-' ) );

	it( 'opens <dataDir>/sidecar.db in WAL mode, synchronous and page cache as configured, with every migration applied once', () => {
		const root = tempDir();
		const dir = path.join( root, 'nested', 'data' );
		const db = openDatabase( { dataDir: dir } );
		expect( fs.existsSync( path.join( dir, DATABASE_FILE ) ) ).toBe( true );
		expect( db.pragma( 'journal_mode', { simple: true } ) ).toBe( 'wal' );
		expect( db.pragma( 'synchronous', { simple: true } ) ).toBe( 1 ); // NORMAL
		expect( db.pragma( 'busy_timeout', { simple: true } ) ).toBe( 5000 );
		expect( db.pragma( 'cache_size', { simple: true } ) ).toBe( -2048 ); // 2 MB, not better-sqlite3's 16 MB
		expect( db.pragma( 'foreign_keys', { simple: true } ) ).toBe( 1 );
		expect( db.pragma( 'user_version', { simple: true } ) ).toBe( MIGRATIONS.length );
		expect( migrate( db ) ).toBe( MIGRATIONS.length ); // idempotent
		db.close();

		const full = openDatabase( { dataDir: dir, synchronous: 'FULL', cacheSizeMb: 16 } );
		expect( full.pragma( 'synchronous', { simple: true } ) ).toBe( 2 );
		expect( full.pragma( 'cache_size', { simple: true } ) ).toBe( -16384 );
		full.close();
		fs.rmSync( root, { recursive: true, force: true } );
	} );

	it( 'migration 7 keeps the verification log written before it, with no answer recorded', () => {
		const dir = tempDir();
		const old = new Database( path.join( dir, DATABASE_FILE ) );
		for ( const sql of MIGRATIONS.slice( 0, 6 ) ) {
			old.exec( sql );
		}
		old.pragma( 'user_version = 6' );
		old.prepare(
			"INSERT INTO inbound_log (at, source, outcome, status, code, event_id) VALUES (1, 'acme', 'verified', 200, NULL, 'msg_1')"
		).run();
		old.close();
		const db = openDatabase( { dataDir: dir } );
		expect( db.prepare( 'SELECT source, status, event_id, answer_status FROM inbound_log' ).all() ).toEqual( [
			{ source: 'acme', status: 200, event_id: 'msg_1', answer_status: null },
		] );
		db.close();
		fs.rmSync( dir, { recursive: true, force: true } );
	} );

	it( 'migration 9 makes the verification log say what each sender got, keeping every row', () => {
		const dir = tempDir();
		const old = new Database( path.join( dir, DATABASE_FILE ) );
		for ( const sql of MIGRATIONS.slice( 0, 8 ) ) {
			old.exec( sql );
		}
		old.pragma( 'user_version = 8' );
		// Rows as the sidecar wrote them before: the verdict, and WordPress's answer when it reported one.
		old.exec(
			`INSERT INTO inbound_log (id, at, source, outcome, status, code, event_id, answer_status) VALUES
			 (7, 1, 'acme', 'verified', 200, NULL, 'msg_1', 202), (8, 2, 'acme', 'verified', 200, NULL, 'msg_2', 503),
			 (9, 3, 'acme', 'verified', 200, NULL, 'msg_3', NULL), (10, 4, 'acme', 'refused', 401, 'invalid_signature', NULL, NULL)`
		);
		old.close();
		const db = openDatabase( { dataDir: dir } );
		expect(
			db.prepare( 'SELECT id, outcome, status, code, event_id, answer_status FROM inbound_log ORDER BY id' ).all()
		).toEqual( [
			{ id: 7, outcome: 'verified', status: 200, code: null, event_id: 'msg_1', answer_status: 202 },
			{ id: 8, outcome: 'not_stored', status: 200, code: null, event_id: 'msg_2', answer_status: 503 },
			{ id: 9, outcome: 'unconfirmed', status: 200, code: null, event_id: 'msg_3', answer_status: null },
			{ id: 10, outcome: 'refused', status: 401, code: 'invalid_signature', event_id: null, answer_status: 401 },
		] );
		// The new outcomes are allowed, others are not; new rows follow the old ids; the index is back.
		const insert = db.prepare( "INSERT INTO inbound_log (at, source, outcome, status) VALUES (5, 'acme', ?, 503)" );
		expect( insert.run( 'timed_out' ).lastInsertRowid ).toBe( 11 );
		expect( () => insert.run( 'maybe' ) ).toThrow( /CHECK constraint/ );
		expect(
			db.prepare( "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'inbound_log'" ).all()
		).toEqual( [ { name: 'inbound_log_by_source' } ] );
		db.close();
		fs.rmSync( dir, { recursive: true, force: true } );
	} );

	it( 'refuses a database written by a newer sidecar', () => {
		const dir = tempDir();
		const db = openDatabase( { dataDir: dir } );
		db.pragma( `user_version = ${ MIGRATIONS.length + 1 }` );
		db.close();
		expect( () => openDatabase( { dataDir: dir } ) ).toThrow( /newer than this sidecar knows/ );
		fs.rmSync( dir, { recursive: true, force: true } );
	} );

	it( 'keeps an event and its deliveries together, and a repeated id is a no-op', () => {
		const stores = createStores( openDatabase( { dataDir: ':memory:' } ) );
		const now = Date.now();
		const a = stores.endpoints.create(
			{
				url: 'https://a.example/',
				description: '',
				eventTypes: [],
				maxConcurrency: 4,
				wcCompatSignature: false,
				secret: 'whsec_a',
			},
			now
		);
		stores.endpoints.create(
			{
				url: 'https://b.example/',
				description: '',
				eventTypes: [ 'order.refunded' ],
				maxConcurrency: 4,
				wcCompatSignature: false,
				secret: 'whsec_b',
			},
			now
		);
		const event = {
			id: 'e1',
			type: 'order.paid' as const,
			timestamp: new Date( now ).toISOString(),
			orderingKey: 'order:1',
			data: { x: 1 },
		};
		expect( stores.events.insertBatch( [ event, event ], now, now ) ).toEqual( {
			accepted: [ 'e1' ],
			duplicates: [ 'e1' ],
			endpointIds: [ a.id ],
		} );
		expect( stores.events.insertBatch( [ { ...event, data: { x: 2 } } ], now, now ).duplicates ).toEqual( [
			'e1',
		] );
		expect( stores.events.get( 'e1' )?.payload ).toBe(
			JSON.stringify( { type: 'order.paid', timestamp: event.timestamp, data: { x: 1 } } )
		);
		expect( stores.deliveries.ofEvent( 'e1' ).map( ( d ) => d.endpointId ) ).toEqual( [ a.id ] );
	} );

	it( "stores a batch in the caller's transaction when there is one: rolled back with it", () => {
		const stores = createStores( openDatabase( { dataDir: ':memory:' } ) );
		const now = Date.now();
		createEndpoint( stores, now );
		expect( () =>
			stores.db
				.transaction( () => {
					stores.events.insertBatch( [ paidEvent( 'e1', now ) ], now, now );
					throw new Error( 'the caller failed after the insert' );
				} )
				.immediate()
		).toThrow( 'the caller failed' );
		expect( stores.events.get( 'e1' ) ).toBeUndefined();
		expect( stores.deliveries.ofEvent( 'e1' ) ).toEqual( [] );
	} );
} );

describe( 'dispatcher ingest (in-process)', () => {
	const dispatcherFor = ( stores: ReturnType< typeof createStores >, sent: AttemptRequest[] ) =>
		new Dispatcher( {
			config: loadConfig( { SIDECAR_SHARED_KEY: 'k'.repeat( 32 ) } ),
			log: createLogger( 'silent' ),
			store: sqliteQueueStore( stores ),
			metrics: createMetrics( { processMetrics: false } ),
			client: {
				send: ( request ) => {
					sent.push( request );
					return new Promise( () => undefined ); // never answers: the delivery stays in flight
				},
				close: () => undefined,
			},
		} );

	it( 'stores the events and claims their first attempts in one round', async () => {
		const stores = createStores( openDatabase( { dataDir: ':memory:' } ) );
		const now = Date.now();
		const endpoint = createEndpoint( stores, now );
		const sent: AttemptRequest[] = [];
		const dispatcher = dispatcherFor( stores, sent );
		dispatcher.start();
		await waitUntilRunning( dispatcher );
		const result = await dispatcher.ingest( [ paidEvent( 'e1', now ), paidEvent( 'e2', now ) ] );
		expect( result ).toEqual( { accepted: [ 'e1', 'e2' ], duplicates: [], endpointIds: [ endpoint.id ] } );
		expect( stores.deliveries.countByStatus().in_flight ).toBe( 2 );
		expect( sent.map( ( request ) => request.eventId ) ).toEqual( [ 'e1', 'e2' ] );
	} );

	it( 'stores nothing and claims nothing when a claim throws, and gives the error to the caller', async () => {
		const stores = createStores( openDatabase( { dataDir: ':memory:' } ) );
		const now = Date.now();
		createEndpoint( stores, now );
		const sent: AttemptRequest[] = [];
		const dispatcher = dispatcherFor( stores, sent );
		dispatcher.start();
		await waitUntilRunning( dispatcher );
		stores.deliveries.claimDue = () => {
			throw new Error( 'disk full' );
		};
		await expect( dispatcher.ingest( [ paidEvent( 'e1', now ) ] ) ).rejects.toThrow( 'disk full' );
		expect( stores.events.get( 'e1' ) ).toBeUndefined();
		expect( stores.deliveries.countByStatus().in_flight ).toBe( 0 );
		expect( sent ).toEqual( [] );
	} );
} );

async function waitUntilRunning( dispatcher: Dispatcher ): Promise< void > {
	while ( ! dispatcher.isRunning() ) {
		await new Promise( ( resolve ) => setImmediate( resolve ) );
	}
}

function createEndpoint( stores: ReturnType< typeof createStores >, now: number ) {
	return stores.endpoints.create(
		{
			url: 'https://a.example/',
			description: '',
			eventTypes: [],
			maxConcurrency: 4,
			wcCompatSignature: false,
			secret: 'whsec_' + Buffer.alloc( 32, 1 ).toString( 'base64' ),
		},
		now
	);
}

function paidEvent( id: string, now: number ) {
	return {
		id,
		type: 'order.paid' as const,
		timestamp: new Date( now ).toISOString(),
		orderingKey: `order:${ id }`,
		data: {},
	};
}

describe( 'utf8Excerpt', () => {
	it.each( [
		[ 'short text', 'ok', 'ok' ],
		[ 'exactly 1024 bytes', 'a'.repeat( 1024 ), 'a'.repeat( 1024 ) ],
		[ 'ASCII over the limit', 'a'.repeat( 5000 ), 'a'.repeat( 1024 ) ],
		[ 'a 2-byte character across the limit', 'a'.repeat( 1023 ) + 'é', 'a'.repeat( 1023 ) ],
		[ 'a 3-byte character across the limit', 'a'.repeat( 1022 ) + '€x', 'a'.repeat( 1022 ) ],
		[ 'a 4-byte character across the limit', 'a'.repeat( 1021 ) + '\u{1F600}', 'a'.repeat( 1021 ) ],
		[ 'only emoji', '\u{1F600}'.repeat( 300 ), '\u{1F600}'.repeat( 256 ) ],
	] )( '%s', ( _label, input, expected ) => {
		const excerpt = utf8Excerpt( input );
		expect( excerpt ).toBe( expected );
		expect( Buffer.byteLength( excerpt ) ).toBeLessThanOrEqual( 1024 );
		expect( excerpt ).not.toContain( '\uFFFD' );
	} );
} );

describe( 'recovery and shutdown (in-process)', () => {
	it( 'sends again what a crash left in flight', async () => {
		const receiver = await startReceiver();
		const first = await startHarness();
		const endpoint = ( await first.api( 'POST', '/v1/endpoints', { url: receiver.url } ) ).body;
		// Simulate a crash between claim and result: the row is in_flight, nothing recorded.
		await first.close( { keepData: true } );
		const db = openDatabase( { dataDir: first.dataDir } );
		const stores = createStores( db );
		const now = Date.now();
		stores.events.insertBatch(
			[
				{
					id: 'crashed_1',
					type: 'order.paid',
					timestamp: new Date( now ).toISOString(),
					orderingKey: null,
					data: {},
				},
			],
			now,
			now
		);
		expect( stores.deliveries.claimDue( endpoint.id, now, 10 ) ).toHaveLength( 1 );
		expect( stores.deliveries.countByStatus().in_flight ).toBe( 1 );
		db.close();

		const second = await startHarness( {}, { dataDir: first.dataDir } );
		try {
			await receiver.waitFor( ( r ) => r.length === 1 );
			expect( receiver.requests[ 0 ]!.headers[ 'webhook-id' ] ).toBe( 'crashed_1' );
			expect( second.logText() ).toMatch( /"recovered":1/ );
		} finally {
			await second.close();
			await receiver.close();
		}
	} );

	it( 'leaves an attempt that outlives the shutdown deadline in flight, for the next start', async () => {
		let calls = 0;
		const receiver = await startReceiver( async ( _req, res ) => {
			calls++;
			if ( calls === 1 ) {
				await sleep( 1500 );
			}
			if ( ! res.destroyed ) {
				res.writeHead( 200 ).end();
			}
		} );
		const first = await startHarness();
		await first.api( 'POST', '/v1/endpoints', { url: receiver.url } );
		await first.api( 'POST', '/v1/events', { events: [ orderEvent( 'slow_1', 'order.paid', 1 ) ] } );
		await receiver.waitFor( ( r ) => r.length === 1 );
		const started = Date.now();
		await first.close( { graceMs: 200, keepData: true } );
		expect( Date.now() - started ).toBeLessThan( 1000 );
		expect( first.logText() ).toMatch( /shutdown deadline passed/ );

		const second = await startHarness( {}, { dataDir: first.dataDir } );
		try {
			await receiver.waitFor( ( r ) => r.length === 2 );
			expect( receiver.requests.map( ( r ) => r.headers[ 'webhook-id' ] ) ).toEqual( [ 'slow_1', 'slow_1' ] );
		} finally {
			await second.close();
			await receiver.close();
		}
	} );
} );

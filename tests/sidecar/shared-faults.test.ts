import fs from 'fs';
import os from 'os';
import path from 'path';
import { freeze } from '../support/freeze';
import { startMariaDb, type RunningMariaDb } from '../support/mariadb';
import { sleep, waitUntil } from '../support/wait-until';
import { orderEvent } from './support/api-client';
import { startReceiver, type Receiver } from './support/receiver';
import { freePort, spawnSidecar, type SpawnedSidecar } from './support/spawned';

/**
 * Faults the shared store must answer, on a real MariaDB and real sidecar processes (the same
 * command as in production): a frozen database, and an instance killed and started again.
 */
describe( 'the shared store under faults', () => {
	let database: RunningMariaDb;
	let dir: string;
	const children: SpawnedSidecar[] = [];
	const receivers: Receiver[] = [];

	beforeAll( async () => {
		database = await startMariaDb( { name: 'faults_test' } );
		dir = fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-faults-' ) );
	} );

	afterEach( async () => {
		process.kill( database.pid, 'SIGCONT' );
		for ( const { child } of children.splice( 0 ) ) {
			if ( child.exitCode === null && child.signalCode === null ) {
				child.kill( 'SIGKILL' );
			}
		}
		await Promise.all( receivers.splice( 0 ).map( ( receiver ) => receiver.close() ) );
	} );

	afterAll( async () => {
		await database?.stop();
		fs.rmSync( dir, { recursive: true, force: true } );
	} );

	const start = async ( port: number, name: string, env: NodeJS.ProcessEnv = {} ) => {
		const sidecar = await spawnSidecar( {
			dataDir: path.join( dir, `unused-${ name }` ),
			port,
			logFile: path.join( dir, `${ name }.log` ),
			env: { SIDECAR_DATABASE_URL: database.url, SIDECAR_LOG_LEVEL: 'info', ...env },
		} );
		children.push( sidecar );
		return sidecar;
	};

	/** The call's answer and how long it took, or 'hung' past 10 s. */
	const timed = async < T >( call: Promise< T > ) => {
		const started = Date.now();
		const answer = await Promise.race( [ call, sleep( 10_000 ).then( () => 'hung' as const ) ] );
		return { answer, ms: Date.now() - started };
	};

	it( 'answers /ready and the hand-over with 503 and Retry-After within 2 s while the database is frozen', async () => {
		const sidecar = await start( await freePort(), 'frozen' );
		expect(
			( await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'before', 'order.paid', 1 ) ] } ) )
				.status
		).toBe( 202 );

		const frozen = await freeze( [ database.pid ] );
		const ready = await timed( fetch( `${ sidecar.url }/ready` ) );
		const handOver = await timed(
			sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'during', 'order.paid', 2 ) ] } )
		);
		frozen.thaw();

		expect( ready.answer ).not.toBe( 'hung' );
		expect( ready.ms ).toBeLessThan( 2000 );
		expect( ( ready.answer as Response ).status ).toBe( 503 );
		expect( handOver.answer ).not.toBe( 'hung' );
		expect( handOver.ms ).toBeLessThan( 2000 );
		const refused = handOver.answer as Exclude< typeof handOver.answer, 'hung' >;
		expect( refused.status ).toBe( 503 );
		expect( refused.headers.get( 'retry-after' ) ).toBe( '5' );
		expect( refused.body.code ).toBe( 'store_unavailable' );

		// Thawed, it takes events again.
		await waitUntil( async () => ( await fetch( `${ sidecar.url }/ready` ) ).status === 200, 20_000 );
		expect(
			( await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'after', 'order.paid', 3 ) ] } ) ).status
		).toBe( 202 );
	} );

	it( 'sends again at once what an instance had in flight when it was killed, once it is started again', async () => {
		// The lease is the delivery timeout plus a margin: without taking its claims back, the
		// restarted instance would leave the held delivery (and its ordering key) for 15 s and more.
		const env = { SIDECAR_DELIVERY_TIMEOUT_MS: '15000' };
		let holding = true;
		const receiver = await startReceiver( async ( request, res ) => {
			if ( request.headers[ 'webhook-id' ] === 'held_1' && holding ) {
				holding = false;
				await sleep( 60_000 ); // never answers in time: the instance is killed meanwhile
			}
			res.writeHead( 200 ).end( 'ok' );
		} );
		receivers.push( receiver );
		const port = await freePort();
		const first = await start( port, 'killed', env );
		expect( ( await first.api( 'POST', '/v1/endpoints', { url: receiver.url + '/hook' } ) ).status ).toBe( 201 );
		expect(
			(
				await first.api( 'POST', '/v1/events', {
					events: [ orderEvent( 'held_1', 'order.paid', 7 ), orderEvent( 'next_1', 'order.paid', 7 ) ],
				} )
			).status
		).toBe( 202 );
		await receiver.waitFor( ( requests ) => requests.some( ( r ) => r.headers[ 'webhook-id' ] === 'held_1' ) );
		first.child.kill( 'SIGKILL' );
		await first.exited;

		const again = await start( port, 'restarted', env );
		const upAt = Date.now();
		await receiver.waitFor(
			( requests ) => requests.some( ( r ) => r.headers[ 'webhook-id' ] === 'next_1' ),
			30_000
		);
		const resent = receiver.requests.filter( ( r ) => r.headers[ 'webhook-id' ] === 'held_1' );
		const next = receiver.requests.find( ( r ) => r.headers[ 'webhook-id' ] === 'next_1' );
		console.log( `restart: held_1 sent again ${ ( resent[ 1 ]?.at ?? NaN ) - upAt } ms after /health answered` );
		// The key's order holds: held_1 again, then next_1, both soon after the restart.
		expect( resent ).toHaveLength( 2 );
		expect( ( resent[ 1 ]?.at ?? Infinity ) - upAt ).toBeLessThan( 3000 );
		expect( next?.at ?? 0 ).toBeGreaterThanOrEqual( resent[ 1 ]?.at ?? Infinity );
		expect( ( await again.api( 'GET', '/v1/events/held_1' ) ).body.deliveries[ 0 ].status ).toBe( 'succeeded' );
	} );
} );

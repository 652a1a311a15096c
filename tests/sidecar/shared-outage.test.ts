import fs from 'fs';
import os from 'os';
import path from 'path';
import { startMariaDb, type RunningMariaDb } from '../support/mariadb';
import { orderEvent } from './support/api-client';
import { freePort, spawnSidecar, type SpawnedSidecar } from './support/spawned';

/**
 * When the shared database does not answer, nothing is accepted that is not stored: the hand-over
 * answers 503 with Retry-After (WordPress's outbox keeps the events and sends them again) and
 * /ready says why, while /health (liveness) still answers so the process is not restarted for it.
 */
describe( 'a sidecar on the shared store while its database is down', () => {
	let database: RunningMariaDb;
	let dir: string;
	let sidecar: SpawnedSidecar | undefined;

	beforeAll( async () => {
		database = await startMariaDb( { name: 'outage_test' } );
		dir = fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-outage-' ) );
	} );

	afterAll( async () => {
		if ( sidecar && sidecar.child.exitCode === null && sidecar.child.signalCode === null ) {
			sidecar.child.kill( 'SIGKILL' );
			await sidecar.exited;
		}
		await database?.stop();
		fs.rmSync( dir, { recursive: true, force: true } );
	} );

	it( 'answers 503 with Retry-After to the hand-over, and /ready reports the database', async () => {
		const logFile = path.join( dir, 'sidecar.log' );
		sidecar = await spawnSidecar( {
			dataDir: path.join( dir, 'unused' ),
			port: await freePort(),
			logFile,
			env: { SIDECAR_DATABASE_URL: database.url },
		} );
		expect(
			( await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'before', 'order.paid', 1 ) ] } ) )
				.status
		).toBe( 202 );
		// The same one answer as on the embedded store when every event of a valid envelope is rejected.
		const allRejected = await sidecar.api( 'POST', '/v1/events', {
			events: [ { id: 'no.dots', type: 'order.paid' } ],
		} );
		expect( allRejected.status ).toBe( 202 );
		expect( allRejected.body ).toMatchObject( {
			accepted: [],
			duplicates: [],
			rejected: [ { index: 0, id: 'no.dots' } ],
		} );
		expect( ( await fetch( `${ sidecar.url }/ready` ) ).status ).toBe( 200 );

		await database.stop();

		const refused = await sidecar.api( 'POST', '/v1/events', {
			events: [ orderEvent( 'during', 'order.paid', 2 ) ],
		} );
		expect( refused.status ).toBe( 503 );
		expect( refused.headers.get( 'retry-after' ) ).toBe( '5' );
		expect( refused.body.code ).toBe( 'store_unavailable' );
		const ready = await fetch( `${ sidecar.url }/ready` );
		expect( ready.status ).toBe( 503 );
		expect( ( ( await ready.json() ) as { failed: string[] } ).failed ).toContain( 'database' );
		expect( ( await fetch( `${ sidecar.url }/health` ) ).status ).toBe( 200 );
		expect( sidecar.child.exitCode ).toBeNull();
		const password = new URL( database.url ).password;
		expect( fs.readFileSync( logFile, 'utf8' ) ).not.toContain( password );
	} );
} );

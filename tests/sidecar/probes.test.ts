import { MIGRATIONS } from '../../sidecar/src/store/sqlite/migrations';
import { startHarness, TEST_KEY, type Harness } from './support/harness';

interface ReadyBody {
	status: 'ready' | 'not_ready';
	checks: { name: string; ok: boolean; message?: string }[];
	failed: string[];
}

async function get( url: string ): Promise< { status: number; text: string; body: any } > {
	const response = await fetch( url );
	const text = await response.text();
	return { status: response.status, text, body: JSON.parse( text ) };
}

/** Liveness (/health) and readiness (/ready) of the real sidecar, open to any caller. */
describe( 'sidecar /health and /ready', () => {
	let sidecar: Harness;

	/** Neither says anything about secrets or the configuration. */
	const expectNothingPrivate = ( on: Harness, text: string ) => {
		expect( text ).not.toContain( TEST_KEY );
		expect( text ).not.toContain( on.dataDir );
		expect( text ).not.toContain( on.config.allowPrivateCidrs[ 0 ] as string );
	};

	afterEach( async () => {
		await sidecar?.close();
	} );

	it( '/health is liveness: the process answers, without authentication', async () => {
		sidecar = await startHarness();
		const health = await get( `${ sidecar.url }/health` );
		expect( health.status ).toBe( 200 );
		expect( health.body ).toEqual( { status: 'ok', version: expect.any( String ), pid: process.pid } );
		expectNothingPrivate( sidecar, health.text );
	} );

	it( '/ready is 200 with every check when the database answers, the schema is the latest and the dispatcher runs', async () => {
		sidecar = await startHarness();
		const ready = await get( `${ sidecar.url }/ready` );
		expect( ready.status ).toBe( 200 );
		expect( ready.body ).toEqual( {
			status: 'ready',
			checks: [
				{ name: 'database', ok: true },
				{ name: 'migrations', ok: true },
				{ name: 'dispatcher', ok: true },
				{ name: 'ingest', ok: true },
			],
			failed: [],
		} );
		expectNothingPrivate( sidecar, ready.text );
		expect( ( await fetch( `${ sidecar.url }/ready`, { method: 'POST' } ) ).status ).toBe( 405 );
	} );

	it( '/ready is 503 before the dispatcher starts and after it stops; /health stays 200', async () => {
		sidecar = await startHarness( {}, { start: false } );
		let ready = await get( `${ sidecar.url }/ready` );
		expect( ready.status ).toBe( 503 );
		expect( ready.body as ReadyBody ).toMatchObject( {
			status: 'not_ready',
			failed: [ 'dispatcher' ],
			checks: expect.arrayContaining( [
				{ name: 'dispatcher', ok: false, message: 'the delivery dispatcher is not running' },
				{ name: 'database', ok: true },
			] ),
		} );
		expect( ( await get( `${ sidecar.url }/health` ) ).status ).toBe( 200 );

		sidecar.outbound.start();
		expect( ( await get( `${ sidecar.url }/ready` ) ).status ).toBe( 200 );

		await sidecar.outbound.stop( 1000 );
		ready = await get( `${ sidecar.url }/ready` );
		expect( ready.status ).toBe( 503 );
		expect( ready.body.failed ).toEqual( [ 'dispatcher' ] );
		expect( ( await get( `${ sidecar.url }/health` ) ).status ).toBe( 200 );
	} );

	it( '/ready is 503 when the schema is not the latest', async () => {
		sidecar = await startHarness();
		sidecar.stores.db.pragma( `user_version = ${ MIGRATIONS.length - 1 }` );
		const ready = await get( `${ sidecar.url }/ready` );
		expect( ready.status ).toBe( 503 );
		expect( ready.body.failed ).toEqual( [ 'migrations' ] );
		expect( ready.body.checks ).toContainEqual( {
			name: 'migrations',
			ok: false,
			message: `the database schema is at version ${ MIGRATIONS.length - 1 }, not ${ MIGRATIONS.length }`,
		} );
		sidecar.stores.db.pragma( `user_version = ${ MIGRATIONS.length }` );
		expect( ( await get( `${ sidecar.url }/ready` ) ).status ).toBe( 200 );
	} );

	it( '/ready is 503 when the database is closed, without its error text; /health still answers', async () => {
		sidecar = await startHarness( { SIDECAR_METRICS_PORT: '0' } );
		await sidecar.outbound.stop( 1000 ); // nothing else uses the database meanwhile
		sidecar.stores.db.close();
		for ( const base of [ sidecar.url, sidecar.metricsUrl as string ] ) {
			const ready = await get( `${ base }/ready` );
			expect( ready.status ).toBe( 503 );
			expect( ready.body.failed ).toEqual( expect.arrayContaining( [ 'database', 'migrations' ] ) );
			expect( ready.body.checks ).toContainEqual( {
				name: 'database',
				ok: false,
				message: 'the database check could not run',
			} );
			expect( ready.text ).not.toMatch( /not open/i );
			expectNothingPrivate( sidecar, ready.text );
			expect( ( await get( `${ base }/health` ) ).status ).toBe( 200 );
		}
	} );
} );

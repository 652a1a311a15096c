import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import path from 'path';
import { adminPasswordFile, environmentDir, ROOT } from '../../../scripts/lib/paths';
import { readPid } from '../../../scripts/lib/processes';
import { sidecarPidFile } from '../../../scripts/lib/stack';
import { E2E_ENV_NAME, E2E_SIDECAR_PORT, E2E_WP_PORT } from '../support/environment';
import {
	killProcessesOfEnvironment,
	processesOfEnvironment,
	runScript,
	stopEnvironment,
	type ScriptResult,
} from '../support/environment-processes';
import { waitUntil } from '../../support/wait-until';

/**
 * `npm start` as a user runs it, in an environment of its own (`<E2E_ENV_NAME>-devenv`, on the
 * suite's ports + 5, past those of failed-start.test.ts), without a shop (lighter; the sidecar is
 * what is under test): the sidecar stopped and started by hand while WordPress keeps running,
 * `npm stop` stopping a sidecar started again, a crash of one ending npm start, and `--fresh`.
 */
const NAME = `${ E2E_ENV_NAME }-devenv`;
const DIR = environmentDir( NAME );
const SITE = `http://localhost:${ E2E_WP_PORT + 5 }`;
const SIDECAR = `http://127.0.0.1:${ E2E_SIDECAR_PORT + 5 }`;
/** A setting npm start's shell gives the sidecar: one started again must get it too. */
const START_SETTINGS = { SIDECAR_LOG_LEVEL: 'debug' };

interface NpmStart {
	child: ChildProcess;
	output: () => string;
	exited: Promise< number | null >;
}

/**
 * The local addresses of the sockets listening on a TCP port, as the kernel lists them in
 * /proc/net/tcp and tcp6 (read, so no traffic leaves the loopback interface): "127.0.0.1" for
 * a socket bound to loopback, "0.0.0.0" or "::" for one bound to every interface.
 */
function listeningAddresses( port: number ): string[] {
	const addresses: string[] = [];
	for ( const table of [ '/proc/net/tcp', '/proc/net/tcp6' ] ) {
		const lines = fs.existsSync( table ) ? fs.readFileSync( table, 'utf8' ).trim().split( '\n' ).slice( 1 ) : [];
		for ( const line of lines ) {
			const [ , local = '', , state ] = line.trim().split( /\s+/ );
			const [ host = '', hexPort = '' ] = local.split( ':' );
			// 0A: LISTEN.
			if ( state !== '0A' || Number.parseInt( hexPort, 16 ) !== port ) {
				continue;
			}
			addresses.push( host.length === 8 ? ipv4( host ) : ipv6( host ) );
		}
	}
	return addresses;
}

/** /proc/net/tcp's IPv4 address: four bytes in the host's (little-endian) order. */
function ipv4( hex: string ): string {
	return ( hex.match( /../g ) ?? [] )
		.reverse()
		.map( ( byte ) => Number.parseInt( byte, 16 ) )
		.join( '.' );
}

/** /proc/net/tcp6's IPv6 address, shown only as "::" (every interface) or its hex. */
function ipv6( hex: string ): string {
	return /^0+$/.test( hex ) ? '::' : hex;
}

/** The npm start of the test running, killed after it whatever happened. */
let current: NpmStart | undefined;

/** `npm start -- --env=<NAME> …` in the foreground, as a user runs it; resolves once it printed its summary. */
async function npmStart( args: string[] = [] ): Promise< NpmStart > {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		TS_NODE_PROJECT: path.join( ROOT, 'tsconfig.json' ),
		WOOCOMMERCE_VERSION: 'none',
		...START_SETTINGS,
	};
	delete env.WOOCOMMERCE_DIR;
	const child = spawn(
		process.execPath,
		[
			'-r',
			'ts-node/register/transpile-only',
			path.join( ROOT, 'scripts', 'start.ts' ),
			`--env=${ NAME }`,
			`--port=${ E2E_WP_PORT + 5 }`,
			`--sidecar-port=${ E2E_SIDECAR_PORT + 5 }`,
			...args,
		],
		{ cwd: ROOT, stdio: [ 'ignore', 'pipe', 'pipe' ], env }
	);
	let text = '';
	child.stdout?.on( 'data', ( chunk: Buffer ) => ( text += chunk.toString() ) );
	child.stderr?.on( 'data', ( chunk: Buffer ) => ( text += chunk.toString() ) );
	const exited = new Promise< number | null >( ( resolve ) => child.once( 'exit', resolve ) );
	const start = { child, output: () => text, exited };
	current = start;
	await printed( start, 'Service Integration is running.' );
	return start;
}

/**
 * Waits until npm start printed `text`. npm start reports each step of a start as it goes, so the
 * wait fails when nothing new was printed for a minute, rather than after a fixed total: a first
 * start unpacks WordPress and installs it, which on a busy machine takes longer than that.
 */
async function printed( start: NpmStart, text: string, quietMs = 60_000 ): Promise< void > {
	let seen = start.output().length;
	let lastProgress = Date.now();
	await waitUntil(
		() => {
			if ( start.child.exitCode !== null ) {
				throw new Error( `npm start exited (${ start.child.exitCode }):\n${ start.output() }` );
			}
			const output = start.output();
			if ( output.includes( text ) ) {
				return true;
			}
			if ( output.length > seen ) {
				seen = output.length;
				lastProgress = Date.now();
			}
			if ( Date.now() - lastProgress > quietMs ) {
				throw new Error(
					`npm start printed nothing for ${ quietMs / 1000 } s before "${ text }" (it printed:\n${ output })`
				);
			}
			return false;
		},
		// The bound is the silence above; this only keeps a start that prints forever from hanging the test.
		10 * quietMs,
		() => `npm start printing "${ text }" (it printed:\n${ start.output() })`,
		200
	);
}

function sidecar( command: 'start' | 'stop' | 'status', env: NodeJS.ProcessEnv = {} ): Promise< ScriptResult > {
	return runScript( 'sidecar', [ command, `--env=${ NAME }` ], env );
}

async function adminCall( method: 'GET' | 'POST', route: string, body?: unknown ): Promise< Response > {
	const password = fs.readFileSync( adminPasswordFile( NAME ), 'utf8' ).trim();
	return fetch( `${ SITE }/wp-json/service-integration/v1${ route }`, {
		method,
		headers: {
			authorization: 'Basic ' + Buffer.from( `admin:${ password }` ).toString( 'base64' ),
			'content-type': 'application/json',
		},
		body: body === undefined ? undefined : JSON.stringify( body ),
	} );
}

async function endpointIds(): Promise< string[] > {
	const response = await adminCall( 'GET', '/webhooks/endpoints' );
	expect( response.status ).toBe( 200 );
	return ( ( await response.json() ) as { endpoints: Array< { id: string } > } ).endpoints.map( ( e ) => e.id );
}

function environOf( pid: number ): string[] {
	return fs.readFileSync( `/proc/${ pid }/environ`, 'utf8' ).split( '\0' );
}

describe( 'npm start, its sidecar stopped and started by hand, and --fresh', () => {
	let endpoint: string;

	beforeAll( () => fs.rmSync( DIR, { recursive: true, force: true } ) );
	// npm stop is under test too: whatever a failing assertion left is killed by our own scan.
	afterEach( () => {
		current?.child.kill( 'SIGKILL' );
		killProcessesOfEnvironment( DIR );
	} );

	it( 'keeps WordPress running while the sidecar is stopped, starts it again as npm start did, and npm stop stops that one too', async () => {
		const start = await npmStart();
		// The site logs every browser in as administrator: it answers this machine only.
		expect( start.output() ).toContain( 'listens on 127.0.0.1 only' );
		expect( listeningAddresses( E2E_WP_PORT + 5 ) ).toEqual( [ '127.0.0.1' ] );
		const created = await adminCall( 'POST', '/webhooks/endpoints', {
			url: 'http://127.0.0.1:9/hooks',
			event_types: [ 'order.created' ],
		} );
		expect( created.status ).toBe( 201 );
		endpoint = ( ( await created.json() ) as { id: string } ).id;

		const child = readPid( sidecarPidFile( NAME ) );
		const running = await sidecar( 'status' );
		expect( running.status ).toBe( 0 );
		expect( running.stdout ).toContain( `The sidecar is running: pid ${ child }, ${ SIDECAR } (answers /health)` );

		const stopped = await sidecar( 'stop' );
		expect( stopped.status ).toBe( 0 );
		expect( stopped.stdout ).toContain( `sidecar stopped (pid ${ child })` );
		await printed( start, 'the sidecar is stopped (npm run sidecar -- stop); WordPress keeps running' );
		expect( start.output() ).toContain( `Start it again: npm run sidecar -- start --env=${ NAME }` );
		expect( start.child.exitCode ).toBeNull();
		const index = await fetch( `${ SITE }/wp-json/` );
		await index.arrayBuffer();
		expect( index.status ).toBe( 200 );
		expect( ( await adminCall( 'GET', '/sidecar/status' ) ).status ).toBe( 503 );
		const down = await sidecar( 'status' );
		expect( down.status ).toBe( 3 );
		expect( down.stdout ).toContain( `The sidecar is stopped (its URL: ${ SIDECAR })` );
		expect( ( await sidecar( 'stop' ) ).stdout ).toContain( 'already stopped' );

		// This shell's sidecar settings do not count: npm start's do.
		const again = await sidecar( 'start', { SIDECAR_LOG_LEVEL: 'fatal', SIDECAR_PORT: '1' } );
		expect( again.status ).toBe( 0 );
		const pid = readPid( sidecarPidFile( NAME ) ) as number;
		expect( again.stdout ).toContain( `sidecar answers /health (pid ${ pid }, ${ SIDECAR })` );
		await printed( start, `the sidecar runs again (pid ${ pid }` );
		expect( environOf( pid ) ).toEqual(
			expect.arrayContaining( [
				'SIDECAR_LOG_LEVEL=debug',
				`SIDECAR_PORT=${ E2E_SIDECAR_PORT + 5 }`,
				`SIDECAR_WORDPRESS_URL=${ SITE }`,
				`SIDECAR_DATA_DIR=${ path.join( DIR, 'sidecar-data' ) }`,
			] )
		);
		// The same data and shared key: WordPress talks to it, and the endpoint is still there.
		expect( ( await adminCall( 'GET', '/sidecar/status' ) ).status ).toBe( 200 );
		expect( await endpointIds() ).toContain( endpoint );
		expect( ( await sidecar( 'status' ) ).stdout ).toContain(
			`The sidecar is running: pid ${ pid }, ${ SIDECAR }`
		);

		expect( await stopEnvironment( NAME ) ).toContain( 'npm start stopped' );
		expect( await start.exited ).toBe( 0 );
		expect( processesOfEnvironment( DIR ) ).toEqual( [] );
		const gone = await sidecar( 'status' );
		expect( gone.status ).toBe( 1 );
		expect( gone.stderr ).toContain( 'npm start is not running' );
	}, 900_000 );

	it( '--fresh starts a clean site and a clean sidecar; a crash of a sidecar started again ends npm start', async () => {
		const oldPassword = fs.readFileSync( adminPasswordFile( NAME ), 'utf8' );
		const start = await npmStart( [ '--fresh' ] );
		expect( start.output() ).toContain(
			'fresh start: emptied the site (WordPress and its SQLite database, .cache/environments/' +
				`${ NAME }/wordpress), the sidecar's data (.cache/environments/${ NAME }/sidecar-data) and the admin application password`
		);
		expect( await endpointIds() ).toEqual( [] );
		expect( fs.readFileSync( adminPasswordFile( NAME ), 'utf8' ) ).not.toBe( oldPassword );

		expect( ( await sidecar( 'stop' ) ).status ).toBe( 0 );
		await printed( start, 'the sidecar is stopped' );
		expect( ( await sidecar( 'start' ) ).status ).toBe( 0 );
		const pid = readPid( sidecarPidFile( NAME ) ) as number;
		await printed( start, `the sidecar runs again (pid ${ pid }` );
		process.kill( pid, 'SIGKILL' );
		expect( await start.exited ).toBe( 1 );
		expect( start.output() ).toContain(
			`Stopping (the sidecar (pid ${ pid }, started by npm run sidecar -- start) exited unexpectedly; see `
		);
		expect( processesOfEnvironment( DIR ) ).toEqual( [] );
	}, 900_000 );
} );

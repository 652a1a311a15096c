/**
 * What the delivery benches (outbound-delivery.ts, multi-instance.ts) share: the receiver
 * process, spawning sidecars, the signed API client, the raw node:http baseline, and
 * CPU and RSS readings from /proc.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import http from 'http';
import https from 'https';
import net from 'net';
import path from 'path';
import axios from 'axios';
import { CHANNEL_HEADERS, signChannelRequest } from '../../sidecar/src/channel/channel-signature';
import { isSidecarBuildFresh, SIDECAR_BUILD_MAIN, SIDECAR_SOURCE_MAIN } from '../../scripts/lib/sidecar-command';
import { postOnce } from '../../sidecar/src/outbound/http-post';
import { buildDeliveryHeaders } from '../../sidecar/src/outbound/signing';
import type { ReceiverStats } from './webhook-receiver';

export type { ReceiverStats } from './webhook-receiver';

export const ROOT = path.resolve( __dirname, '..', '..' );

export function sleep( ms: number ): Promise< void > {
	return new Promise( ( resolve ) => setTimeout( resolve, ms ) );
}

export function round( n: number ): number {
	return Math.round( n * 10 ) / 10;
}

export function percentile( sorted: number[], p: number ): number {
	if ( sorted.length === 0 ) {
		return NaN;
	}
	return sorted[ Math.min( sorted.length - 1, Math.ceil( ( p / 100 ) * sorted.length ) - 1 ) ] as number;
}

// ---------------------------------------------------------------------------
// Receiver.

export class ReceiverProcess {
	private constructor(
		readonly child: ChildProcess,
		readonly url: string
	) {}

	static async start(): Promise< ReceiverProcess > {
		const child = fork( path.join( __dirname, 'webhook-receiver.ts' ), [], {
			execArgv: [ '-r', 'ts-node/register/transpile-only' ],
			cwd: ROOT,
			stdio: 'inherit',
		} );
		const { port } = await new Promise< { port: number } >( ( resolve ) =>
			child.once( 'message', resolve as ( m: unknown ) => void )
		);
		return new ReceiverProcess( child, `http://127.0.0.1:${ port }/hook` );
	}

	private ask< T >( cmd: string ): Promise< T > {
		return new Promise( ( resolve ) => {
			this.child.once( 'message', resolve as ( m: unknown ) => void );
			this.child.send( { cmd } );
		} );
	}

	reset(): Promise< unknown > {
		return this.ask( 'reset' );
	}

	stats(): Promise< ReceiverStats > {
		return this.ask( 'stats' );
	}

	async waitForDistinct( n: number, deadline: number ): Promise< ReceiverStats > {
		for (;;) {
			const stats = await this.stats();
			if ( stats.distinct >= n ) {
				return stats;
			}
			if ( Date.now() > deadline ) {
				throw new Error( `timed out: the receiver has ${ stats.distinct } of ${ n } events` );
			}
			await sleep( 5 );
		}
	}

	stop(): void {
		if ( this.child.connected ) {
			this.child.disconnect();
		}
	}
}

// ---------------------------------------------------------------------------
// Sidecars.

/** The compiled sidecar (npm run build:sidecar), built now if missing or stale. */
export function builtSidecar(): string {
	if ( ! isSidecarBuildFresh() ) {
		const built = spawnSync( 'npm', [ 'run', 'build:sidecar', '--silent' ], { cwd: ROOT, stdio: 'inherit' } );
		if ( built.status !== 0 ) {
			throw new Error( 'npm run build:sidecar failed' );
		}
	}
	return SIDECAR_BUILD_MAIN;
}

export async function freePort(): Promise< number > {
	const server = net.createServer();
	await new Promise< void >( ( resolve ) => server.listen( 0, '127.0.0.1', resolve ) );
	const { port } = server.address() as net.AddressInfo;
	await new Promise< void >( ( resolve ) => server.close( () => resolve() ) );
	return port;
}

export interface SidecarOptions {
	runtime: 'js' | 'ts-node';
	/** node --max-old-space-size; 0 or undefined: V8's own sizing. */
	maxOldSpace?: number;
	nodeFlags: string[];
	/** Write a CPU profile of the process into this folder. */
	profileDir?: string;
	dataDir: string;
	key: string;
	/** More environment for this sidecar (e.g. SIDECAR_DATABASE_URL). */
	env?: Record< string, string >;
	/** A compiled sidecar main.js to run instead of this tree's (another checkout's, for a before/after). */
	entry?: string;
}

export interface SidecarProcess {
	child: ChildProcess;
	pid: number;
	url: string;
	/** What the process wrote to stderr (the last 4 KB), to explain an early exit. */
	stderrTail: () => string;
}

export async function startSidecar( options: SidecarOptions ): Promise< SidecarProcess > {
	const port = await freePort();
	const args = [
		...( options.profileDir ? [ '--cpu-prof', `--cpu-prof-dir=${ options.profileDir }` ] : [] ),
		...( options.maxOldSpace ? [ `--max-old-space-size=${ options.maxOldSpace }` ] : [] ),
		...options.nodeFlags,
		...( options.runtime === 'js'
			? [ options.entry ?? builtSidecar() ]
			: [ '-r', 'ts-node/register/transpile-only', SIDECAR_SOURCE_MAIN ] ),
	];
	const child = spawn( process.execPath, args, {
		cwd: ROOT,
		stdio: [ 'ignore', 'inherit', 'pipe' ],
		env: {
			...process.env,
			TS_NODE_PROJECT: path.join( ROOT, 'tsconfig.json' ),
			SIDECAR_HOST: '127.0.0.1',
			SIDECAR_PORT: String( port ),
			SIDECAR_DATA_DIR: options.dataDir,
			SIDECAR_SHARED_KEY: options.key,
			SIDECAR_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
			SIDECAR_LOG_LEVEL: 'warn',
			...options.env,
		},
	} );
	let stderr = '';
	child.stderr?.on( 'data', ( chunk: Buffer ) => {
		process.stderr.write( chunk );
		stderr = ( stderr + chunk.toString( 'utf8' ) ).slice( -4096 );
	} );
	const url = `http://127.0.0.1:${ port }`;
	const deadline = Date.now() + 30_000;
	for (;;) {
		try {
			if ( ( await fetch( `${ url }/health` ) ).ok ) {
				return { child, pid: child.pid as number, url, stderrTail: () => stderr };
			}
		} catch {
			// not yet
		}
		if ( child.exitCode !== null || child.signalCode !== null || Date.now() > deadline ) {
			child.kill( 'SIGKILL' );
			throw Object.assign(
				new Error(
					`the sidecar did not start${ stderr ? `: ${ stderr.trim().split( '\n' ).slice( -3 ).join( ' / ' ) }` : '' }`
				),
				{ stderr }
			);
		}
		await sleep( 50 );
	}
}

/** SIGTERM, and wait for the exit. */
export async function stopSidecar( sidecar: SidecarProcess ): Promise< void > {
	if ( sidecar.child.exitCode !== null || sidecar.child.signalCode !== null ) {
		return;
	}
	const exited = new Promise( ( resolve ) => sidecar.child.once( 'exit', resolve ) );
	sidecar.child.kill( 'SIGTERM' );
	await exited;
}

// ---------------------------------------------------------------------------
// /proc readings.

/** CPU time (user + system) a process has used so far, in ms (from /proc, in clock ticks of 10 ms). */
export function cpuMs( pid: number ): number {
	const fields = fs.readFileSync( `/proc/${ pid }/stat`, 'utf8' ).split( ') ' )[ 1 ]?.split( ' ' ) ?? [];
	return ( Number( fields[ 11 ] ) + Number( fields[ 12 ] ) ) * 10; // utime, stime
}

export function rssMb( pid: number ): number {
	const status = fs.readFileSync( `/proc/${ pid }/status`, 'utf8' );
	const kb = Number( /VmRSS:\s+(\d+)/.exec( status )?.[ 1 ] ?? 0 );
	return kb / 1024;
}

/** Samples a process's RSS every 50 ms; returns a function giving the peak so far. */
export function watchRss( pid: number ): { peak: () => number; stop: () => void } {
	let peak = rssMb( pid );
	const timer = setInterval( () => {
		try {
			peak = Math.max( peak, rssMb( pid ) );
		} catch {
			// exited
		}
	}, 50 );
	return { peak: () => peak, stop: () => clearInterval( timer ) };
}

// ---------------------------------------------------------------------------
// The driver's clients.

const agent = new http.Agent( { keepAlive: true, maxSockets: 64 } );
// The raw baseline's transport: plain keep-alive agents (no URL guard: the receiver is ours), no deadline.
const rawAgents = { httpAgent: agent, httpsAgent: new https.Agent( { keepAlive: true } ) };
const client = axios.create( {
	httpAgent: agent,
	proxy: false,
	maxRedirects: 0,
	validateStatus: () => true,
	timeout: 30_000,
	responseType: 'text',
} );

export type SignedApi = ( method: string, route: string, body: unknown ) => Promise< { status: number; data: string } >;

/** Calls a sidecar's /v1 API as WordPress does, signed with the shared key (body undefined: none). */
export function signedApi( baseUrl: string, key: string ): SignedApi {
	return async ( method, route, body ) => {
		const raw = body === undefined ? Buffer.alloc( 0 ) : Buffer.from( JSON.stringify( body ) );
		const timestamp = Math.floor( Date.now() / 1000 );
		const requestId = crypto.randomUUID();
		const response = await client.request< string >( {
			method,
			url: baseUrl + route,
			data: raw,
			headers: {
				'content-type': 'application/json',
				[ CHANNEL_HEADERS.timestamp ]: String( timestamp ),
				[ CHANNEL_HEADERS.requestId ]: requestId,
				[ CHANNEL_HEADERS.signature ]: signChannelRequest( key, timestamp, requestId, method, route, raw ),
			},
		} );
		return { status: response.status, data: response.data };
	};
}

export function closeDriverAgents(): void {
	agent.destroy();
	rawAgents.httpsAgent.destroy();
}

export function makeEvent( id: string, n: number, sentNs?: bigint ) {
	return {
		id,
		type: 'order.paid',
		timestamp: new Date().toISOString(),
		ordering_key: `order:${ n }`,
		data: {
			order_id: n,
			total: '42.00',
			currency: 'EUR',
			...( sentNs === undefined ? {} : { sent_ns: String( sentNs ) } ),
		},
	};
}

/** `count` events in batches of `batch`, ids `${ prefix }${ n }`. */
export function makeBatches( prefix: string, count: number, batch: number ): unknown[][] {
	const batches: unknown[][] = [];
	for ( let i = 0; i < count; i += batch ) {
		batches.push(
			Array.from( { length: Math.min( batch, count - i ) }, ( _x, j ) =>
				makeEvent( `${ prefix }${ i + j }`, i + j )
			)
		);
	}
	return batches;
}

/**
 * POSTs the batches to /v1/events, `perApi` in flight on each API (an outbox catching up),
 * spreading them over the APIs in turn. Resolves when every batch was acknowledged (202).
 */
export async function postBatches( apis: SignedApi[], batches: unknown[][], perApi: number ): Promise< void > {
	let next = 0;
	const post = async ( api: SignedApi ) => {
		while ( next < batches.length ) {
			const response = await api( 'POST', '/v1/events', { events: batches[ next++ ] } );
			if ( response.status !== 202 ) {
				throw new Error( `POST /v1/events answered ${ response.status }: ${ response.data }` );
			}
		}
	};
	await Promise.all( apis.flatMap( ( api ) => Array.from( { length: perApi }, () => post( api ) ) ) );
}

/**
 * The ceiling: the same signed bodies POSTed straight to the receiver over the sidecar's own
 * transport (node:http, sidecar/src/outbound/http-post.ts), `concurrency` in parallel, no queue.
 * Returns the wall time and this process's CPU time, in ms.
 */
export async function rawDeliveries(
	receiverUrl: string,
	secret: string,
	prefix: string,
	count: number,
	concurrency: number
): Promise< { ms: number; cpuMs: number } > {
	const started = performance.now();
	const cpu0 = process.cpuUsage();
	let next = 0;
	const worker = async () => {
		while ( next < count ) {
			const n = next++;
			const event = makeEvent( `${ prefix }${ n }`, n );
			const body = JSON.stringify( { type: event.type, timestamp: event.timestamp, data: event.data } );
			const headers = buildDeliveryHeaders( {
				id: event.id,
				timestampSeconds: Math.floor( Date.now() / 1000 ),
				body,
				secrets: [ secret ],
			} );
			const response = await postOnce( receiverUrl, Buffer.from( body ), {
				headers,
				agents: rawAgents,
				maxResponseBytes: 1024 * 1024,
			} );
			if ( response.status !== 200 ) {
				throw new Error( `receiver answered ${ response.status }` );
			}
		}
	};
	await Promise.all( Array.from( { length: concurrency }, worker ) );
	const cpu = process.cpuUsage( cpu0 );
	return { ms: performance.now() - started, cpuMs: ( cpu.user + cpu.system ) / 1000 };
}

/** What fixedRateLatency() measured: event POSTed to its first arrival at the receiver. */
export interface LatencyResult {
	p50_ms: number;
	p99_ms: number;
	max_ms: number;
	achieved_rate_per_s: number;
	/** Wall time from the first POST to the last arrival. */
	wall_ms: number;
}

/**
 * One event per POST at a fixed rate, on schedule (not waiting for answers), the POSTs spread
 * over the APIs in turn (a load balancer); latency = the driver's send time to the receiver's
 * first arrival of that event, on the shared monotonic clock (the event carries its send time).
 */
export async function fixedRateLatency(
	apis: SignedApi[],
	receiver: ReceiverProcess,
	run: { prefix: string; events: number; rate: number; deadline: number }
): Promise< LatencyResult > {
	await receiver.reset();
	const interval = 1000 / run.rate;
	const started = performance.now();
	const inFlight: Promise< { status: number; data: string } >[] = [];
	for ( let i = 0; i < run.events; i++ ) {
		const wait = started + i * interval - performance.now();
		if ( wait > 1 ) {
			await sleep( wait );
		}
		const api = apis[ i % apis.length ] as SignedApi;
		inFlight.push(
			api( 'POST', '/v1/events', {
				events: [ makeEvent( `${ run.prefix }${ i }`, i, process.hrtime.bigint() ) ],
			} )
		);
	}
	const sendSeconds = ( performance.now() - started ) / 1000;
	for ( const answer of await Promise.all( inFlight ) ) {
		if ( answer.status !== 202 ) {
			throw new Error( `POST /v1/events answered ${ answer.status }: ${ answer.data }` );
		}
	}
	const stats = await receiver.waitForDistinct( run.events, run.deadline );
	const latencies = [ ...stats.latencies ].sort( ( x, y ) => x - y );
	return {
		p50_ms: round( percentile( latencies, 50 ) ),
		p99_ms: round( percentile( latencies, 99 ) ),
		max_ms: round( latencies[ latencies.length - 1 ] ?? NaN ),
		achieved_rate_per_s: Math.round( run.events / sendSeconds ),
		wall_ms: performance.now() - started,
	};
}

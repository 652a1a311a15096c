/**
 * Outbound delivery benchmark: the sidecar's durable queue vs. the same HTTP client without a queue.
 *
 * Run: npx ts-node --transpile-only bench/outbound-delivery.ts [--help]
 *
 * Everything runs on loopback: a receiver (its own process, answers 200 at once), the
 * sidecar (its own process, real SQLite in a temp dir) and this driver. Bounded in
 * event count and time; the temp data dir is removed at the end.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import http from 'http';
import https from 'https';
import net from 'net';
import os from 'os';
import path from 'path';
import axios from 'axios';
import { CHANNEL_HEADERS, signChannelRequest } from '../sidecar/src/channel/channel-signature';
import { isSidecarBuildFresh, SIDECAR_BUILD_MAIN, SIDECAR_MAX_OLD_SPACE_MB, SIDECAR_SOURCE_MAIN } from '../scripts/lib/sidecar-command';
import { postOnce } from '../sidecar/src/outbound/http-post';
import { buildDeliveryHeaders } from '../sidecar/src/outbound/signing';

const ROOT = path.resolve( __dirname, '..' );

const HELP = `Usage: npx ts-node --transpile-only bench/outbound-delivery.ts [options]

Measures, in one run and against the same local receiver:
  (a) events POSTed to a spawned sidecar (durable SQLite queue) -> delivered as signed webhooks
  (b) the same signed POSTs sent straight to the receiver by the sidecar's own HTTP transport
      (node:http, sidecar/src/outbound/http-post.ts) with no queue: (a)/(b) is the queue's cost
and prints deliveries/s for both and their ratio, the event-to-first-attempt latency
(p50/p99) at a fixed event rate, and the sidecar's peak RSS under load.

Options:
  --events <n>        events for the throughput runs (default 20000, max 200000)
  --batch <n>         events per POST /v1/events in the throughput run (default 500)
  --concurrency <n>   endpoint max_concurrency, and the raw client's parallel requests (default 16)
  --rate <n>          events per second for the latency run, one event per POST (default 500)
  --latency-events <n>  events in the latency run (default 5000, i.e. 10 s at 500/s)
  --runtime <js|ts-node>  how the sidecar runs: js = the compiled build, sidecar/dist (default,
                      as npm start and npm run sidecar run it; built first when stale);
                      ts-node = the sources through ts-node
  --max-seconds <n>   give up (and fail) after this long overall (default 180)
  --max-old-space <MB>  the sidecar's node --max-old-space-size (default 96, as npm start
                      runs it; 0 = V8's own sizing)
  --profile           write a CPU profile of the sidecar to .cache/bench/profile/
  --json              print the results as JSON as well
  --help              this text

Targets: >= 2000 deliveries/s, p99 < 100 ms at 500 events/s, RSS < 150 MB.
`;

interface Options {
	events: number;
	batch: number;
	concurrency: number;
	rate: number;
	latencyEvents: number;
	runtime: 'js' | 'ts-node';
	maxSeconds: number;
	json: boolean;
	profile: boolean;
	maxOldSpace?: number;
}

function parseOptions( argv: string[] ): Options | undefined {
	const options: Options = { events: 20000, batch: 500, concurrency: 16, rate: 500, latencyEvents: 5000, runtime: 'js', maxOldSpace: SIDECAR_MAX_OLD_SPACE_MB, maxSeconds: 180, json: false, profile: false };
	const ints: Record< string, [ keyof Options, number, number ] > = {
		'--events': [ 'events', 1, 200_000 ],
		'--batch': [ 'batch', 1, 500 ],
		'--concurrency': [ 'concurrency', 1, 64 ],
		'--rate': [ 'rate', 1, 5000 ],
		'--latency-events': [ 'latencyEvents', 1, 100_000 ],
		'--max-seconds': [ 'maxSeconds', 10, 3600 ],
		'--max-old-space': [ 'maxOldSpace', 0, 4096 ],
	};
	for ( let i = 0; i < argv.length; i++ ) {
		const [ flag, inline ] = ( argv[ i ] as string ).split( '=', 2 ) as [ string, string | undefined ];
		if ( flag === '--help' || flag === '-h' ) {
			return undefined;
		}
		if ( flag === '--json' || flag === '--profile' ) {
			options[ flag === '--json' ? 'json' : 'profile' ] = true;
			continue;
		}
		const value = inline ?? argv[ ++i ];
		if ( flag === '--runtime' && ( value === 'js' || value === 'ts-node' ) ) {
			options.runtime = value;
			continue;
		}
		const spec = ints[ flag ];
		const n = Number( value );
		if ( ! spec || ! Number.isInteger( n ) || n < spec[ 1 ] || n > spec[ 2 ] ) {
			throw new Error( `bad option ${ flag } ${ value ?? '' } (see --help)` );
		}
		( options as unknown as Record< string, number > )[ spec[ 0 ] ] = n;
	}
	return options;
}

// ---------------------------------------------------------------------------
// Receiver (child process): answers 200 at once, reports first arrivals.

interface ReceiverStats {
	distinct: number;
	requests: number;
	/** ms from the driver's send time (in the event data) to the first arrival, per event. */
	latencies: number[];
}

function runReceiver(): void {
	let seen = new Set< string >();
	let requests = 0;
	let latencies: number[] = [];
	const server = http.createServer( ( req, res ) => {
		const chunks: Buffer[] = [];
		req.on( 'data', ( c: Buffer ) => chunks.push( c ) );
		req.on( 'end', () => {
			const arrived = process.hrtime.bigint();
			res.writeHead( 200, { 'content-type': 'text/plain' } ).end( 'ok' );
			requests++;
			const id = String( req.headers[ 'webhook-id' ] ?? '' );
			if ( seen.has( id ) ) {
				return;
			}
			seen.add( id );
			const body = Buffer.concat( chunks ).toString( 'utf8' );
			// hrtime is CLOCK_MONOTONIC, shared by every process on the machine.
			const match = /"sent_ns":"(\d+)"/.exec( body );
			if ( match ) {
				latencies.push( Number( arrived - BigInt( match[ 1 ] as string ) ) / 1e6 );
			}
		} );
	} );
	server.keepAliveTimeout = 60_000;
	server.listen( 0, '127.0.0.1', () => {
		process.send?.( { port: ( server.address() as net.AddressInfo ).port } );
	} );
	process.on( 'message', ( message: { cmd: string } ) => {
		if ( message.cmd === 'reset' ) {
			seen = new Set();
			requests = 0;
			latencies = [];
			process.send?.( { ok: true } );
		} else if ( message.cmd === 'stats' ) {
			process.send?.( { distinct: seen.size, requests, latencies } satisfies ReceiverStats );
		}
	} );
	process.on( 'disconnect', () => process.exit( 0 ) );
}

class ReceiverProcess {
	private constructor(
		readonly child: ChildProcess,
		readonly url: string
	) {}

	static async start(): Promise< ReceiverProcess > {
		const child = fork( __filename, [ '--role=receiver' ], { execArgv: [ '-r', 'ts-node/register/transpile-only' ], cwd: ROOT, stdio: 'inherit' } );
		const { port } = await new Promise< { port: number } >( ( resolve ) => child.once( 'message', resolve as ( m: unknown ) => void ) );
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
		for ( ;; ) {
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
}

// ---------------------------------------------------------------------------
// Sidecar (child process).

/** The compiled sidecar (npm run build:sidecar), built now if missing or stale. */
function builtSidecar(): string {
	if ( ! isSidecarBuildFresh() ) {
		const built = spawnSync( 'npm', [ 'run', 'build:sidecar', '--silent' ], { cwd: ROOT, stdio: 'inherit' } );
		if ( built.status !== 0 ) {
			throw new Error( 'npm run build:sidecar failed' );
		}
	}
	return SIDECAR_BUILD_MAIN;
}

async function freePort(): Promise< number > {
	const server = net.createServer();
	await new Promise< void >( ( resolve ) => server.listen( 0, '127.0.0.1', resolve ) );
	const { port } = server.address() as net.AddressInfo;
	await new Promise< void >( ( resolve ) => server.close( () => resolve() ) );
	return port;
}

async function startSidecar( options: Options, dataDir: string, key: string ): Promise< { child: ChildProcess; url: string } > {
	const port = await freePort();
	const profile = options.profile ? [ '--cpu-prof', `--cpu-prof-dir=${ path.join( ROOT, '.cache', 'bench', 'profile' ) }` ] : [];
	const args = [
		...profile,
		...( options.maxOldSpace ? [ `--max-old-space-size=${ options.maxOldSpace }` ] : [] ),
		...( options.runtime === 'js' ? [ builtSidecar() ] : [ '-r', 'ts-node/register/transpile-only', SIDECAR_SOURCE_MAIN ] ),
	];
	const child = spawn( process.execPath, args, {
		cwd: ROOT,
		stdio: [ 'ignore', 'inherit', 'inherit' ],
		env: {
			...process.env,
			TS_NODE_PROJECT: path.join( ROOT, 'tsconfig.json' ),
			SIDECAR_HOST: '127.0.0.1',
			SIDECAR_PORT: String( port ),
			SIDECAR_DATA_DIR: dataDir,
			SIDECAR_SHARED_KEY: key,
			SIDECAR_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
			SIDECAR_LOG_LEVEL: 'warn',
		},
	} );
	const url = `http://127.0.0.1:${ port }`;
	const deadline = Date.now() + 30_000;
	for ( ;; ) {
		try {
			if ( ( await fetch( `${ url }/health` ) ).ok ) {
				return { child, url };
			}
		} catch {
			// not yet
		}
		if ( child.exitCode !== null || Date.now() > deadline ) {
			child.kill( 'SIGKILL' );
			throw new Error( 'the sidecar did not start' );
		}
		await sleep( 50 );
	}
}

/** CPU time (user + system) a process has used so far, in ms (from /proc, in clock ticks of 10 ms). */
function cpuMs( pid: number ): number {
	const fields = fs.readFileSync( `/proc/${ pid }/stat`, 'utf8' ).split( ') ' )[ 1 ]?.split( ' ' ) ?? [];
	return ( Number( fields[ 11 ] ) + Number( fields[ 12 ] ) ) * 10; // utime, stime
}

function rssMb( pid: number ): number {
	const status = fs.readFileSync( `/proc/${ pid }/status`, 'utf8' );
	const kb = Number( /VmRSS:\s+(\d+)/.exec( status )?.[ 1 ] ?? 0 );
	return kb / 1024;
}

/** Samples a process's RSS every 50 ms; returns a function giving the peak so far. */
function watchRss( pid: number ): { peak: () => number; stop: () => void } {
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
// Driver.

const agent = new http.Agent( { keepAlive: true, maxSockets: 64 } );
// (b)'s transport: plain keep-alive agents (no URL guard: the receiver is ours), no deadline.
const rawAgents = { httpAgent: agent, httpsAgent: new https.Agent( { keepAlive: true } ) };
const client = axios.create( { httpAgent: agent, proxy: false, maxRedirects: 0, validateStatus: () => true, timeout: 30_000, responseType: 'text' } );

function signedApi( baseUrl: string, key: string ) {
	return async ( method: string, route: string, body: unknown ): Promise< { status: number; data: string } > => {
		const raw = Buffer.from( JSON.stringify( body ) );
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

function makeEvent( id: string, n: number, sentNs?: bigint ) {
	return {
		id,
		type: 'order.paid',
		timestamp: new Date().toISOString(),
		ordering_key: `order:${ n }`,
		data: { order_id: n, total: '42.00', currency: 'EUR', ...( sentNs === undefined ? {} : { sent_ns: String( sentNs ) } ) },
	};
}

function percentile( sorted: number[], p: number ): number {
	if ( sorted.length === 0 ) {
		return NaN;
	}
	return sorted[ Math.min( sorted.length - 1, Math.ceil( ( p / 100 ) * sorted.length ) - 1 ) ] as number;
}

function sleep( ms: number ): Promise< void > {
	return new Promise( ( resolve ) => setTimeout( resolve, ms ) );
}

async function main(): Promise< void > {
	const options = parseOptions( process.argv.slice( 2 ) );
	if ( ! options ) {
		process.stdout.write( HELP );
		return;
	}
	const deadline = Date.now() + options.maxSeconds * 1000;
	const key = crypto.randomBytes( 24 ).toString( 'hex' );
	const dataDir = fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-bench-' ) );
	const receiver = await ReceiverProcess.start();
	const sidecar = await startSidecar( options, dataDir, key );
	const api = signedApi( sidecar.url, key );
	const pid = sidecar.child.pid as number;
	const idleRss = rssMb( pid );
	try {
		const endpoint = await api( 'POST', '/v1/endpoints', { url: receiver.url, max_concurrency: options.concurrency } );
		if ( endpoint.status !== 201 ) {
			throw new Error( `cannot create the endpoint: ${ endpoint.status } ${ endpoint.data }` );
		}
		const secret = ( JSON.parse( endpoint.data ) as { secret: string } ).secret;

		// Warm-up (JIT, connections, SQLite pages), not measured.
		await api( 'POST', '/v1/events', { events: Array.from( { length: 200 }, ( _x, i ) => makeEvent( `warm_${ i }`, i ) ) } );
		await receiver.waitForDistinct( 200, deadline );
		await receiver.reset();
		const rss = watchRss( pid );

		// (a) Through the sidecar: batches POSTed (2 in flight, like an outbox catching up),
		// stored, then delivered. Clock stops when the receiver has every event.
		const a0 = performance.now();
		const aCpu0 = cpuMs( pid );
		let acknowledgedAt = 0;
		{
			const batches: unknown[][] = [];
			for ( let i = 0; i < options.events; i += options.batch ) {
				batches.push( Array.from( { length: Math.min( options.batch, options.events - i ) }, ( _x, j ) => makeEvent( `tp_${ i + j }`, i + j ) ) );
			}
			let next = 0;
			const post = async () => {
				while ( next < batches.length ) {
					const response = await api( 'POST', '/v1/events', { events: batches[ next++ ] } );
					if ( response.status !== 202 ) {
						throw new Error( `POST /v1/events answered ${ response.status }: ${ response.data }` );
					}
				}
			};
			await Promise.all( [ post(), post() ] );
			acknowledgedAt = performance.now() - a0;
		}
		await receiver.waitForDistinct( options.events, deadline );
		const aSeconds = ( performance.now() - a0 ) / 1000;
		const aCpuMs = cpuMs( pid ) - aCpu0;
		const aStats = await receiver.stats();

		// (b) The same transport, no queue: the same signed bodies straight to the receiver, same parallelism.
		await receiver.reset();
		const b0 = performance.now();
		const bCpu0 = process.cpuUsage();
		{
			let next = 0;
			const worker = async () => {
				while ( next < options.events ) {
					const n = next++;
					const body = JSON.stringify( ( ( e ) => ( { type: e.type, timestamp: e.timestamp, data: e.data } ) )( makeEvent( `raw_${ n }`, n ) ) );
					const headers = buildDeliveryHeaders( { id: `raw_${ n }`, timestampSeconds: Math.floor( Date.now() / 1000 ), body, secrets: [ secret ] } );
					const response = await postOnce( receiver.url, Buffer.from( body ), { headers, agents: rawAgents, maxResponseBytes: 1024 * 1024 } );
					if ( response.status !== 200 ) {
						throw new Error( `receiver answered ${ response.status }` );
					}
				}
			};
			await Promise.all( Array.from( { length: options.concurrency }, worker ) );
		}
		const bSeconds = ( performance.now() - b0 ) / 1000;
		const bCpu = process.cpuUsage( bCpu0 );
		const bCpuMs = ( bCpu.user + bCpu.system ) / 1000;

		// Latency at a fixed rate: one event per POST, on schedule; latency = driver send
		// time to the receiver's first arrival of that event.
		await receiver.reset();
		const interval = 1000 / options.rate;
		const l0 = performance.now();
		const lCpu0 = cpuMs( pid );
		const inFlight: Promise< unknown >[] = [];
		for ( let i = 0; i < options.latencyEvents; i++ ) {
			const due = l0 + i * interval;
			const wait = due - performance.now();
			if ( wait > 1 ) {
				await sleep( wait );
			}
			inFlight.push( api( 'POST', '/v1/events', { events: [ makeEvent( `lat_${ i }`, i, process.hrtime.bigint() ) ] } ) );
		}
		const sendSeconds = ( performance.now() - l0 ) / 1000;
		await Promise.all( inFlight );
		const lStats = await receiver.waitForDistinct( options.latencyEvents, deadline );
		const lWallMs = performance.now() - l0;
		const lCpuMs = cpuMs( pid ) - lCpu0;
		rss.stop();
		const latencies = [ ...lStats.latencies ].sort( ( x, y ) => x - y );

		const results = {
			runtime: options.runtime,
			events: options.events,
			batch: options.batch,
			concurrency: options.concurrency,
			sidecar: {
				deliveries_per_s: Math.round( options.events / aSeconds ),
				ingest_events_per_s: Math.round( options.events / ( acknowledgedAt / 1000 ) ),
				seconds: round( aSeconds ),
				repeated_deliveries: aStats.requests - aStats.distinct,
				// Ingest + store + deliver, per event: comparable across machines and loads.
				cpu_us_per_delivery: Math.round( ( aCpuMs * 1000 ) / options.events ),
			},
			raw_http: {
				deliveries_per_s: Math.round( options.events / bSeconds ),
				seconds: round( bSeconds ),
				cpu_us_per_delivery: Math.round( ( bCpuMs * 1000 ) / options.events ),
			},
			ratio_sidecar_to_raw: round( bSeconds / aSeconds ),
			latency: {
				rate_per_s: options.rate,
				achieved_rate_per_s: Math.round( options.latencyEvents / sendSeconds ),
				events: latencies.length,
				p50_ms: round( percentile( latencies, 50 ) ),
				p99_ms: round( percentile( latencies, 99 ) ),
				max_ms: round( latencies[ latencies.length - 1 ] ?? NaN ),
				// Near 100 %: the sidecar itself is the bottleneck; well below: it waited for a CPU.
				sidecar_cpu_busy_pct: Math.round( ( 100 * lCpuMs ) / lWallMs ),
				sidecar_cpu_us_per_event: Math.round( ( lCpuMs * 1000 ) / options.latencyEvents ),
			},
			rss_mb: { idle: Math.round( idleRss ), peak_under_load: Math.round( rss.peak() ) },
			machine: `${ os.cpus().length } x ${ os.cpus()[ 0 ]?.model.trim() }, Node ${ process.version }, load average ${ os.loadavg()[ 0 ]?.toFixed( 1 ) } at the end`,
			max_old_space_mb: options.maxOldSpace ?? null,
		};

		const check = ( ok: boolean ) => ( ok ? 'ok' : 'MISSED' );
		process.stdout.write(
			[
				`Outbound delivery benchmark (${ results.machine }; sidecar runtime: ${ options.runtime }${ options.maxOldSpace ? `, --max-old-space-size=${ options.maxOldSpace }` : '' })`,
				`  throughput, ${ options.events } events, endpoint max_concurrency ${ options.concurrency }:`,
				`    (a) sidecar, durable queue   ${ results.sidecar.deliveries_per_s } deliveries/s  (${ results.sidecar.seconds } s; ${ results.sidecar.cpu_us_per_delivery } µs CPU each; ingest ${ results.sidecar.ingest_events_per_s } events/s in batches of ${ options.batch })  [target >= 2000: ${ check( results.sidecar.deliveries_per_s >= 2000 ) }]`,
				`    (b) raw node:http, no queue  ${ results.raw_http.deliveries_per_s } deliveries/s  (${ results.raw_http.seconds } s; ${ results.raw_http.cpu_us_per_delivery } µs CPU each)`,
				`    ratio (a)/(b)                ${ results.ratio_sidecar_to_raw }`,
				`  latency, event POSTed -> first attempt at the receiver, ${ options.latencyEvents } events at ${ options.rate }/s (achieved ${ results.latency.achieved_rate_per_s }/s):`,
				`    p50 ${ results.latency.p50_ms } ms   p99 ${ results.latency.p99_ms } ms   max ${ results.latency.max_ms } ms  [target p99 < 100: ${ check( results.latency.p99_ms < 100 ) }]`,
				`    sidecar busy ${ results.latency.sidecar_cpu_busy_pct } % of the time, ${ results.latency.sidecar_cpu_us_per_event } µs CPU per event (one POST + one delivery)`,
				`  sidecar RSS: idle ${ results.rss_mb.idle } MB, peak under load ${ results.rss_mb.peak_under_load } MB  [target < 150: ${ check( results.rss_mb.peak_under_load < 150 ) }]`,
				'',
			].join( '\n' )
		);
		if ( options.json ) {
			process.stdout.write( JSON.stringify( results, null, 2 ) + '\n' );
		}
	} finally {
		sidecar.child.kill( 'SIGTERM' );
		await new Promise( ( resolve ) => sidecar.child.once( 'exit', resolve ) );
		receiver.child.disconnect();
		agent.destroy();
		fs.rmSync( dataDir, { recursive: true, force: true } );
	}
}

function round( n: number ): number {
	return Math.round( n * 10 ) / 10;
}

if ( process.argv.includes( '--role=receiver' ) ) {
	runReceiver();
} else {
	main().catch( ( error: unknown ) => {
		process.stderr.write( `bench: ${ ( error as Error ).message }\n` );
		process.exit( 1 );
	} );
}

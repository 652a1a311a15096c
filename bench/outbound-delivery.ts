/**
 * Outbound delivery benchmark: the sidecar's durable queue vs. the same HTTP client without a queue.
 *
 * Run: npx ts-node --transpile-only bench/outbound-delivery.ts [--help]
 *
 * Everything runs on loopback: a receiver (its own process, answers 200 at once), the
 * sidecar (its own process, real SQLite in a temp dir) and this driver. Bounded in
 * event count and time; the temp data dir is removed at the end.
 */
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { intFlag, parseFlags, textFlag } from '../scripts/lib/cli-args';
import { SIDECAR_MAX_OLD_SPACE_MB, SIDECAR_MAX_SEMI_SPACE_MB } from '../scripts/lib/sidecar-command';
import {
	closeDriverAgents,
	cpuMs,
	fixedRateLatency,
	makeBatches,
	makeEvent,
	postBatches,
	rawDeliveries,
	ReceiverProcess,
	ROOT,
	round,
	rssMb,
	signedApi,
	startSidecar,
	stopSidecar,
	watchRss,
} from './support/delivery-bench';

const HELP = `Usage: npx ts-node --transpile-only bench/outbound-delivery.ts [options]

Measures, in one run and against the same local receiver:
  (a) events POSTed to a spawned sidecar (durable SQLite queue) -> delivered as signed webhooks
  (b) the same signed POSTs sent straight to the receiver by the sidecar's own HTTP transport
      (node:http, sidecar/src/outbound/http-post.ts) with no queue: (a)/(b) is the queue's cost
and prints deliveries/s for both and their ratio, the event-to-first-attempt latency
(p50/p99) at a fixed event rate, and the sidecar's peak RSS under load.

Options:
  --events=<n>        events for the throughput runs (default 20000, max 200000)
  --batch=<n>         events per POST /v1/events in the throughput run (default 500)
  --concurrency=<n>   endpoint max_concurrency, and the raw client's parallel requests (default 16)
  --rate=<n>          events per second for the latency run, one event per POST (default 500)
  --latency-events=<n>  events in the latency run (default 5000, i.e. 10 s at 500/s)
  --runtime=<js|ts-node>  how the sidecar runs: js = the compiled build, sidecar/dist (default,
                      as npm start and npm run sidecar run it; built first when stale);
                      ts-node = the sources through ts-node
  --max-seconds=<n>   give up (and fail) after this long overall (default 180)
  --max-old-space=<MB>  the sidecar's node --max-old-space-size (default 96, as npm start
                      runs it; 0 = V8's own sizing)
  --node-flags="<flags>"  more node flags for the sidecar (default "--max-semi-space-size=1", as
                      npm start runs it; --node-flags= for none)
  --profile           write a CPU profile of the sidecar to .cache/bench/profile/
  --in-memory-db      an experiment, not a product setting: the sidecar's SQLite database in
                      memory (SIDECAR_DATA_DIR=:memory:) instead of a file, nothing durable; the
                      difference from a default run is what the file's writes cost
  --json              print the results as JSON as well
  --help              this text

Targets: >= 2000 deliveries/s and >= 0.8x the raw client's, p99 < 100 ms at 500 events/s,
sidecar peak RSS < 100 MB.
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
	inMemoryDb: boolean;
	maxOldSpace?: number;
	nodeFlags: string[];
}

function parseOptions( argv: string[] ): Options | undefined {
	const flags = parseFlags( argv, [
		'help',
		'events',
		'batch',
		'concurrency',
		'rate',
		'latency-events',
		'runtime',
		'max-seconds',
		'max-old-space',
		'node-flags',
		'profile',
		'in-memory-db',
		'json',
	] );
	if ( flags.help ) {
		return undefined;
	}
	const runtime = textFlag( flags, 'runtime' ) ?? 'js';
	if ( runtime !== 'js' && runtime !== 'ts-node' ) {
		throw new Error( `--runtime must be js or ts-node, got "${ runtime }"` );
	}
	return {
		events: intFlag( flags, 'events', 20000, 1, 200_000 ),
		batch: intFlag( flags, 'batch', 500, 1, 500 ),
		concurrency: intFlag( flags, 'concurrency', 16, 1, 64 ),
		rate: intFlag( flags, 'rate', 500, 1, 5000 ),
		latencyEvents: intFlag( flags, 'latency-events', 5000, 1, 100_000 ),
		runtime,
		maxSeconds: intFlag( flags, 'max-seconds', 180, 10, 3600 ),
		maxOldSpace: intFlag( flags, 'max-old-space', SIDECAR_MAX_OLD_SPACE_MB, 0, 4096 ),
		nodeFlags: ( textFlag( flags, 'node-flags' ) ?? `--max-semi-space-size=${ SIDECAR_MAX_SEMI_SPACE_MB }` )
			.split( /\s+/ )
			.filter( ( f ) => f !== '' ),
		profile: flags.profile === true,
		inMemoryDb: flags[ 'in-memory-db' ] === true,
		json: flags.json === true,
	};
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
	const sidecar = await startSidecar( {
		runtime: options.runtime,
		maxOldSpace: options.maxOldSpace,
		nodeFlags: options.nodeFlags,
		...( options.profile ? { profileDir: path.join( ROOT, '.cache', 'bench', 'profile' ) } : {} ),
		dataDir: options.inMemoryDb ? ':memory:' : dataDir,
		key,
	} );
	const api = signedApi( sidecar.url, key );
	const pid = sidecar.pid;
	const idleRss = rssMb( pid );
	try {
		const endpoint = await api( 'POST', '/v1/endpoints', {
			url: receiver.url,
			max_concurrency: options.concurrency,
		} );
		if ( endpoint.status !== 201 ) {
			throw new Error( `cannot create the endpoint: ${ endpoint.status } ${ endpoint.data }` );
		}
		const secret = ( JSON.parse( endpoint.data ) as { secret: string } ).secret;

		// Warm-up (JIT, connections, SQLite pages), not measured.
		await api( 'POST', '/v1/events', {
			events: Array.from( { length: 200 }, ( _x, i ) => makeEvent( `warm_${ i }`, i ) ),
		} );
		await receiver.waitForDistinct( 200, deadline );
		await receiver.reset();
		const rss = watchRss( pid );

		// (a) Through the sidecar: batches POSTed (2 in flight, like an outbox catching up),
		// stored, then delivered. Clock stops when the receiver has every event.
		const a0 = performance.now();
		const aCpu0 = cpuMs( pid );
		let acknowledgedAt = 0;
		{
			await postBatches( [ api ], makeBatches( 'tp_', options.events, options.batch ), 2 );
			acknowledgedAt = performance.now() - a0;
		}
		await receiver.waitForDistinct( options.events, deadline );
		const aSeconds = ( performance.now() - a0 ) / 1000;
		const aCpuMs = cpuMs( pid ) - aCpu0;
		const aStats = await receiver.stats();

		// (b) The same transport, no queue: the same signed bodies straight to the receiver, same parallelism.
		await receiver.reset();
		const raw = await rawDeliveries( receiver.url, secret, 'raw_', options.events, options.concurrency );
		const bSeconds = raw.ms / 1000;
		const bCpuMs = raw.cpuMs;

		// Latency at a fixed rate: one event per POST, on schedule.
		const lCpu0 = cpuMs( pid );
		const latency = await fixedRateLatency( [ api ], receiver, {
			prefix: 'lat_',
			events: options.latencyEvents,
			rate: options.rate,
			deadline,
		} );
		const lCpuMs = cpuMs( pid ) - lCpu0;
		rss.stop();

		const ratio = bSeconds / aSeconds;
		const results = {
			runtime: options.runtime,
			database: options.inMemoryDb ? 'in memory (not durable)' : 'file',
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
			// Two decimals: at one, 0.75 would print (and pass) as 0.8.
			ratio_sidecar_to_raw: Math.round( ratio * 100 ) / 100,
			latency: {
				rate_per_s: options.rate,
				achieved_rate_per_s: latency.achieved_rate_per_s,
				events: options.latencyEvents,
				p50_ms: latency.p50_ms,
				p99_ms: latency.p99_ms,
				max_ms: latency.max_ms,
				// Near 100 %: the sidecar itself is the bottleneck; well below: it waited for a CPU.
				sidecar_cpu_busy_pct: Math.round( ( 100 * lCpuMs ) / latency.wall_ms ),
				sidecar_cpu_us_per_event: Math.round( ( lCpuMs * 1000 ) / options.latencyEvents ),
			},
			rss_mb: { idle: Math.round( idleRss ), peak_under_load: Math.round( rss.peak() ) },
			machine: `${ os.cpus().length } x ${ os.cpus()[ 0 ]?.model.trim() }, Node ${ process.version }, load average ${ os.loadavg()[ 0 ]?.toFixed( 1 ) } at the end`,
			max_old_space_mb: options.maxOldSpace ?? null,
		};

		const check = ( ok: boolean ) => ( ok ? 'ok' : 'MISSED' );
		process.stdout.write(
			[
				`Outbound delivery benchmark (${ results.machine }; sidecar runtime: ${ options.runtime }${ options.inMemoryDb ? ', database IN MEMORY (experiment, not durable)' : '' }${ options.maxOldSpace ? `, --max-old-space-size=${ options.maxOldSpace }` : '' }${ options.nodeFlags.map( ( f ) => ` ${ f }` ).join( '' ) })`,
				`  throughput, ${ options.events } events, endpoint max_concurrency ${ options.concurrency }:`,
				`    (a) sidecar, ${ ( options.inMemoryDb ? 'queue in memory' : 'durable queue' ).padEnd( 16 ) }${ results.sidecar.deliveries_per_s } deliveries/s  (${ results.sidecar.seconds } s; ${ results.sidecar.cpu_us_per_delivery } µs CPU each; ingest ${ results.sidecar.ingest_events_per_s } events/s in batches of ${ options.batch })  [target >= 2000: ${ check( results.sidecar.deliveries_per_s >= 2000 ) }]`,
				`    (b) raw node:http, no queue  ${ results.raw_http.deliveries_per_s } deliveries/s  (${ results.raw_http.seconds } s; ${ results.raw_http.cpu_us_per_delivery } µs CPU each)`,
				`    ratio (a)/(b)                ${ results.ratio_sidecar_to_raw }  (what the durable queue and its delivery log cost; bench/README.md)`,
				`  latency, event POSTed -> first attempt at the receiver, ${ options.latencyEvents } events at ${ options.rate }/s (achieved ${ results.latency.achieved_rate_per_s }/s):`,
				`    p50 ${ results.latency.p50_ms } ms   p99 ${ results.latency.p99_ms } ms   max ${ results.latency.max_ms } ms  [target p99 < 100: ${ check( results.latency.p99_ms < 100 ) }]`,
				`    sidecar busy ${ results.latency.sidecar_cpu_busy_pct } % of the time, ${ results.latency.sidecar_cpu_us_per_event } µs CPU per event (one POST + one delivery)`,
				`  sidecar RSS: idle ${ results.rss_mb.idle } MB, peak under load ${ results.rss_mb.peak_under_load } MB  [target < 100: ${ check( results.rss_mb.peak_under_load < 100 ) }]`,
				'',
			].join( '\n' )
		);
		if ( options.json ) {
			process.stdout.write( JSON.stringify( results, null, 2 ) + '\n' );
		}
	} finally {
		await stopSidecar( sidecar );
		receiver.stop();
		closeDriverAgents();
		fs.rmSync( dataDir, { recursive: true, force: true } );
	}
}

main().catch( ( error: unknown ) => {
	process.stderr.write( `bench: ${ ( error as Error ).message }\n` );
	process.exit( 1 );
} );

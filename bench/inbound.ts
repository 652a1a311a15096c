/**
 * Inbound webhooks benchmark: how fast the receiving route acknowledges a webhook, beside
 * an empty REST route on the same WordPress, and how many verifications a second the
 * sidecar's verifier does on its own.
 *
 * Run: npx ts-node --transpile-only bench/inbound.ts [--help]
 */
import { performance } from 'perf_hooks';
import path from 'path';
import { intFlag, intListFlag, parseFlags, portFlag } from '../scripts/lib/cli-args';
import { PLAYGROUND_COOKIE } from '../scripts/lib/wp-env';
import { createApplicationPassword, loginCookies, restNonce } from '../scripts/lib/wp-login';
import { checkInbound } from '../sidecar/src/inbound/receive';
import { generateSourceSecret } from '../sidecar/src/inbound/source-secrets';
import type { InboundSource } from '../sidecar/src/model/inbound';
import { INBOUND_SCHEMES, type InboundScheme } from '../sidecar/src/contracts/constants';
import { providerSecret, sampleWebhook, signStandardWebhook } from '../tests/support/inbound-signers';
import { RUNTIME_HELP, runtimeFlag, startBenchStack, type BenchRuntime, type BenchStack } from './support/bench-stack';

const HELP = `Usage: npx ts-node --transpile-only bench/inbound.ts [options]

Starts its own WordPress (Playground runtime, native PHP with --runtime=native, or nginx +
PHP-FPM + MariaDB with --runtime=production; fresh database; WordPress 6.5.5 without a shop:
no WooCommerce needed) and sidecar, activates the bench-only plugin
tests/fixtures/plugins/inbound-bench (an empty public REST route, POST
/wp-json/si-bench/v1/empty, that answers 202 and does nothing), creates a Standard Webhooks
source, lets WordPress's first cron run finish, then measures on that one site, interleaved in
rounds:
  (a) POST /wp-json/service-integration-inbound/v1/<source>: a new signed event each time
      (transport checks, signed round trip to the sidecar, insert-once, cron kick, 202)
  (b) POST /wp-json/si-bench/v1/empty with the same body and headers
at 1, 4 and 16 concurrent senders: p50, p99 and max acknowledge latency, and (a)/(b) per
concurrency, in two cron set-ups:
  wp      WP-Cron as installed: page loads spawn cron runs, which process the events
  system  DISABLE_WP_CRON, with this script calling wp-cron.php every --system-cron-s
          seconds, as a system cron does (what docs/production.md recommends)
Then, in this process and without HTTP, the sidecar's verification throughput per scheme
(checkInbound: signature + normalisation), in verifications/s.
Loopback only; bounded by --requests and --verify-ms; stops WordPress and the sidecar at
the end, even on failure.

Options:
${ RUNTIME_HELP }  --requests=<n>       requests per route per concurrency level (default 64, max 2000)
  --concurrency=<list> concurrency levels (default 1,4,16)
  --cron=<list>        cron set-ups, among wp,system (default wp,system)
  --system-cron-s=<n>  seconds between wp-cron.php calls in the system set-up (default 60)
  --warmup=<n>         unmeasured requests per route before each level (default 8)
  --verify-ms=<n>      time per scheme for the in-process verification run (default 2000)
  --skip-http          only the in-process verification throughput (no WordPress)
  --name=<env>         environment name (default bench-inbound)
  --wp-port=<port>     WordPress port (default 8931)
  --sidecar-port=<port>  sidecar port (default 8831)
  --json               also print the results as JSON
  --help               this text

Targets: (a)/(b) <= 1.3 at p50 and p99 for every concurrency; no request over 5 s at 16.
`;

type CronMode = 'wp' | 'system';

interface Options {
	runtime: BenchRuntime;
	phpWorkers: number;
	requests: number;
	concurrency: number[];
	cron: CronMode[];
	systemCronSeconds: number;
	warmup: number;
	verifyMs: number;
	skipHttp: boolean;
	name: string;
	wpPort: number;
	sidecarPort: number;
	json: boolean;
}

function parseOptions( argv: string[] ): Options | undefined {
	const flags = parseFlags( argv, [
		'help',
		'runtime',
		'php-workers',
		'requests',
		'concurrency',
		'cron',
		'system-cron-s',
		'warmup',
		'verify-ms',
		'skip-http',
		'name',
		'wp-port',
		'sidecar-port',
		'json',
	] );
	if ( flags.help ) {
		return undefined;
	}
	const int = ( name: string, fallback: number, min: number, max: number ): number =>
		intFlag( flags, name, fallback, min, max );
	const concurrency = intListFlag( flags, 'concurrency', [ 1, 4, 16 ], 1, 64 );
	const cron = ( typeof flags.cron === 'string' ? flags.cron.split( ',' ) : [ 'wp', 'system' ] ) as CronMode[];
	if ( cron.length === 0 || cron.some( ( mode ) => mode !== 'wp' && mode !== 'system' ) ) {
		throw new Error( '--cron must be a comma-separated list among wp,system' );
	}
	return {
		runtime: runtimeFlag( flags.runtime ),
		phpWorkers: int( 'php-workers', 4, 1, 32 ),
		requests: int( 'requests', 64, 4, 2000 ),
		concurrency,
		cron,
		systemCronSeconds: int( 'system-cron-s', 60, 5, 3600 ),
		warmup: int( 'warmup', 8, 0, 100 ),
		verifyMs: int( 'verify-ms', 2000, 100, 60_000 ),
		skipHttp: flags[ 'skip-http' ] === true,
		name: typeof flags.name === 'string' ? flags.name : 'bench-inbound',
		wpPort: portFlag( flags[ 'wp-port' ], 8931, 'wp-port' ),
		sidecarPort: portFlag( flags[ 'sidecar-port' ], 8831, 'sidecar-port' ),
		json: flags.json === true,
	};
}

const log = ( message: string ) => process.stdout.write( message + '\n' );

function percentile( values: number[], p: number ): number {
	const sorted = [ ...values ].sort( ( a, b ) => a - b );
	if ( sorted.length === 0 ) {
		return NaN;
	}
	const rank = Math.min( sorted.length - 1, Math.max( 0, Math.ceil( ( p / 100 ) * sorted.length ) - 1 ) );
	return sorted[ rank ] as number;
}

// ---------------------------------------------------------------------------
// Acknowledge latency over HTTP

interface Sample {
	ms: number;
	status: number;
}

type Sender = ( n: number ) => Promise< Sample >;

async function timedPost( url: string, body: string, headers: Record< string, string > ): Promise< Sample > {
	const started = performance.now();
	const response = await fetch( url, {
		method: 'POST',
		headers: { cookie: PLAYGROUND_COOKIE, 'content-type': 'application/json', ...headers },
		body,
		redirect: 'manual',
	} );
	await response.arrayBuffer();
	return { ms: performance.now() - started, status: response.status };
}

/** `count` calls of `send`, at most `concurrency` in flight. */
async function run( send: Sender, count: number, concurrency: number ): Promise< Sample[] > {
	const samples: Sample[] = [];
	let next = 0;
	await Promise.all(
		Array.from( { length: Math.min( concurrency, count ) }, async () => {
			while ( next < count ) {
				samples.push( await send( next++ ) );
			}
		} )
	);
	return samples;
}

interface LevelResult {
	cron: CronMode;
	concurrency: number;
	receiving: { p50: number; p99: number; max: number; errors: number };
	empty: { p50: number; p99: number; max: number; errors: number };
	ratioP50: number;
	ratioP99: number;
}

function stats( samples: Sample[], okStatus: number ) {
	const ms = samples.map( ( s ) => s.ms );
	return {
		p50: percentile( ms, 50 ),
		p99: percentile( ms, 99 ),
		max: Math.max( ...ms ),
		errors: samples.filter( ( s ) => s.status !== okStatus ).length,
	};
}

interface Site {
	url: string;
	auth: string;
	secret: string;
	cookieHeader: string;
	nonce: string;
}

/** Activates the bench plugin and creates the source, as an administrator. */
async function prepareSite( stack: BenchStack ): Promise< Site > {
	const url = stack.siteUrl;
	const cookie = await loginCookies( url, 'admin', 'password' );
	const nonce = await restNonce( url, cookie );
	const cookieHeader = `${ PLAYGROUND_COOKIE }; ${ cookie }`;
	const activate = await fetch( `${ url }/wp-json/wp/v2/plugins/inbound-bench/inbound-bench`, {
		method: 'POST',
		headers: { cookie: cookieHeader, 'x-wp-nonce': nonce, 'content-type': 'application/json' },
		body: JSON.stringify( { status: 'active' } ),
	} );
	if ( activate.status !== 200 ) {
		throw new Error( `Could not activate the bench plugin: HTTP ${ activate.status } ${ await activate.text() }` );
	}
	const password = await createApplicationPassword( url, cookie, 'bench' );
	const auth = 'Basic ' + Buffer.from( `admin:${ password }` ).toString( 'base64' );
	// The sidecar's data directory outlives the site: drop a source an earlier run left.
	await fetch( `${ url }/wp-json/service-integration/v1/inbound/sources/bench`, {
		method: 'DELETE',
		headers: { cookie: PLAYGROUND_COOKIE, authorization: auth },
	} );
	const created = await fetch( `${ url }/wp-json/service-integration/v1/inbound/sources`, {
		method: 'POST',
		headers: { cookie: PLAYGROUND_COOKIE, authorization: auth, 'content-type': 'application/json' },
		body: JSON.stringify( { id: 'bench', scheme: 'standard-webhooks', description: 'bench/inbound.ts' } ),
	} );
	const source = ( await created.json() ) as { secret?: string };
	if ( created.status !== 201 || ! source.secret ) {
		throw new Error( `Could not create the source: HTTP ${ created.status } ${ JSON.stringify( source ) }` );
	}
	return { url, auth, secret: source.secret, cookieHeader, nonce };
}

async function setWpCronSpawn( site: Site, spawn: boolean ): Promise< void > {
	const answer = await fetch( `${ site.url }/wp-json/si-bench/v1/wp-cron`, {
		method: 'POST',
		headers: { cookie: PLAYGROUND_COOKIE, authorization: site.auth, 'content-type': 'application/json' },
		body: JSON.stringify( { spawn } ),
	} );
	if ( answer.status !== 200 ) {
		throw new Error( `Could not switch WP-Cron spawning: HTTP ${ answer.status }` );
	}
}

/** Runs WP-Cron in the foreground (what a system cron does). */
async function runCron( site: Site ): Promise< void > {
	await ( await fetch( `${ site.url }/wp-cron.php`, { headers: { cookie: PLAYGROUND_COOKIE } } ) ).arrayBuffer();
}

/**
 * A fresh site's first cron run checks for core, plugin and theme updates; offline, each
 * check waits for its timeout while holding Playground's PHP worker. Run it to the end,
 * then wait until the empty route answers steadily.
 */
async function settle( site: Site, empty: Sender ): Promise< void > {
	const deadline = Date.now() + 240_000;
	await runCron( site );
	for (;;) {
		const samples = await run( empty, 6, 1 );
		const ms = samples.map( ( sample ) => sample.ms );
		if ( Math.max( ...ms ) < 3 * Math.min( ...ms ) || Date.now() > deadline ) {
			return;
		}
		await runCron( site );
	}
}

async function measureHttp( options: Options, stack: BenchStack ): Promise< LevelResult[] > {
	const site = await prepareSite( stack );
	const runId = Date.now().toString( 36 );
	let sequence = 0;
	/** A fresh event a request: each one is verified, inserted and kicks cron, as in production. */
	const fresh = () => {
		const id = `msg_bench_${ runId }_${ sequence++ }`;
		return signStandardWebhook(
			site.secret,
			id,
			JSON.stringify( {
				type: 'order.paid',
				timestamp: new Date().toISOString(),
				data: { order_id: sequence, total: '59.90' },
			} )
		);
	};
	let accepted = 0;
	const receiving: Sender = async () => {
		const webhook = fresh();
		const sample = await timedPost(
			`${ site.url }/wp-json/service-integration-inbound/v1/bench`,
			webhook.body,
			webhook.headers
		);
		accepted += sample.status === 202 ? 1 : 0;
		return sample;
	};
	const empty: Sender = () => {
		const webhook = fresh();
		return timedPost( `${ site.url }/wp-json/si-bench/v1/empty`, webhook.body, webhook.headers );
	};

	log( 'Letting the first cron run (offline update checks) finish...' );
	await settle( site, empty );

	const results: LevelResult[] = [];
	for ( const cron of options.cron ) {
		await setWpCronSpawn( site, cron === 'wp' );
		log(
			cron === 'wp'
				? '\nWP-Cron as installed (page loads spawn cron runs):'
				: `\nSystem cron (DISABLE_WP_CRON; wp-cron.php every ${ options.systemCronSeconds } s):`
		);
		let systemCron: NodeJS.Timeout | undefined;
		let cronRunning: Promise< void > = Promise.resolve();
		if ( cron === 'system' ) {
			systemCron = setInterval( () => {
				cronRunning = runCron( site ).catch( () => undefined );
			}, options.systemCronSeconds * 1000 );
		}
		try {
			for ( const concurrency of options.concurrency ) {
				await run( empty, options.warmup, concurrency );
				await run( receiving, options.warmup, concurrency );
				// Interleaved rounds, so load drift on the machine hits both routes alike.
				const rounds = 4;
				const perRound = Math.ceil( options.requests / rounds );
				const a: Sample[] = [];
				const b: Sample[] = [];
				for ( let round = 0; round < rounds; round++ ) {
					const first = round % 2 === 0;
					const [ x, y ] = first ? [ receiving, empty ] : [ empty, receiving ];
					const xs = await run( x, perRound, concurrency );
					const ys = await run( y, perRound, concurrency );
					( first ? a : b ).push( ...xs );
					( first ? b : a ).push( ...ys );
				}
				const ours = stats( a, 202 );
				const base = stats( b, 202 );
				const result = {
					cron,
					concurrency,
					receiving: ours,
					empty: base,
					ratioP50: ours.p50 / base.p50,
					ratioP99: ours.p99 / base.p99,
				};
				results.push( result );
				log(
					`  ${ String( concurrency ).padStart( 2 ) } senders: receiving p50 ${ ours.p50.toFixed( 0 ) } ms, p99 ${ ours.p99.toFixed( 0 ) } ms, max ${ ours.max.toFixed( 0 ) } ms` +
						` | empty p50 ${ base.p50.toFixed( 0 ) } ms, p99 ${ base.p99.toFixed( 0 ) } ms, max ${ base.max.toFixed( 0 ) } ms` +
						` | ratio p50 ${ result.ratioP50.toFixed( 2 ) }x, p99 ${ result.ratioP99.toFixed( 2 ) }x` +
						( ours.errors + base.errors ? ` | non-202: ${ ours.errors } / ${ base.errors }` : '' )
				);
			}
		} finally {
			clearInterval( systemCron );
			await cronRunning;
		}
	}
	await setWpCronSpawn( site, true );
	// Everything acknowledged was stored once: one row a 202.
	const events = await fetch( `${ site.url }/wp-json/service-integration/v1/inbound/events?per_page=1`, {
		headers: { cookie: PLAYGROUND_COOKIE, authorization: site.auth },
	} );
	const stored = ( ( await events.json() ) as { total: number } ).total;
	log(
		`\nStored events: ${ stored }; 202 answers from the receiving route (warm-ups included): ${ accepted }${ stored === accepted ? '' : ' (MISMATCH)' }`
	);
	return results;
}

// ---------------------------------------------------------------------------
// Verification throughput, in process

function verifyThroughput( scheme: InboundScheme, ms: number ): { perSecond: number; verifications: number } {
	const secret = providerSecret( scheme ) ?? generateSourceSecret( scheme );
	const source: InboundSource = {
		id: 'bench',
		scheme,
		status: 'active',
		description: '',
		toleranceSeconds: null,
		createdAt: 0,
		updatedAt: 0,
		secrets: [ { secret, origin: 'provided', createdAt: 0, expiresAt: null } ],
	};
	// A realistic ~1.5 KB order payload.
	const data = {
		order_id: 4321,
		lines: Array.from( { length: 8 }, ( _, i ) => ( {
			sku: `SKU-${ i }`,
			name: `Oak chair ${ i }`,
			quantity: i + 1,
			total: '59.90',
		} ) ),
		customer: { email: 'ada@example.com', city: 'Lyon' },
	};
	const webhook = sampleWebhook( scheme, secret, { data } );
	const request = {
		rawBody: Buffer.from( webhook.body ),
		headers: webhook.headers,
		nowMs: Date.now(),
		defaultToleranceSeconds: 300,
	};
	if ( ! checkInbound( source, request ).ok ) {
		throw new Error( `${ scheme }: the sample webhook does not verify` );
	}
	let count = 0;
	const started = performance.now();
	while ( performance.now() - started < ms ) {
		for ( let i = 0; i < 200; i++ ) {
			checkInbound( source, request );
		}
		count += 200;
	}
	return { perSecond: count / ( ( performance.now() - started ) / 1000 ), verifications: count };
}

// ---------------------------------------------------------------------------

async function main(): Promise< void > {
	const options = parseOptions( process.argv.slice( 2 ) );
	if ( ! options ) {
		process.stdout.write( HELP );
		return;
	}

	let http: LevelResult[] = [];
	if ( ! options.skipHttp ) {
		let stack: BenchStack | undefined;
		const stop = async () => {
			if ( stack ) {
				const current = stack;
				stack = undefined;
				await current.stop();
			}
		};
		process.once( 'SIGINT', () => void stop().then( () => process.exit( 130 ) ) );
		try {
			log(
				`Starting WordPress "${ options.name }" (${ options.runtime } runtime) on port ${ options.wpPort } and the sidecar on ${ options.sidecarPort } (fresh database)`
			);
			const fixtures = path.join( __dirname, '..', 'tests', 'fixtures', 'plugins' );
			stack = await startBenchStack( {
				runtime: options.runtime,
				name: options.name,
				wpPort: options.wpPort,
				sidecarPort: options.sidecarPort,
				phpWorkers: options.phpWorkers,
				extraPlugins: { 'inbound-bench': path.join( fixtures, 'inbound-bench' ) },
				sidecarEnv: { SIDECAR_LOG_LEVEL: 'warn' },
			} );
			log( `\nWordPress runtime: ${ stack.description }` );
			log(
				`Acknowledge latency, ${ options.requests } requests per route per level (interleaved), ${ options.warmup } warm-up:`
			);
			http = await measureHttp( options, stack );
		} finally {
			await stop();
		}
	}

	log(
		`\nVerification throughput in process (checkInbound: signature + normalisation, ~1.5 KB body, ${ options.verifyMs } ms each):`
	);
	const verify: Record< string, number > = {};
	for ( const scheme of INBOUND_SCHEMES ) {
		const result = verifyThroughput( scheme, options.verifyMs );
		verify[ scheme ] = Math.round( result.perSecond );
		log(
			`  ${ scheme.padEnd( 18 ) } ${ Math.round( result.perSecond ).toLocaleString( 'en-US' ).padStart( 9 ) } verifications/s`
		);
	}

	if ( http.length ) {
		for ( const cron of options.cron ) {
			const levels = http.filter( ( level ) => level.cron === cron );
			const at16 = levels.find( ( level ) => level.concurrency === 16 );
			const ratioOk = levels.every( ( level ) => level.ratioP50 <= 1.3 && level.ratioP99 <= 1.3 );
			const maxOk = at16 ? at16.receiving.max <= 5000 : true;
			const errors = levels.reduce( ( sum, level ) => sum + level.receiving.errors + level.empty.errors, 0 );
			log(
				`Targets (${ cron } cron): ratio <= 1.3x at p50 and p99: ${ ratioOk ? 'met' : 'NOT met' }; no request > 5 s at 16 senders: ${ maxOk ? 'met' : 'NOT met' }` +
					( at16 ? ` (empty route max ${ at16.empty.max.toFixed( 0 ) } ms)` : '' ) +
					`; non-202 answers: ${ errors }`
			);
		}
	}
	if ( options.json ) {
		log( JSON.stringify( { http, verify }, null, 2 ) );
	}
}

main().catch( ( error ) => {
	process.stderr.write( `bench/inbound: ${ ( error as Error ).stack ?? error }\n` );
	process.exit( 1 );
} );

/**
 * Multi-instance benchmark: deliveries/s and CPU per delivery for one sidecar on SQLite, and
 * 1, 2, 3... sidecars sharing one MariaDB, against the raw HTTP client as the ceiling.
 *
 * Run: npx ts-node --transpile-only bench/multi-instance.ts [--help]
 *
 * Loopback only: one receiver process, the sidecars (each its own process and port), MariaDB
 * from tests/support/mariadb.ts (a temporary server, stopped at the end) and this driver.
 * Bounded in events and time; every temp dir is removed at the end.
 */
import crypto from 'crypto';
import os from 'os';
import mysql from 'mysql2/promise';
import { intFlag, intListFlag, parseFlags, textFlag } from '../scripts/lib/cli-args';
import { SIDECAR_MAX_OLD_SPACE_MB, SIDECAR_MAX_SEMI_SPACE_MB } from '../scripts/lib/sidecar-command';
import { startMariaDb, type RunningMariaDb } from '../tests/support/mariadb';
import {
	closeDriverAgents,
	cpuMs,
	fixedRateLatency,
	makeBatches,
	makeEvent,
	postBatches,
	rawDeliveries,
	ReceiverProcess,
	round,
	signedApi,
	startSidecar,
	sleep,
	stopSidecar,
	watchRss,
	type LatencyResult,
	type SidecarProcess,
} from './support/delivery-bench';
import { tempDirs } from './support/temp-dirs';

const HELP = `Usage: npx ts-node --transpile-only bench/multi-instance.ts [options]

Measures, in one run and against the same local receiver, deliveries/s and the sidecars'
CPU per delivery for:
  raw          the same signed POSTs sent straight to the receiver (node:http, no queue): the ceiling
  sqlite x1    one sidecar on its embedded SQLite store
  mariadb xN   N sidecars (each its own process and port) on one MariaDB, for each N of
               --instances; the driver spreads the event batches over the instances in turn
Each row then measures the event-to-first-attempt latency at a fixed rate (one event per POST,
the POSTs spread over the instances in turn, as a load balancer would), and each MariaDB row
counts the statements its instances send per delivery (MariaDB's Questions over the measured
hand-over and sending) and while idle.
Each MariaDB row gets a fresh server from tests/support/mariadb.ts (Debian's mariadbd in a
temporary folder); the sidecars select it with SIDECAR_DATABASE_URL.

Options:
  --events=<n>        events per row (default 10000, max 200000)
  --batch=<n>         events per POST /v1/events (default 500)
  --concurrency=<n>   endpoint max_concurrency, and the raw client's parallel requests (default 16)
  --instances=<list>  instance counts on MariaDB, comma-separated (default 1,2,3; each 1-8)
  --max-old-space=<MB>  each sidecar's node --max-old-space-size (default ${ SIDECAR_MAX_OLD_SPACE_MB }; 0 = V8's own)
  --node-flags="<flags>"  more node flags for every sidecar (default "--max-semi-space-size=1", as
                      npm start runs it; --node-flags= for none)
  --max-seconds=<n>   give up (and fail) after this long overall (default 600)
  --rate=<n>          events per second of the latency phase, one event per POST, the POSTs
                      spread over the instances in turn (default 500)
  --latency-events=<n>  events in the latency phase (default 2500, i.e. 5 s at 500/s)
  --idle-seconds=<n>  how long each MariaDB row counts the queries of its idle instances (default 10)
  --json              print the results as JSON as well
  --help              this text
`;

interface Options {
	events: number;
	batch: number;
	concurrency: number;
	instances: number[];
	maxOldSpace: number;
	nodeFlags: string[];
	maxSeconds: number;
	rate: number;
	latencyEvents: number;
	idleSeconds: number;
	json: boolean;
}

function parseOptions( argv: string[] ): Options | undefined {
	const flags = parseFlags( argv, [
		'help',
		'events',
		'batch',
		'concurrency',
		'instances',
		'max-old-space',
		'node-flags',
		'max-seconds',
		'rate',
		'latency-events',
		'idle-seconds',
		'json',
	] );
	if ( flags.help ) {
		return undefined;
	}
	return {
		events: intFlag( flags, 'events', 10000, 1, 200_000 ),
		batch: intFlag( flags, 'batch', 500, 1, 500 ),
		concurrency: intFlag( flags, 'concurrency', 16, 1, 64 ),
		instances: intListFlag( flags, 'instances', [ 1, 2, 3 ], 1, 8 ),
		maxOldSpace: intFlag( flags, 'max-old-space', SIDECAR_MAX_OLD_SPACE_MB, 0, 4096 ),
		nodeFlags: ( textFlag( flags, 'node-flags' ) ?? `--max-semi-space-size=${ SIDECAR_MAX_SEMI_SPACE_MB }` )
			.split( /\s+/ )
			.filter( ( f ) => f !== '' ),
		maxSeconds: intFlag( flags, 'max-seconds', 600, 10, 3600 ),
		rate: intFlag( flags, 'rate', 500, 1, 5000 ),
		latencyEvents: intFlag( flags, 'latency-events', 2500, 1, 100_000 ),
		idleSeconds: intFlag( flags, 'idle-seconds', 10, 1, 600 ),
		json: flags.json === true,
	};
}

interface Row {
	name: string;
	instances: number;
	deliveries_per_s: number | null;
	/** Sidecar CPU (every instance) per delivery; for raw, the driver's own CPU per request. */
	cpu_us_per_delivery: number | null;
	/** CPU per delivery of each instance, in µs. */
	cpu_us_per_instance: number[];
	peak_rss_mb: number[];
	repeated_deliveries: number;
	ratio_to_raw: number | null;
	/** Event POSTed (to any instance) to its first arrival at the receiver, at --rate. */
	latency: LatencyResult | null;
	/** Statements each idle instance sends to MariaDB per second (Questions, divided by instances). */
	idle_queries_per_s_per_instance: number | null;
	/** Statements MariaDB received per delivery while the events were handed over and sent (Questions). */
	statements_per_delivery: number | null;
}

const DATABASE_URL_SETTING = 'SIDECAR_DATABASE_URL';

async function main(): Promise< void > {
	const options = parseOptions( process.argv.slice( 2 ) );
	if ( ! options ) {
		process.stdout.write( HELP );
		return;
	}
	const deadline = Date.now() + options.maxSeconds * 1000;
	const key = crypto.randomBytes( 24 ).toString( 'hex' );
	const dirs = tempDirs( 'sidecar-multi-bench-' );
	const tempDir = dirs.make;
	const receiver = await ReceiverProcess.start();
	let sidecars: SidecarProcess[] = [];
	let mariadb: RunningMariaDb | undefined;
	const rows: Row[] = [];
	let secret = '';

	/** Starts `count` sidecars on one store, creates the endpoint, warms up, measures one burst. */
	const measure = async ( name: string, count: number, env: Record< string, string > ): Promise< Row > => {
		const idPrefix = name.replace( /\W/g, '' ); // event ids: A-Z a-z 0-9 _ : -
		const shared = count > 1 || env[ DATABASE_URL_SETTING ] !== undefined;
		const sqliteDir = shared ? undefined : tempDir();
		sidecars = [];
		for ( let i = 0; i < count; i++ ) {
			sidecars.push(
				await startSidecar( {
					runtime: 'js',
					maxOldSpace: options.maxOldSpace,
					nodeFlags: options.nodeFlags,
					dataDir: sqliteDir ?? tempDir(),
					key,
					env,
				} )
			);
		}
		const apis = sidecars.map( ( sidecar ) => signedApi( sidecar.url, key ) );
		const created = await ( apis[ 0 ] as ( typeof apis )[ number ] )( 'POST', '/v1/endpoints', {
			url: receiver.url,
			max_concurrency: options.concurrency,
		} );
		if ( created.status !== 201 ) {
			throw new Error( `${ name }: cannot create the endpoint: ${ created.status } ${ created.data }` );
		}
		const endpoint = JSON.parse( created.data ) as { id: string; secret: string };
		secret = endpoint.secret;
		// One store for all: the endpoint made through the first instance is known to every other one.
		for ( const [ i, api ] of apis.entries() ) {
			const seen = await api( 'GET', `/v1/endpoints/${ endpoint.id }`, undefined );
			if ( seen.status !== 200 ) {
				throw new Error(
					`${ name }: instance ${ i + 1 } does not see the endpoint made through instance 1 (${ seen.status }): not one shared store`
				);
			}
		}

		// Warm-up on every instance (JIT, connections, pages), not measured.
		await postBatches(
			apis,
			apis.map( ( _api, i ) =>
				Array.from( { length: 100 }, ( _x, j ) => makeEvent( `${ idPrefix }_warm_${ i }_${ j }`, j ) )
			),
			1
		);
		await receiver.waitForDistinct( 100 * apis.length, deadline );
		await receiver.reset();

		const url = env[ DATABASE_URL_SETTING ];
		const questions0 = url === undefined ? 0 : await questionsOf( url );
		const watches = sidecars.map( ( sidecar ) => watchRss( sidecar.pid ) );
		const cpu0 = sidecars.map( ( sidecar ) => cpuMs( sidecar.pid ) );
		const started = performance.now();
		await postBatches( apis, makeBatches( `${ idPrefix }_`, options.events, options.batch ), 2 );
		const stats = await receiver.waitForDistinct( options.events, deadline );
		const seconds = ( performance.now() - started ) / 1000;
		const cpu = sidecars.map( ( sidecar, i ) => cpuMs( sidecar.pid ) - ( cpu0[ i ] as number ) );
		// Less the reading itself; the attempts of the last round may still be recorded after this.
		const statements = url === undefined ? null : ( await questionsOf( url ) ) - questions0 - 1;
		watches.forEach( ( watch ) => watch.stop() );
		await receiver.reset();
		const latency = await fixedRateLatency( apis, receiver, {
			prefix: `${ idPrefix }_lat_`,
			events: options.latencyEvents,
			rate: options.rate,
			deadline,
		} );
		await receiver.reset();
		const idle = url === undefined ? null : await idleQueriesPerSecond( url, options.idleSeconds );
		for ( const sidecar of sidecars ) {
			await stopSidecar( sidecar );
		}
		sidecars = [];
		const total = cpu.reduce( ( sum, ms ) => sum + ms, 0 );
		return {
			name,
			instances: count,
			deliveries_per_s: Math.round( options.events / seconds ),
			cpu_us_per_delivery: Math.round( ( total * 1000 ) / options.events ),
			cpu_us_per_instance: cpu.map( ( ms ) => Math.round( ( ms * 1000 ) / options.events ) ),
			peak_rss_mb: watches.map( ( watch ) => Math.round( watch.peak() ) ),
			repeated_deliveries: stats.requests - stats.distinct,
			ratio_to_raw: null,
			latency,
			idle_queries_per_s_per_instance: idle === null ? null : round( idle / count ),
			statements_per_delivery: statements === null ? null : round( statements / options.events ),
		};
	};

	try {
		rows.push( await measure( 'sqlite x1', 1, {} ) );

		// The ceiling, with the secret of the endpoint just measured (the same signing work).
		const raw = await rawDeliveries( receiver.url, secret, 'raw_', options.events, options.concurrency );
		await receiver.reset();
		const rawRow: Row = {
			name: 'raw node:http',
			instances: 0,
			deliveries_per_s: Math.round( ( options.events * 1000 ) / raw.ms ),
			cpu_us_per_delivery: Math.round( ( raw.cpuMs * 1000 ) / options.events ),
			cpu_us_per_instance: [],
			peak_rss_mb: [],
			repeated_deliveries: 0,
			ratio_to_raw: 1,
			latency: null,
			idle_queries_per_s_per_instance: null,
			statements_per_delivery: null,
		};
		rows.unshift( rawRow );

		for ( const count of options.instances ) {
			// A server per row: each starts from an empty queue, as the SQLite row does.
			mariadb = await startMariaDb( { name: `bench-multi-instance-${ count }` } );
			rows.push( await measure( `mariadb x${ count }`, count, { [ DATABASE_URL_SETTING ]: mariadb.url } ) );
			await mariadb.stop();
			mariadb = undefined;
		}
		for ( const row of rows ) {
			if ( row.deliveries_per_s !== null && rawRow.deliveries_per_s ) {
				row.ratio_to_raw = Math.round( ( 100 * row.deliveries_per_s ) / rawRow.deliveries_per_s ) / 100;
			}
		}
		print( options, rows );
	} finally {
		for ( const sidecar of sidecars ) {
			await stopSidecar( sidecar );
		}
		await mariadb?.stop();
		receiver.stop();
		closeDriverAgents();
		dirs.removeAll();
	}
}

/** MariaDB's Questions counter: the statements its clients have sent (this reading included). */
async function questionsOf( url: string ): Promise< number > {
	const connection = await mysql.createConnection( url );
	try {
		const [ rows ] = await connection.query( "SHOW GLOBAL STATUS LIKE 'Questions'" );
		return Number( ( rows as { Value: string }[] )[ 0 ]?.Value );
	} finally {
		await connection.end();
	}
}

/**
 * Statements the server received per second while the instances had nothing to do (MariaDB's
 * Questions counter, read twice, less the second reading itself), after a settling second.
 */
async function idleQueriesPerSecond( url: string, seconds: number ): Promise< number > {
	const connection = await mysql.createConnection( url );
	try {
		const questions = async () => {
			const [ rows ] = await connection.query( "SHOW GLOBAL STATUS LIKE 'Questions'" );
			return Number( ( rows as { Value: string }[] )[ 0 ]?.Value );
		};
		await sleep( 1000 );
		const before = await questions();
		await sleep( seconds * 1000 );
		return ( ( await questions() ) - before - 1 ) / seconds;
	} finally {
		await connection.end();
	}
}

function print( options: Options, rows: Row[] ): void {
	const machine = `${ os.cpus().length } x ${ os.cpus()[ 0 ]?.model.trim() }, Node ${ process.version }, load average ${ os.loadavg()[ 0 ]?.toFixed( 1 ) } at the end`;
	const lines = [
		`Multi-instance benchmark (${ machine }); ${ options.events } events a row in batches of ${ options.batch }, endpoint max_concurrency ${ options.concurrency }`,
		'  row            deliveries/s   ratio to raw   CPU µs/delivery (all instances)   per instance      peak RSS MB   repeated   latency p50 / p99 ms   idle queries/s each   statements/delivery',
	];
	for ( const row of rows ) {
		lines.push(
			[
				`  ${ row.name.padEnd( 14 ) }`,
				String( row.deliveries_per_s ).padStart( 12 ),
				String( row.ratio_to_raw ).padStart( 14 ),
				String( row.cpu_us_per_delivery ).padStart( 33 ) + ( row.instances === 0 ? ' (driver)' : '         ' ),
				( row.cpu_us_per_instance.join( ' / ' ) || '-' ).padStart( 16 ),
				( row.peak_rss_mb.join( ' / ' ) || '-' ).padStart( 14 ),
				String( row.repeated_deliveries ).padStart( 10 ),
				( row.latency ? `${ row.latency.p50_ms } / ${ row.latency.p99_ms }` : '-' ).padStart( 22 ),
				String( row.idle_queries_per_s_per_instance ?? '-' ).padStart( 21 ),
				String( row.statements_per_delivery ?? '-' ).padStart( 21 ),
			].join( ' ' )
		);
	}
	lines.push(
		`  latency: ${ options.latencyEvents } events at ${ options.rate }/s, one a POST, spread over the instances; target p99 < 100 ms`
	);
	process.stdout.write( lines.join( '\n' ) + '\n' );
	if ( options.json ) {
		process.stdout.write(
			JSON.stringify(
				{ machine, events: options.events, batch: options.batch, concurrency: options.concurrency, rows },
				null,
				2
			) + '\n'
		);
	}
}

main().catch( ( error: unknown ) => {
	process.stderr.write( `bench: ${ ( error as Error ).message }\n` );
	process.exit( 1 );
} );

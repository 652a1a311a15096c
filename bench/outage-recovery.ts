/**
 * Outage benchmark: a receiver down for a simulated 72 h while events keep arriving, then back.
 * One sidecar on SQLite and N sidecars on one MariaDB, side by side in one run.
 *
 * Run: npx ts-node --transpile-only bench/outage-recovery.ts [--help]
 *
 * Loopback only: one receiver process (bench/support/outage-receiver.ts), the sidecars (each
 * its own process and port), MariaDB from tests/support/mariadb.ts (a temporary server per row,
 * stopped at the end) and this driver. Every temp dir is removed at the end.
 */
import crypto from 'crypto';
import os from 'os';
import path from 'path';
import { fork, type ChildProcess } from 'child_process';
import { intFlag, intListFlag, parseFlags, textFlag } from '../scripts/lib/cli-args';
import { SIDECAR_MAX_OLD_SPACE_MB, SIDECAR_MAX_SEMI_SPACE_MB } from '../scripts/lib/sidecar-command';
import { DEFAULT_RETRY_POLICY } from '../sidecar/src/outbound/retry-policy';
import { startMariaDb, type RunningMariaDb } from '../tests/support/mariadb';
import {
	closeDriverAgents,
	cpuMs,
	ROOT,
	round,
	signedApi,
	sleep,
	startSidecar,
	stopSidecar,
	type SidecarProcess,
	type SignedApi,
} from './support/delivery-bench';
import type { OutageReceiverStats } from './support/outage-receiver';
import { tempDirs } from './support/temp-dirs';

const HELP = `Usage: npx ts-node --transpile-only bench/outage-recovery.ts [options]

A receiver down for a simulated outage (default 72 h) while events keep arriving, then back,
with the sidecar's default retry schedule compressed in time (--seconds-per-hour real seconds
for one simulated hour; the overload delay and the automatic disabling scaled alike). For one
sidecar on SQLite, then N sidecars on one MariaDB for each N of --instances:
  normal   --normal-events delivered with the receiver up: the CPU per delivery of normal traffic
  outage   --events arriving evenly over the outage, in batches spread over the instances, each
           ordering key's events (4 by default) spread over the whole outage; the receiver
           answers 503 to every attempt
  drain    the receiver answers 200 again: time until every event has arrived, the CPU per
           delivery of that drain, and its ratio to normal traffic
It reports delivered / lost / out of order (first arrivals after a later event of their key) /
repeated, the failed (retries ran out) and pending deliveries when the receiver came back, and
how many attempts the receiver refused.

Options:
  --events=<n>            events of the outage (default 100000, max 1000000)
  --normal-events=<n>     events of the normal phase (default 10000)
  --per-key=<n>           events per ordering key (default 4)
  --hours=<h>             simulated outage length (default 72)
  --seconds-per-hour=<s>  real seconds per simulated hour (default 4)
  --batch=<n>             events per POST /v1/events (default 500)
  --concurrency=<n>       endpoint max_concurrency (default 16)
  --instances=<list>      instance counts on MariaDB, comma-separated (default 2; each 1-8)
  --stores=<list>         sqlite, mariadb or both (default sqlite,mariadb)
  --drain-seconds=<n>     give up waiting for the drain after this long (default 900)
  --json                  print the results as JSON as well
  --help                  this text
`;

interface Options {
	events: number;
	normalEvents: number;
	perKey: number;
	hours: number;
	secondsPerHour: number;
	batch: number;
	concurrency: number;
	instances: number[];
	stores: string[];
	drainSeconds: number;
	json: boolean;
}

function parseOptions( argv: string[] ): Options | undefined {
	const flags = parseFlags( argv, [
		'help',
		'events',
		'normal-events',
		'per-key',
		'hours',
		'seconds-per-hour',
		'batch',
		'concurrency',
		'instances',
		'stores',
		'drain-seconds',
		'json',
	] );
	if ( flags.help ) {
		return undefined;
	}
	const stores = ( textFlag( flags, 'stores' ) ?? 'sqlite,mariadb' ).split( ',' ).filter( ( s ) => s !== '' );
	if ( stores.some( ( store ) => store !== 'sqlite' && store !== 'mariadb' ) ) {
		throw new Error( '--stores takes sqlite, mariadb or both' );
	}
	return {
		events: intFlag( flags, 'events', 100_000, 1, 1_000_000 ),
		normalEvents: intFlag( flags, 'normal-events', 10_000, 1, 1_000_000 ),
		perKey: intFlag( flags, 'per-key', 4, 1, 1000 ),
		hours: intFlag( flags, 'hours', 72, 1, 1000 ),
		secondsPerHour: intFlag( flags, 'seconds-per-hour', 4, 1, 3600 ),
		batch: intFlag( flags, 'batch', 500, 1, 500 ),
		concurrency: intFlag( flags, 'concurrency', 16, 1, 64 ),
		instances: intListFlag( flags, 'instances', [ 2 ], 1, 8 ),
		stores,
		drainSeconds: intFlag( flags, 'drain-seconds', 900, 10, 24 * 3600 ),
		json: flags.json === true,
	};
}

/** The receiver process: down (503) or up (200), with its counts. */
class OutageReceiver {
	private constructor(
		private readonly child: ChildProcess,
		readonly url: string
	) {}

	static async start(): Promise< OutageReceiver > {
		const child = fork( path.join( __dirname, 'support', 'outage-receiver.ts' ), [], {
			execArgv: [ '-r', 'ts-node/register/transpile-only' ],
			cwd: ROOT,
			stdio: 'inherit',
		} );
		const { port } = await new Promise< { port: number } >( ( resolve ) =>
			child.once( 'message', resolve as ( m: unknown ) => void )
		);
		return new OutageReceiver( child, `http://127.0.0.1:${ port }/hook` );
	}

	ask< T >( cmd: 'down' | 'up' | 'reset' | 'stats' ): Promise< T > {
		return new Promise( ( resolve ) => {
			this.child.once( 'message', resolve as ( m: unknown ) => void );
			this.child.send( { cmd } );
		} );
	}

	stats(): Promise< OutageReceiverStats > {
		return this.ask( 'stats' );
	}

	/** Resolves once `n` distinct events have arrived, or with what arrived by the deadline. */
	async waitForDistinct( n: number, deadline: number ): Promise< OutageReceiverStats > {
		for (;;) {
			const stats = await this.stats();
			if ( stats.distinct >= n || Date.now() > deadline ) {
				return stats;
			}
			await sleep( 20 );
		}
	}

	stop(): void {
		if ( this.child.connected ) {
			this.child.disconnect();
		}
	}
}

/** Event n of a run: its key spreads the key's events over the whole run (n modulo the keys), seq orders them. */
function outageEvent( prefix: string, n: number, keys: number ) {
	return {
		id: `${ prefix }${ n }`,
		type: 'order.paid',
		timestamp: new Date().toISOString(),
		ordering_key: `order:${ n % keys }`,
		data: { order_id: n % keys, seq: n, total: '42.00', currency: 'EUR' },
	};
}

/** Posts batches of events, batch i at start + i × spacingMs (at once when behind), over the APIs in turn. */
async function postSpread(
	apis: SignedApi[],
	prefix: string,
	count: number,
	keys: number,
	batch: number,
	spacingMs: number
): Promise< void > {
	const started = performance.now();
	for ( let i = 0, b = 0; i < count; i += batch, b++ ) {
		const wait = started + b * spacingMs - performance.now();
		if ( wait > 1 ) {
			await sleep( wait );
		}
		const events = Array.from( { length: Math.min( batch, count - i ) }, ( _x, j ) =>
			outageEvent( prefix, i + j, keys )
		);
		const response = await ( apis[ b % apis.length ] as SignedApi )( 'POST', '/v1/events', { events } );
		if ( response.status !== 202 ) {
			throw new Error( `POST /v1/events answered ${ response.status }: ${ response.data }` );
		}
	}
}

/** How many deliveries are in that status; NaN when the sidecar does not answer 200 (its store is busy). */
async function deliveriesIn( api: SignedApi, status: string ): Promise< number > {
	const response = await api( 'GET', `/v1/deliveries?status=${ status }&per_page=1`, undefined );
	return response.status === 200 ? ( JSON.parse( response.data ) as { total: number } ).total : NaN;
}

interface Row {
	name: string;
	instances: number;
	events: number;
	delivered: number;
	/** Events not delivered: lost if the drain finished, still queued if --drain-seconds cut it short. */
	lost: number;
	/** Whether every event arrived within --drain-seconds. */
	drained: boolean;
	out_of_order: number;
	repeated: number;
	/** When the receiver came back. */
	failed_at_recovery: number;
	pending_at_recovery: number;
	/** Attempts the receiver answered 503 during the outage. */
	refused_attempts: number;
	drain_seconds: number;
	drain_simulated_hours: number;
	drain_deliveries_per_s: number;
	cpu_us_per_delivery_normal: number;
	cpu_us_per_delivery_drain: number;
	drain_to_normal_cpu: number;
	/** Sidecar CPU during the outage per refused attempt. */
	cpu_us_per_refused_attempt: number;
}

async function main(): Promise< void > {
	const options = parseOptions( process.argv.slice( 2 ) );
	if ( ! options ) {
		process.stdout.write( HELP );
		return;
	}
	const scale = options.secondsPerHour / 3600;
	const env: Record< string, string > = {
		SIDECAR_RETRY_SCHEDULE: DEFAULT_RETRY_POLICY.scheduleSeconds.map( ( s ) => s * scale ).join( ',' ),
		SIDECAR_OVERLOAD_DELAY_SECONDS: String( DEFAULT_RETRY_POLICY.overloadPenaltySeconds * scale ),
		// The default automatic disabling (120 h) and upkeep (every minute), on the same clock.
		SIDECAR_DISABLE_AFTER_HOURS: String( 120 * scale ),
		SIDECAR_MAINTENANCE_INTERVAL_SECONDS: String( Math.max( 0.05, 60 * scale ) ),
	};
	const key = crypto.randomBytes( 24 ).toString( 'hex' );
	const dirs = tempDirs( 'sidecar-outage-bench-' );
	const tempDir = dirs.make;
	const receiver = await OutageReceiver.start();
	let sidecars: SidecarProcess[] = [];
	let mariadb: RunningMariaDb | undefined;
	const rows: Row[] = [];

	const cpuOf = () => sidecars.reduce( ( sum, sidecar ) => sum + cpuMs( sidecar.pid ), 0 );

	const measure = async ( name: string, count: number, extra: Record< string, string > ): Promise< Row > => {
		const prefix = name.replace( /\W/g, '' );
		const sqliteDir = extra.SIDECAR_DATABASE_URL === undefined ? tempDir() : undefined;
		sidecars = [];
		for ( let i = 0; i < count; i++ ) {
			sidecars.push(
				await startSidecar( {
					runtime: 'js',
					maxOldSpace: SIDECAR_MAX_OLD_SPACE_MB,
					nodeFlags: [ `--max-semi-space-size=${ SIDECAR_MAX_SEMI_SPACE_MB }` ],
					dataDir: sqliteDir ?? tempDir(),
					key,
					env: { ...env, ...extra },
				} )
			);
		}
		const apis = sidecars.map( ( sidecar ) => signedApi( sidecar.url, key ) );
		const first = apis[ 0 ] as SignedApi;
		const created = await first( 'POST', '/v1/endpoints', {
			url: receiver.url,
			max_concurrency: options.concurrency,
		} );
		if ( created.status !== 201 ) {
			throw new Error( `${ name }: cannot create the endpoint: ${ created.status } ${ created.data }` );
		}
		await receiver.ask( 'up' );

		// Normal traffic (its first batches warm up the JIT and the connections, as in production).
		await receiver.ask( 'reset' );
		const normalKeys = Math.max( 1, Math.ceil( options.normalEvents / options.perKey ) );
		let cpu0 = cpuOf();
		await postSpread( apis, `${ prefix }_n_`, options.normalEvents, normalKeys, options.batch, 0 );
		const normal = await receiver.waitForDistinct( options.normalEvents, Date.now() + options.drainSeconds * 1000 );
		const normalCpu = cpuOf() - cpu0;
		if ( normal.distinct < options.normalEvents ) {
			throw new Error(
				`${ name }: the normal phase delivered ${ normal.distinct } of ${ options.normalEvents }`
			);
		}

		// The outage: events keep arriving, every attempt is refused.
		await receiver.ask( 'reset' );
		await receiver.ask( 'down' );
		const outageMs = options.hours * options.secondsPerHour * 1000;
		const outageStart = performance.now();
		cpu0 = cpuOf();
		const batches = Math.ceil( options.events / options.batch );
		const keys = Math.max( 1, Math.ceil( options.events / options.perKey ) );
		await postSpread( apis, `${ prefix }_o_`, options.events, keys, options.batch, outageMs / batches );
		const left = outageStart + outageMs - performance.now();
		if ( left > 0 ) {
			await sleep( left );
		}
		const outageCpu = cpuOf() - cpu0;
		const refused = ( await receiver.stats() ).refused;
		const failedAtRecovery = await deliveriesIn( first, 'failed' );
		const pendingAtRecovery =
			( await deliveriesIn( first, 'pending' ) ) + ( await deliveriesIn( first, 'in_flight' ) );

		// Back: everything should arrive, in order.
		cpu0 = cpuOf();
		const back = performance.now();
		const backMs = Number( process.hrtime.bigint() / 1_000_000n );
		await receiver.ask( 'up' );
		const drained = await receiver.waitForDistinct( options.events, Date.now() + options.drainSeconds * 1000 );
		const drainCpu = cpuOf() - cpu0;
		const drainSeconds =
			drained.distinct >= options.events
				? ( drained.lastArrivalMs - backMs ) / 1000
				: ( performance.now() - back ) / 1000;
		for ( const sidecar of sidecars ) {
			await stopSidecar( sidecar );
		}
		sidecars = [];
		const normalPer = ( normalCpu * 1000 ) / options.normalEvents;
		const drainPer = ( drainCpu * 1000 ) / Math.max( 1, drained.distinct );
		return {
			name,
			instances: count,
			events: options.events,
			delivered: drained.distinct,
			lost: options.events - drained.distinct,
			drained: drained.distinct >= options.events,
			out_of_order: drained.outOfOrder,
			repeated: drained.delivered - drained.distinct,
			failed_at_recovery: failedAtRecovery,
			pending_at_recovery: pendingAtRecovery,
			refused_attempts: refused,
			drain_seconds: round( drainSeconds ),
			drain_simulated_hours: round( drainSeconds / options.secondsPerHour ),
			drain_deliveries_per_s: Math.round( drained.distinct / Math.max( 0.001, drainSeconds ) ),
			cpu_us_per_delivery_normal: Math.round( normalPer ),
			cpu_us_per_delivery_drain: Math.round( drainPer ),
			drain_to_normal_cpu: Math.round( ( 100 * drainPer ) / normalPer ) / 100,
			cpu_us_per_refused_attempt: Math.round( ( outageCpu * 1000 ) / Math.max( 1, refused ) ),
		};
	};

	try {
		if ( options.stores.includes( 'sqlite' ) ) {
			rows.push( await measure( 'sqlite x1', 1, {} ) );
		}
		if ( options.stores.includes( 'mariadb' ) ) {
			for ( const count of options.instances ) {
				mariadb = await startMariaDb( { name: `bench-outage-${ count }` } );
				rows.push( await measure( `mariadb x${ count }`, count, { SIDECAR_DATABASE_URL: mariadb.url } ) );
				await mariadb.stop();
				mariadb = undefined;
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

function print( options: Options, rows: Row[] ): void {
	const machine = `${ os.cpus().length } x ${ os.cpus()[ 0 ]?.model.trim() }, Node ${ process.version }, load average ${ os.loadavg()[ 0 ]?.toFixed( 1 ) } at the end`;
	const lines = [
		`Outage benchmark (${ machine }); receiver down ${ options.hours } h simulated (${ options.secondsPerHour } s a simulated hour), ${ options.events } events arriving during it, ${ options.perKey } a key; normal phase ${ options.normalEvents } events; endpoint max_concurrency ${ options.concurrency }`,
		'  row          delivered     lost   out of order   repeated   failed / pending at recovery   refused attempts   drain s (sim. h)   drain/s   CPU µs/delivery normal / drain   drain:normal   CPU µs/refused attempt',
	];
	for ( const row of rows ) {
		lines.push(
			[
				`  ${ row.name.padEnd( 12 ) }`,
				String( row.delivered ).padStart( 9 ),
				( row.drained ? String( row.lost ) : `${ row.lost } queued (drain cut)` ).padStart( 8 ),
				String( row.out_of_order ).padStart( 14 ),
				String( row.repeated ).padStart( 10 ),
				`${ row.failed_at_recovery } / ${ row.pending_at_recovery }`.padStart( 30 ),
				String( row.refused_attempts ).padStart( 18 ),
				`${ row.drain_seconds } (${ row.drain_simulated_hours })`.padStart( 18 ),
				String( row.drain_deliveries_per_s ).padStart( 9 ),
				`${ row.cpu_us_per_delivery_normal } / ${ row.cpu_us_per_delivery_drain }`.padStart( 32 ),
				String( row.drain_to_normal_cpu ).padStart( 14 ),
				String( row.cpu_us_per_refused_attempt ).padStart( 24 ),
			].join( ' ' )
		);
	}
	process.stdout.write( lines.join( '\n' ) + '\n' );
	if ( options.json ) {
		process.stdout.write( JSON.stringify( { machine, options, rows }, null, 2 ) + '\n' );
	}
}

main().catch( ( error: unknown ) => {
	process.stderr.write( `bench: ${ ( error as Error ).message }\n` );
	process.exit( 1 );
} );

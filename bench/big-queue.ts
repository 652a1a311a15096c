/**
 * Big-queue benchmark: every route of the sidecar while a large backlog drains to a receiver
 * that times out, on SQLite and on MariaDB with several instances, against the same store empty.
 *
 * Run: npx ts-node --transpile-only bench/big-queue.ts [--help]
 *
 * Loopback only: a receiver in this process that never answers, the sidecars (each its own
 * process and port), MariaDB from tests/support/mariadb.ts (a temporary server, stopped at the
 * end). Every temp dir is removed at the end.
 */
import crypto from 'crypto';
import http from 'http';
import path from 'path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { intFlag, intListFlag, parseFlags, textFlag } from '../scripts/lib/cli-args';
import { DATABASE_FILE } from '../sidecar/src/store/sqlite/database';
import { startMariaDb, type RunningMariaDb } from '../tests/support/mariadb';
import { seedQueue } from '../tests/support/seed-queue';
import {
	closeDriverAgents,
	percentile,
	round,
	signedApi,
	sleep,
	startSidecar,
	stopSidecar,
	type SidecarProcess,
	type SignedApi,
} from './support/delivery-bench';
import { tempDirs } from './support/temp-dirs';

const HELP = `Usage: npx ts-node --transpile-only bench/big-queue.ts [options]

Seeds a backlog of queued deliveries (multi-row INSERT … SELECT straight into the store) to one
endpoint whose receiver accepts the connection and never answers (every attempt times out),
then, on each store, with the backlog and with the store empty:
  - calls every route of the sidecar in turn, one call at a time spread over the instances
    (/ready, POST /v1/events, the endpoints list, PATCH, disable, enable, the delivery log
    filtered and not, POST /v1/replay, an event's replay, /metrics) until the endpoint is
    automatically disabled, and reports each route's p50/p99/max and its non-2xx answers;
  - the time from the sidecars' start to that automatic disable (SIDECAR_DISABLE_AFTER_HOURS is
    --disable-after-seconds; the health sweep runs every --maintenance-seconds);
  - DELETE of that endpoint: the answer's time, and how long until its deliveries are gone.
Rows: sqlite x1, and mariadb xN (N sidecars on one MariaDB), each empty and with the backlog.

Options:
  --deliveries=<n>          the backlog (default 1000000)
  --instances=<n>           sidecars on MariaDB (default 2)
  --stores=<list>           sqlite,mariadb (default both)
  --disable-after-seconds=<n>  (default 20)
  --maintenance-seconds=<n> (default 2)
  --max-wait-seconds=<n>    give up waiting for the disable or the purge after this (default 300)
  --sidecar-entry=<file>    a compiled sidecar main.js to run instead of this tree's (a before/after)
  --json                    print the results as JSON as well
  --help                    this text
`;

const DELIVERY_TIMEOUT_MS = 1000;
const METRICS_TOKEN = 'big-queue-bench-metrics-token';

interface Options {
	deliveries: number;
	instances: number;
	stores: string[];
	disableAfterSeconds: number;
	maintenanceSeconds: number;
	maxWaitSeconds: number;
	entry: string | undefined;
	json: boolean;
}

function parseOptions( argv: string[] ): Options | undefined {
	const flags = parseFlags( argv, [
		'help',
		'deliveries',
		'instances',
		'stores',
		'disable-after-seconds',
		'maintenance-seconds',
		'max-wait-seconds',
		'sidecar-entry',
		'json',
	] );
	if ( flags.help ) {
		return undefined;
	}
	const stores = ( textFlag( flags, 'stores' ) ?? 'sqlite,mariadb' ).split( ',' );
	if ( stores.some( ( store ) => store !== 'sqlite' && store !== 'mariadb' ) ) {
		throw new Error( '--stores takes sqlite, mariadb or both' );
	}
	return {
		deliveries: intFlag( flags, 'deliveries', 1_000_000, 1, 10_000_000 ),
		instances: intListFlag( flags, 'instances', [ 2 ], 1, 8 )[ 0 ] as number,
		stores,
		disableAfterSeconds: intFlag( flags, 'disable-after-seconds', 20, 5, 3600 ),
		maintenanceSeconds: intFlag( flags, 'maintenance-seconds', 2, 1, 600 ),
		maxWaitSeconds: intFlag( flags, 'max-wait-seconds', 300, 10, 7200 ),
		entry: textFlag( flags, 'sidecar-entry' ),
		json: flags.json === true,
	};
}

interface RouteStats {
	calls: number;
	p50_ms: number;
	p99_ms: number;
	max_ms: number;
	/** Answers other than 2xx, by status and code. */
	errors: Record< string, number >;
}

interface Row {
	name: string;
	deliveries: number;
	seed_s: number;
	routes: Record< string, RouteStats >;
	/** Sidecars' start to the endpoint's automatic disable (includes disable-after-seconds). */
	auto_disable_s: number | null;
	/** The disable's time past failing_since + disable-after-seconds (the sweep's cadence, and any lateness). */
	auto_disable_lag_s: number | null;
	delete_answer_ms: number | null;
	delete_status: number | null;
	/** DELETE's answer to the last of the endpoint's deliveries gone. */
	delete_purged_s: number | null;
}

/** A receiver that accepts every request and never answers: each attempt runs into the delivery timeout. */
async function startHangingReceiver(): Promise< { url: string; close: () => Promise< void > } > {
	const held = new Set< http.ServerResponse >();
	const server = http.createServer( ( _req, res ) => {
		held.add( res );
		res.on( 'close', () => held.delete( res ) );
	} );
	await new Promise< void >( ( resolve ) => server.listen( 0, '127.0.0.1', resolve ) );
	const { port } = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${ port }/hook`,
		close: async () => {
			server.closeAllConnections();
			await new Promise( ( resolve ) => server.close( resolve ) );
		},
	};
}

/** The store a row runs on: where the sidecars point and how the bench reaches its tables. */
interface StoreUnderBench {
	kind: 'sqlite' | 'mysql';
	env: Record< string, string >;
	dataDir: string;
	sql: ( query: string, params?: unknown[] ) => Promise< unknown[] >;
	close: () => Promise< void >;
}

async function sqliteStore( dataDir: string ): Promise< StoreUnderBench > {
	let db: Database.Database | undefined;
	const open = () => ( db ??= new Database( path.join( dataDir, DATABASE_FILE ), { timeout: 30_000 } ) );
	return {
		kind: 'sqlite',
		env: {},
		dataDir,
		sql: async ( query, params = [] ) => {
			const statement = open().prepare( query );
			return statement.reader ? statement.all( ...params ) : [ statement.run( ...params ) ];
		},
		close: async () => {
			db?.close();
			db = undefined;
		},
	};
}

async function mariadbStore( server: RunningMariaDb, dataDir: string ): Promise< StoreUnderBench > {
	const admin = await mysql.createConnection( server.url );
	return {
		kind: 'mysql',
		env: { SIDECAR_DATABASE_URL: server.url },
		dataDir,
		sql: async ( query, params = [] ) => ( await admin.query( query, params ) )[ 0 ] as unknown[],
		close: () => admin.end(),
	};
}

async function main(): Promise< void > {
	const options = parseOptions( process.argv.slice( 2 ) );
	if ( ! options ) {
		process.stdout.write( HELP );
		return;
	}
	const key = crypto.randomBytes( 24 ).toString( 'hex' );
	const dirs = tempDirs( 'sidecar-big-queue-' );
	const tempDir = dirs.make;
	const receiver = await startHangingReceiver();
	let sidecars: SidecarProcess[] = [];
	const servers: RunningMariaDb[] = [];
	const rows: Row[] = [];
	const sidecarEnv = {
		SIDECAR_DELIVERY_TIMEOUT_MS: String( DELIVERY_TIMEOUT_MS ),
		SIDECAR_DISABLE_AFTER_HOURS: String( options.disableAfterSeconds / 3600 ),
		SIDECAR_MAINTENANCE_INTERVAL_SECONDS: String( options.maintenanceSeconds ),
		SIDECAR_METRICS_TOKEN: METRICS_TOKEN,
	};

	const startAll = async ( store: StoreUnderBench, count: number ) => {
		sidecars = [];
		for ( let i = 0; i < count; i++ ) {
			sidecars.push(
				await startSidecar( {
					runtime: 'js',
					nodeFlags: [],
					dataDir: store.kind === 'sqlite' ? store.dataDir : tempDir(),
					key,
					env: { ...sidecarEnv, ...store.env },
					entry: options.entry,
				} )
			);
		}
		return sidecars.map( ( sidecar ) => signedApi( sidecar.url, key ) );
	};
	const stopAll = async () => {
		await Promise.all( sidecars.map( stopSidecar ) );
		sidecars = [];
	};

	const measure = async ( name: string, store: StoreUnderBench, count: number, backlog: number ): Promise< Row > => {
		let apis = await startAll( store, count );
		// The first instance's API (SQLite's sidecar restarts after the seed, on another port).
		const first: SignedApi = ( method, route, body ) => ( apis[ 0 ] as SignedApi )( method, route, body );
		const created = async ( description: string ) => {
			const answer = await first( 'POST', '/v1/endpoints', { url: receiver.url, description } );
			if ( answer.status !== 201 ) {
				throw new Error( `${ name }: cannot create an endpoint: ${ answer.status } ${ answer.data }` );
			}
			return ( JSON.parse( answer.data ) as { id: string } ).id;
		};
		const big = await created( 'the backlog' );
		const small = await created( 'toggled by the probes' );
		const seedStarted = performance.now();
		if ( backlog > 0 ) {
			// SQLite's file has one writer: the sidecar stops while the seed writes, and starts again.
			if ( store.kind === 'sqlite' ) {
				await stopAll();
			}
			const now = Date.now();
			await seedQueue( {
				kind: store.kind,
				sql: ( query, params ) => store.sql( query, params ),
				endpointId: big,
				count: backlog,
				prefix: `${ name.replace( /\W/g, '' ) }-`,
				now,
				dueAt: now,
			} );
			if ( store.kind === 'sqlite' ) {
				apis = await startAll( store, count );
			}
		}
		const seedS = ( performance.now() - seedStarted ) / 1000;
		process.stderr.write( `${ name }: seeded ${ backlog } in ${ round( seedS ) } s; probing until auto-disable\n` );
		const started = Date.now();

		const samples = new Map< string, { ms: number[]; errors: Record< string, number > } >();
		let call = 0;
		let probeEvent = 0;
		const probe = async ( label: string, method: string, route: string, body?: unknown ) => {
			const api = apis[ call++ % apis.length ] as SignedApi;
			const began = performance.now();
			let outcome = 'no answer';
			try {
				const answer = await api( method, route, body );
				outcome =
					answer.status < 300
						? 'ok'
						: `${ answer.status } ${ ( JSON.parse( answer.data || '{}' ) as { code?: string } ).code ?? '' }`;
				return answer;
			} catch ( error ) {
				outcome = `no answer (${ ( error as { code?: string } ).code ?? 'error' })`;
				return undefined;
			} finally {
				const entry = samples.get( label ) ?? { ms: [], errors: {} };
				entry.ms.push( performance.now() - began );
				if ( outcome !== 'ok' ) {
					entry.errors[ outcome ] = ( entry.errors[ outcome ] ?? 0 ) + 1;
				}
				samples.set( label, entry );
			}
		};
		const unsigned = async ( label: string, url: string, headers: Record< string, string > = {} ) => {
			const began = performance.now();
			let outcome = 'ok';
			try {
				const answer = await fetch( url, { headers, signal: AbortSignal.timeout( 30_000 ) } );
				await answer.arrayBuffer();
				outcome = answer.ok ? 'ok' : String( answer.status );
			} catch {
				outcome = 'no answer';
			}
			const entry = samples.get( label ) ?? { ms: [], errors: {} };
			entry.ms.push( performance.now() - began );
			if ( outcome !== 'ok' ) {
				entry.errors[ outcome ] = ( entry.errors[ outcome ] ?? 0 ) + 1;
			}
			samples.set( label, entry );
		};

		let autoDisableS: number | null = null;
		/** Disabled at, less failing since, less the disable-after period: how late the disable came. */
		let lagS: number | null = null;
		const giveUp = started + options.maxWaitSeconds * 1000;
		while ( autoDisableS === null && Date.now() < giveUp ) {
			const sidecarUrl = ( sidecars[ call % sidecars.length ] as SidecarProcess ).url;
			await unsigned( 'GET /ready', `${ sidecarUrl }/ready` );
			const id = `${ name.replace( /\W/g, '' ) }-probe-${ ++probeEvent }`;
			await probe( 'POST /v1/events', 'POST', '/v1/events', {
				events: [
					{
						id,
						type: 'order.paid',
						timestamp: new Date().toISOString(),
						data: { id: probeEvent },
						ordering_key: `order-${ probeEvent }`,
					},
				],
			} );
			await probe( 'GET /v1/endpoints', 'GET', '/v1/endpoints' );
			await probe( 'PATCH /v1/endpoints/:id', 'PATCH', `/v1/endpoints/${ small }`, {
				description: `probe ${ probeEvent }`,
			} );
			await probe( 'POST …/disable', 'POST', `/v1/endpoints/${ small }/disable`, {} );
			await probe( 'POST …/enable', 'POST', `/v1/endpoints/${ small }/enable`, {} );
			await probe( 'GET /v1/deliveries', 'GET', '/v1/deliveries?per_page=50' );
			await probe(
				'GET /v1/deliveries?endpoint_id',
				'GET',
				`/v1/deliveries?endpoint_id=${ big }&status=pending&per_page=50`
			);
			await probe( 'POST /v1/replay', 'POST', '/v1/replay', {
				since: new Date( Date.now() - 60_000 ).toISOString(),
				endpoint_id: small,
			} );
			await probe( 'POST /v1/events/:id/replay', 'POST', `/v1/events/${ id }/replay`, {} );
			await unsigned( 'GET /metrics', `${ sidecarUrl }/metrics`, { authorization: `Bearer ${ METRICS_TOKEN }` } );
			const seen = await first( 'GET', `/v1/endpoints/${ big }`, undefined );
			const view =
				seen.status === 200
					? ( JSON.parse( seen.data ) as {
							status: string;
							failing_since: string | null;
							disabled_at: string | null;
						} )
					: undefined;
			if ( view?.status === 'disabled' ) {
				autoDisableS = ( Date.now() - started ) / 1000;
				if ( view.failing_since !== null && view.disabled_at !== null ) {
					lagS =
						( Date.parse( view.disabled_at ) - Date.parse( view.failing_since ) ) / 1000 -
						options.disableAfterSeconds;
				}
			}
		}

		// Delete the endpoint with its backlog: the answer, then its rows gone in the background.
		const remaining = async () =>
			Number(
				(
					( await store.sql( 'SELECT COUNT(*) AS n FROM deliveries WHERE endpoint_id = ?', [ big ] ) ) as {
						n: number | string;
					}[]
				 )[ 0 ]?.n
			);
		const deleteStarted = performance.now();
		const deleted = await probe( 'DELETE /v1/endpoints/:id (backlog)', 'DELETE', `/v1/endpoints/${ big }` );
		const deleteAnswerMs = performance.now() - deleteStarted;
		let purgedS: number | null = null;
		while ( Date.now() < giveUp + options.maxWaitSeconds * 1000 ) {
			if ( ( await remaining() ) === 0 ) {
				purgedS = ( performance.now() - deleteStarted ) / 1000;
				break;
			}
			await sleep( 250 );
		}
		await store.close();
		await stopAll();

		const routes: Record< string, RouteStats > = {};
		for ( const [ label, { ms, errors } ] of samples ) {
			const sorted = [ ...ms ].sort( ( a, b ) => a - b );
			routes[ label ] = {
				calls: ms.length,
				p50_ms: round( percentile( sorted, 50 ) ),
				p99_ms: round( percentile( sorted, 99 ) ),
				max_ms: round( sorted[ sorted.length - 1 ] ?? 0 ),
				errors,
			};
		}
		return {
			name,
			deliveries: backlog,
			seed_s: round( seedS ),
			routes,
			auto_disable_s: autoDisableS === null ? null : round( autoDisableS ),
			auto_disable_lag_s: lagS === null ? null : round( lagS ),
			delete_answer_ms: round( deleteAnswerMs ),
			delete_status: deleted?.status ?? null,
			delete_purged_s: purgedS === null ? null : round( purgedS ),
		};
	};

	try {
		for ( const kind of options.stores ) {
			for ( const backlog of [ 0, options.deliveries ] ) {
				if ( kind === 'sqlite' ) {
					const dir = tempDir();
					rows.push( await measure( `sqlite x1, ${ backlog }`, await sqliteStore( dir ), 1, backlog ) );
				} else {
					const server = await startMariaDb( { name: `big_queue_${ backlog }` } );
					servers.push( server );
					rows.push(
						await measure(
							`mariadb x${ options.instances }, ${ backlog }`,
							await mariadbStore( server, tempDir() ),
							options.instances,
							backlog
						)
					);
					await server.stop();
				}
			}
		}
	} finally {
		await Promise.all( sidecars.map( stopSidecar ) );
		await Promise.all( servers.map( ( server ) => server.stop().catch( () => undefined ) ) );
		await receiver.close();
		closeDriverAgents();
		dirs.removeAll();
	}
	print( rows );
	if ( options.json ) {
		process.stdout.write( `${ JSON.stringify( rows, null, 2 ) }\n` );
	}
}

function print( rows: Row[] ): void {
	const labels = [ ...new Set( rows.flatMap( ( row ) => Object.keys( row.routes ) ) ) ];
	const empty = ( row: Row ) =>
		rows.find( ( other ) => other.deliveries === 0 && other.name.split( ',' )[ 0 ] === row.name.split( ',' )[ 0 ] );
	const lines: string[] = [];
	lines.push( `| route | ${ rows.map( ( row ) => `${ row.name } p99 ms (max)` ).join( ' | ' ) } |` );
	lines.push( `|---|${ rows.map( () => '---' ).join( '|' ) }|` );
	for ( const label of labels ) {
		const cells = rows.map( ( row ) => {
			const stats = row.routes[ label ];
			if ( ! stats ) {
				return '–';
			}
			const base = empty( row )?.routes[ label ];
			const ratio =
				row.deliveries > 0 && base && base.p99_ms > 0 ? ` ×${ round( stats.p99_ms / base.p99_ms ) }` : '';
			const errors = Object.entries( stats.errors )
				.map( ( [ what, n ] ) => `${ n }× ${ what }` )
				.join( ', ' );
			return `${ stats.p99_ms } (${ stats.max_ms })${ ratio }${ errors ? ` [${ errors }]` : '' }`;
		} );
		lines.push( `| ${ label } | ${ cells.join( ' | ' ) } |` );
	}
	lines.push( `| seed, s | ${ rows.map( ( row ) => row.seed_s ).join( ' | ' ) } |` );
	lines.push(
		`| start → auto-disable, s | ${ rows.map( ( row ) => row.auto_disable_s ?? 'not within the wait' ).join( ' | ' ) } |`
	);
	lines.push(
		`| auto-disable past failing_since + disable-after, s | ${ rows
			.map( ( row ) => row.auto_disable_lag_s ?? '–' )
			.join( ' | ' ) } |`
	);
	lines.push(
		`| DELETE endpoint, answer ms (status) | ${ rows
			.map( ( row ) => `${ row.delete_answer_ms } (${ row.delete_status })` )
			.join( ' | ' ) } |`
	);
	lines.push(
		`| DELETE → deliveries gone, s | ${ rows.map( ( row ) => row.delete_purged_s ?? 'not within the wait' ).join( ' | ' ) } |`
	);
	process.stdout.write( `${ lines.join( '\n' ) }\n` );
}

main().catch( ( error: unknown ) => {
	process.stderr.write( `${ error instanceof Error ? ( error.stack ?? error.message ) : String( error ) }\n` );
	process.exit( 1 );
} );

/**
 * The embedded store's own CPU per delivery, in process and side by side: the schema as it is
 * against variants of the `deliveries` indexes, driven as the dispatcher drives the store.
 *
 * Run: npx ts-node --transpile-only bench/store-cost.ts [--help]
 *
 * CPU time of this process (process.cpuUsage), so a busy machine moves it less than wall-clock
 * figures. Each variant gets its own file database in a temp dir, removed at the end.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { intFlag, parseFlags } from '../scripts/lib/cli-args';
import { openDatabase } from '../sidecar/src/store/sqlite/database';
import type { ClaimedDelivery } from '../sidecar/src/model/deliveries';
import type { NewEvent } from '../sidecar/src/model/events';
import { createStores, type Stores } from '../sidecar/src/store/sqlite/stores';

const HELP = `Usage: npx ts-node --transpile-only bench/store-cost.ts [options]

Store work per delivery (insert the event and its delivery, claim it, record its attempt) on a
file database, as the dispatcher does it, for the schema as it is and two index variants:
  partial     the three status-led list indexes only on finished statuses
  no-lists    without the four list indexes (by_endpoint, by_status_id, by_endpoint_status,
              by_status_updated): what the hot path would save, at the delivery list's expense
Two shapes: batches of 500 events (the throughput run of bench/outbound-delivery.ts, --per-pump
attempts recorded per transaction) and single-event POSTs (one transaction to store and claim,
one to record: two commits per event).

Options:
  --events=<n>     deliveries per measurement (default 20000; single-event runs use a quarter)
  --per-pump=<n>   attempts recorded per transaction in the batch shape (default 8)
  --rounds=<n>     rounds, each variant once per round, interleaved (default 3)
  --help           this text
`;

const FINISHED = "status IN ('succeeded', 'failed', 'cancelled')";
const VARIANTS: Record< string, string > = {
	'as is': '',
	partial: `DROP INDEX deliveries_by_status_updated; DROP INDEX deliveries_by_endpoint_status; DROP INDEX deliveries_by_status_id;
		CREATE INDEX deliveries_by_status_updated ON deliveries (status, updated_at) WHERE ${ FINISHED };
		CREATE INDEX deliveries_by_status_id ON deliveries (status, id) WHERE ${ FINISHED };
		CREATE INDEX deliveries_by_endpoint_status ON deliveries (endpoint_id, status, id) WHERE ${ FINISHED };`,
	'no-lists': `DROP INDEX deliveries_by_status_updated; DROP INDEX deliveries_by_endpoint;
		DROP INDEX deliveries_by_endpoint_status; DROP INDEX deliveries_by_status_id;`,
};
const CONCURRENCY = 16;

function events( batch: number, size: number ): NewEvent[] {
	return Array.from( { length: size }, ( _, i ) => ( {
		id: `evt_${ batch }_${ i }`,
		type: 'order.paid',
		timestamp: '2026-11-25T05:00:00Z',
		orderingKey: `order:${ batch * size + i }`,
		data: { id: batch * size + i, total: '12.00', items: [ { sku: 'A-1', quantity: 1 } ] },
	} ) );
}

function recordSuccess( stores: Stores, claimed: ClaimedDelivery, now: number ): void {
	stores.deliveries.complete( {
		deliveryId: claimed.id,
		endpointId: claimed.endpointId,
		status: 'succeeded',
		attemptNumber: 1,
		cycleAttempts: 1,
		trigger: 'scheduled',
		startedAt: now,
		durationMs: 1,
		statusCode: 200,
		errorCode: null,
		responseExcerpt: 'ok',
		nextAttemptAt: null,
		lastError: null,
		now,
	} );
}

/** µs of CPU per delivery for `total` deliveries in batches of `batchSize`. */
function measure( variantSql: string, total: number, batchSize: number, perPump: number ): number {
	const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'store-cost-' ) );
	const db = openDatabase( { dataDir: dir } );
	try {
		db.exec( variantSql );
		const stores = createStores( db );
		const endpoint = stores.endpoints.create(
			{
				url: 'https://receiver.example/hook',
				description: '',
				eventTypes: [],
				maxConcurrency: CONCURRENCY,
				wcCompatSignature: false,
				secret: `whsec_${ Buffer.alloc( 32, 7 ).toString( 'base64' ) }`,
			},
			Date.now()
		);
		const inFlight: ClaimedDelivery[] = [];
		const claim = ( now: number ) =>
			inFlight.push( ...stores.deliveries.claimDue( endpoint.id, now, CONCURRENCY - inFlight.length ) );
		const started = process.cpuUsage();
		let recorded = 0;
		for ( let batch = 0; recorded < total; batch++ ) {
			const now = Date.now();
			const batchEvents = events( batch, batchSize );
			// The dispatcher's ingest: store and claim in one transaction.
			db.transaction( () => {
				stores.events.insertBatch( batchEvents, now, now );
				claim( now );
			} ).immediate();
			// Its pumps: record what finished, claim the next, one transaction each.
			while ( inFlight.length > 0 ) {
				db.transaction( () => {
					for ( const claimed of inFlight.splice( 0, perPump ) ) {
						recordSuccess( stores, claimed, now );
						recorded++;
					}
					claim( now );
				} ).immediate();
				stores.deliveries.nextDueAfter( now ); // the retry timer's query after each pump
			}
		}
		const cpu = process.cpuUsage( started );
		return ( cpu.user + cpu.system ) / recorded;
	} finally {
		db.close();
		fs.rmSync( dir, { recursive: true, force: true } );
	}
}

function main( argv: string[] ): void {
	const flags = parseFlags( argv, [ 'events', 'per-pump', 'rounds', 'help' ] );
	if ( flags.help ) {
		process.stdout.write( HELP );
		return;
	}
	const total = intFlag( flags, 'events', 20_000, 1000, 1_000_000 );
	const perPump = intFlag( flags, 'per-pump', 8, 1, CONCURRENCY );
	const rounds = intFlag( flags, 'rounds', 3, 1, 20 );
	const shapes = [
		{ name: `batches of 500, ${ perPump } attempts per pump`, total, batch: 500, perPump },
		{ name: 'single-event POSTs', total: Math.ceil( total / 4 ), batch: 1, perPump: 1 },
	];
	const results = new Map< string, number[] >();
	for ( let round = 0; round < rounds; round++ ) {
		for ( const shape of shapes ) {
			for ( const [ variant, sql ] of Object.entries( VARIANTS ) ) {
				const key = `${ shape.name } | ${ variant }`;
				results.set( key, [
					...( results.get( key ) ?? [] ),
					measure( sql, shape.total, shape.batch, shape.perPump ),
				] );
			}
		}
	}
	process.stdout.write( `Store CPU per delivery (${ rounds } rounds, interleaved; min / median / max, µs)\n` );
	for ( const shape of shapes ) {
		process.stdout.write( `  ${ shape.name }:\n` );
		const base = median( results.get( `${ shape.name } | as is` ) ?? [] );
		for ( const variant of Object.keys( VARIANTS ) ) {
			const values = results.get( `${ shape.name } | ${ variant }` ) ?? [];
			const mid = median( values );
			process.stdout.write(
				`    ${ variant.padEnd( 9 ) } ${ Math.min( ...values ).toFixed( 1 ) } / ${ mid.toFixed( 1 ) } / ${ Math.max(
					...values
				).toFixed( 1 ) }   ${ ( mid / base ).toFixed( 2 ) }x the schema as is\n`
			);
		}
	}
}

function median( values: number[] ): number {
	const sorted = [ ...values ].sort( ( a, b ) => a - b );
	return sorted[ Math.floor( sorted.length / 2 ) ] ?? NaN;
}

try {
	main( process.argv.slice( 2 ) );
} catch ( error ) {
	process.stderr.write( `${ error instanceof Error ? error.message : String( error ) }\n` );
	process.exitCode = 1;
}

import fs from 'fs';
import mysql from 'mysql2/promise';
import os from 'os';
import path from 'path';
import { startMariaDb, type RunningMariaDb } from '../support/mariadb';
import { orderEvent } from './support/api-client';
import { startReceiver, type Receiver } from './support/receiver';
import { sleep, waitUntil } from '../support/wait-until';
import { freePort, spawnSidecar, type SpawnedSidecar } from './support/spawned';

const TOTAL = Number( process.env.CRASH_TOTAL ?? 10_000 );
const BATCH = 100;
const MAX_CONCURRENCY = 8;
const TYPES = [ 'order.created', 'order.paid', 'order.refunded' ];

interface AttemptRow {
	delivery_id: number;
	instance_id: string;
	started_at: number;
	ended_at: number;
}

/**
 * Three sidecar processes on one MariaDB behind a round-robin "load balancer" (this test),
 * 10,000 events to two endpoints. One instance is SIGKILLed mid-burst and another restarted
 * (SIGTERM, start again). Every event must reach both endpoints, in order per order id; repeats
 * are counted and each must be explained: a delivery the killed instance held, or one a live
 * instance recorded after its lease ended (its log says so); the stopped instance leaves nothing
 * held; and the attempts table must show no delivery in flight on two instances at once.
 */
describe( 'three sidecars on one MariaDB, one killed and one restarted mid-burst', () => {
	let database: RunningMariaDb;
	let dir: string;
	const receivers: Receiver[] = [];
	const children: SpawnedSidecar[] = [];
	let db: mysql.Connection | undefined;

	beforeAll( async () => {
		database = await startMariaDb( { name: 'crash_test' } );
		dir = fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-shared-crash-' ) );
	} );

	afterAll( async () => {
		for ( const { child } of children ) {
			if ( child.exitCode === null && child.signalCode === null ) {
				child.kill( 'SIGKILL' );
			}
		}
		await Promise.all( children.map( ( c ) => c.exited ) );
		await Promise.all( receivers.map( ( r ) => r.close() ) );
		await db?.end();
		await database?.stop();
		fs.rmSync( dir, { recursive: true, force: true } );
	} );

	it( 'delivers every event to every endpoint, in order per key, never in flight on two live instances', async () => {
		const env = {
			SIDECAR_DATABASE_URL: database.url,
			SIDECAR_RETRY_SCHEDULE: '0,0.1,0.2,0.5,1,1,1,1,1,1',
			// The lease is the delivery timeout + 2 s: a dead instance's deliveries are taken over 5 s after its claim.
			SIDECAR_DELIVERY_TIMEOUT_MS: '3000',
			SIDECAR_LOG_LEVEL: 'info',
		};
		const start = async ( port: number, n: number ) => {
			const sidecar = await spawnSidecar( {
				dataDir: path.join( dir, `unused-${ n }` ),
				port,
				logFile: path.join( dir, `sidecar-${ n }.log` ),
				env,
			} );
			children.push( sidecar );
			return sidecar;
		};
		const ports = [ await freePort(), await freePort(), await freePort() ];
		// One after the other: three processes compiling at once on a busy 2-core machine can outlast the start deadline.
		const instances: SpawnedSidecar[] = [];
		for ( const [ n, port ] of ports.entries() ) {
			instances.push( await start( port, n ) );
		}
		const pids = instances.map( ( s ) => s.child.pid as number );
		const instanceIds = await Promise.all(
			instances.map( async ( s ) => ( await ( await fetch( `${ s.url }/health` ) ).json() ).instance as string )
		);
		const connection = await mysql.createConnection( database.url );
		db = connection;
		// What an instance holds (claimed, not recorded) once its process is gone: the only
		// deliveries its end can make go out twice. Read at once, before the lease lets another take them.
		const held = async ( instanceId: string ) => {
			const [ rows ] = await connection.query< mysql.RowDataPacket[] >(
				`SELECT id, endpoint_id FROM deliveries WHERE status = 'in_flight' AND claimed_by = ?`,
				[ instanceId ]
			);
			return rows.map( ( row ) => ( { id: String( row.id ), endpointId: String( row.endpoint_id ) } ) );
		};
		let heldByKilled: Promise< Awaited< ReturnType< typeof held > > > | undefined;
		let heldByStopped: Promise< Awaited< ReturnType< typeof held > > > | undefined;

		for ( let n = 0; n < 2; n++ ) {
			receivers.push(
				await startReceiver( async ( _req, res ) => {
					await sleep( 1 );
					res.writeHead( 200 ).end();
				} )
			);
		}
		// Created through one instance, used by all: endpoints and secrets live in the shared store.
		for ( const receiver of receivers ) {
			const created = await instances[ 0 ]!.api( 'POST', '/v1/endpoints', {
				url: receiver.url + '/hook',
				max_concurrency: MAX_CONCURRENCY,
			} );
			expect( created.status ).toBe( 201 );
		}
		expect( ( await instances[ 2 ]!.api( 'GET', '/v1/endpoints' ) ).body.endpoints ).toHaveLength( 2 );

		const batches = Array.from( { length: TOTAL / BATCH }, ( _x, b ) =>
			Array.from( { length: BATCH }, ( _y, i ) => {
				// Three events per order, never split across batches (concurrent batches have no order between them).
				return orderEvent( `ev_${ b }_${ i }`, TYPES[ i % 3 ] as string, `${ b }-${ Math.floor( i / 3 ) }` );
			} )
		);

		// The load balancer: round robin over the instances that answer; a batch without a 202
		// goes to the next one (WordPress's outbox would send it again the same way).
		let next = 0;
		let acknowledgedBatches = 0;
		let killed: SpawnedSidecar | undefined;
		let restarting = false;
		const live = () =>
			instances.filter( ( s ) => s !== killed && s.child.exitCode === null && s.child.signalCode === null );
		const post = async ( batch: ( typeof batches )[ number ] ) => {
			for ( let turn = 0; ; turn++ ) {
				const candidates = live();
				const target = candidates[ turn % candidates.length ] as SpawnedSidecar;
				try {
					const response = await target.api( 'POST', '/v1/events', { events: batch } );
					if ( response.status === 202 ) {
						return;
					}
				} catch {
					// dropped by a kill or a restart: try the next instance
				}
				await sleep( 20 );
			}
		};
		const poster = async () => {
			while ( next < batches.length ) {
				const batch = batches[ next++ ] as ( typeof batches )[ number ];
				await post( batch );
				acknowledgedBatches++;
				if ( acknowledgedBatches === Math.round( batches.length * 0.3 ) && ! killed ) {
					killed = instances[ 0 ];
					killed!.child.kill( 'SIGKILL' );
					heldByKilled = killed!.exited.then( () => held( instanceIds[ 0 ] as string ) );
				}
				if ( acknowledgedBatches === Math.round( batches.length * 0.6 ) && ! restarting ) {
					restarting = true;
					const old = instances[ 1 ] as SpawnedSidecar;
					old.child.kill( 'SIGTERM' );
					heldByStopped = old.exited.then( () => held( instanceIds[ 1 ] as string ) );
					void heldByStopped.then( async () => {
						instances[ 1 ] = await start( ports[ 1 ] as number, 3 );
						pids.push( instances[ 1 ].child.pid as number );
					} );
				}
				await sleep( 5 );
			}
		};
		await Promise.all( [ poster(), poster(), poster() ] );
		expect( ( await killed!.exited ).signal ).toBe( 'SIGKILL' );
		await waitUntil( () => pids.length === 4, 30_000, 'the restarted instance is up' );

		const firsts = receivers.map( () => new Map< string, number >() );
		const counts = receivers.map( () => new Map< string, number >() );
		const distinct = ( r: number ) =>
			new Set( receivers[ r ]!.requests.map( ( q ) => q.headers[ 'webhook-id' ] ) ).size;
		await waitUntil(
			() => distinct( 0 ) >= TOTAL && distinct( 1 ) >= TOTAL,
			240_000,
			'every event delivered to both endpoints'
		);

		await waitUntil(
			async () => {
				const [ rows ] = await connection.query< mysql.RowDataPacket[] >(
					`SELECT COUNT(*) AS n FROM deliveries WHERE status <> 'succeeded'`
				);
				return Number( rows[ 0 ]?.n ) === 0;
			},
			30_000,
			'every delivery recorded as succeeded'
		);

		// Every event reached every endpoint; first arrivals keep each order's sequence.
		let repeats = 0;
		receivers.forEach( ( receiver, r ) => {
			const first = firsts[ r ] as Map< string, number >;
			const count = counts[ r ] as Map< string, number >;
			receiver.requests.forEach( ( request, index ) => {
				const id = request.headers[ 'webhook-id' ] as string;
				count.set( id, ( count.get( id ) ?? 0 ) + 1 );
				if ( ! first.has( id ) ) {
					first.set( id, index );
				}
			} );
			expect( first.size ).toBe( TOTAL );
			const outOfOrder: string[] = [];
			for ( let b = 0; b < TOTAL / BATCH; b++ ) {
				for ( let i = 0; i + 1 < BATCH; i++ ) {
					if (
						Math.floor( i / 3 ) === Math.floor( ( i + 1 ) / 3 ) &&
						( first.get( `ev_${ b }_${ i }` ) as number ) >
							( first.get( `ev_${ b }_${ i + 1 }` ) as number )
					) {
						outOfOrder.push( `ev_${ b }_${ i + 1 }` );
					}
				}
			}
			if ( outOfOrder.length > 0 ) {
				console.log(
					'out of order',
					outOfOrder.slice( 0, 5 ),
					receiver.requests.slice( 0, 5 ).map( ( q ) => q.headers[ 'webhook-id' ] )
				);
			}
			expect( outOfOrder ).toEqual( [] );
			repeats += receiver.requests.length - TOTAL;
		} );

		// Each delivery succeeded exactly once (no two live instances both delivered it). A repeat
		// is either an attempt cut short (it reached the receiver but was never recorded, and went
		// out again: receptions = recorded attempts + 1), or a recorded attempt that failed on the
		// sidecar's side (a timeout) after the receiver had it.
		const [ recorded ] = await connection.query< mysql.RowDataPacket[] >(
			`SELECT d.id, d.endpoint_id, d.event_id, COUNT(a.id) AS n, SUM(a.status_code BETWEEN 200 AND 299) AS ok
			 FROM deliveries d LEFT JOIN attempts a ON a.delivery_id = d.id GROUP BY d.id, d.endpoint_id, d.event_id`
		);
		const [ endpoints ] = await connection.query< mysql.RowDataPacket[] >( 'SELECT id, url FROM endpoints' );
		const receiverOf = new Map(
			endpoints.map( ( row ) => [
				String( row.id ),
				receivers.findIndex( ( r ) => String( row.url ).startsWith( r.url ) ),
			] )
		);
		const cutShort: string[] = [];
		let afterFailedAttempt = 0;
		for ( const row of recorded ) {
			const received =
				( counts[ receiverOf.get( String( row.endpoint_id ) ) as number ] as Map< string, number > ).get(
					String( row.event_id )
				) ?? 0;
			const attempts = Number( row.n );
			expect( Number( row.ok ) ).toBe( 1 );
			expect( received ).toBeLessThanOrEqual( attempts + 1 );
			if ( received > attempts ) {
				cutShort.push( String( row.id ) );
			} else if ( received > 1 ) {
				afterFailedAttempt += received - 1;
			}
		}
		expect( recorded ).toHaveLength( 2 * TOTAL );
		expect( cutShort.length + afterFailedAttempt ).toBe( repeats );

		// What the killed instance held: per endpoint, at most max_concurrency attempts in flight
		// plus at most as many that had ended (freeing their slots) and waited for the round in
		// progress to record them. Rounds run one at a time, and a round claims only up to the
		// slots free when it claims, so nothing else is ever held unrecorded.
		const killedHeld = ( await heldByKilled ) ?? [];
		// SIGTERM: the instance finished and recorded what it held before it exited.
		expect( await heldByStopped ).toEqual( [] );
		for ( const { id } of endpoints ) {
			expect(
				killedHeld.filter( ( delivery ) => delivery.endpointId === String( id ) ).length
			).toBeLessThanOrEqual( 2 * MAX_CONCURRENCY );
		}
		// A live instance that records an attempt after its lease ended says so in its log.
		const lateRecords = new Set(
			fs
				.readdirSync( dir )
				.filter( ( name ) => name.endsWith( '.log' ) )
				.flatMap( ( name ) => fs.readFileSync( path.join( dir, name ), 'utf8' ).split( '\n' ) )
				.filter( ( line ) => line.includes( 'delivery no longer held by this instance' ) )
				.map( ( line ) => String( ( JSON.parse( line ) as { delivery_id: unknown } ).delivery_id ) )
		);
		// Every delivery that went out twice is one of those; none is unexplained.
		const explained = new Set( killedHeld.map( ( delivery ) => delivery.id ) );
		expect( cutShort.filter( ( id ) => ! explained.has( id ) && ! lateRecords.has( id ) ) ).toEqual( [] );

		// No delivery was ever in flight on two live instances at once.
		const [ attempts ] = await connection.query< mysql.RowDataPacket[] >(
			'SELECT delivery_id, instance_id, started_at, ended_at FROM attempts ORDER BY delivery_id, started_at'
		);
		const rows = attempts as unknown as AttemptRow[];
		let overlaps = 0;
		for ( let i = 1; i < rows.length; i++ ) {
			const previous = rows[ i - 1 ] as AttemptRow;
			const current = rows[ i ] as AttemptRow;
			if (
				previous.delivery_id === current.delivery_id &&
				Number( current.started_at ) < Number( previous.ended_at )
			) {
				overlaps++;
			}
		}
		expect( overlaps ).toBe( 0 );
		// Instance ids are host:port; the restarted instance keeps its port, and so its id.
		const instancesSeen = new Set( rows.map( ( row ) => row.instance_id ) );
		expect( instancesSeen.size ).toBe( 3 ); // the work was shared
		const share = [ ...instancesSeen ].map(
			( id ) =>
				`${ id === instanceIds[ 0 ] ? 'killed ' : '' }${ id }: ${ rows.filter( ( row ) => row.instance_id === id ).length }`
		);
		console.log(
			`shared-store crash test: ${ 2 * TOTAL } deliveries, ${ repeats } repeated: ${ cutShort.length } cut short ` +
				`(the killed instance held ${ killedHeld.length }, ` +
				`${ lateRecords.size } recorded after their lease), ${ afterFailedAttempt } after an attempt that failed ` +
				`on the sidecar's side; attempts per instance: ${ share.join( ', ' ) }`
		);
	}, 300_000 );
} );

import mysql from 'mysql2/promise';
import { startMariaDb, type RunningMariaDb } from '../support/mariadb';
import { waitUntil } from '../support/wait-until';
import type { ApiCall, ApiResponse } from './support/api-client';
import { startReceiver, type Receiver } from './support/receiver';
import { startDeliveringInstance, type DeliveringInstance } from './support/delivering-instance';

/** Events handed over before the replays, and the live ones handed over while they run. */
const STORED = 240;
const LIVE_BATCHES = 12;
const LIVE_PER_BATCH = 10;
const REPLAY_ROUNDS = 4;

const TYPES = [ 'order.created', 'order.paid', 'order.refunded' ] as const;
const orderOf = ( i: number ) => `order:${ i % 20 }`;

/** Three types in turn, over 20 orders: the endpoint takes one type, a replay all three. */
function batch( prefix: string, from: number, count: number ) {
	return Array.from( { length: count }, ( _x, n ) => {
		const i = from + n;
		return {
			id: `${ prefix }_${ i }`,
			type: TYPES[ i % 3 ],
			timestamp: '2026-11-24T10:00:00Z',
			ordering_key: orderOf( i ),
			data: { i },
		};
	} );
}

/**
 * Deadlocks on the shared store (docs/production.md, section 19): range replays to one endpoint
 * through two instances at once, while live events for it are handed over, lock the same rows in
 * different orders. The database rolls one transaction back; the sidecar runs it again, and a
 * request that still collides says so (409 replay_conflict, 503 store_busy with Retry-After),
 * never that the database is away, and the instances stay ready. Afterwards each replayed event
 * went out once more per replay that counted it as queued, and the live events kept their order.
 */
describe( 'deadlocks on the shared store: concurrent range replays and live hand-overs through two instances', () => {
	let database: RunningMariaDb;
	let sql: mysql.Connection;
	let receiver: Receiver;
	let a: DeliveringInstance;
	let b: DeliveringInstance;

	beforeAll( async () => {
		database = await startMariaDb( { name: 'deadlocks_test' } );
		sql = await mysql.createConnection( database.url );
		receiver = await startReceiver();
		a = await startDeliveringInstance( database.url, 'instance-a', 200 );
		b = await startDeliveringInstance( database.url, 'instance-b', 200 );
		a.dispatcher.start();
		b.dispatcher.start();
	} );

	afterAll( async () => {
		await a?.close();
		await b?.close();
		await sql?.end();
		await receiver?.close();
		await database?.stop();
	} );

	const count = async ( query: string, params: unknown[] = [] ): Promise< number > =>
		Number( ( await sql.query< mysql.RowDataPacket[] >( query, params ) )[ 0 ][ 0 ]?.n ?? 0 );
	const openDeliveries = () =>
		count( `SELECT COUNT(*) AS n FROM deliveries WHERE status IN ('pending', 'in_flight')` );
	const received = ( id: string ) =>
		receiver.requests.filter( ( request ) => request.headers[ 'webhook-id' ] === id ).length;

	it( 'answers every request with 200/202, 409 replay_conflict or 503 store_busy, stays ready, and delivers consistently', async () => {
		const created = await a.api( 'POST', '/v1/endpoints', {
			url: receiver.url + '/hook',
			event_types: [ 'order.paid' ],
			max_concurrency: 8,
		} );
		expect( created.status ).toBe( 201 );
		const endpointId: string = created.body.id;
		for ( let from = 0; from < STORED; from += 60 ) {
			expect( ( await a.api( 'POST', '/v1/events', { events: batch( 'st', from, 60 ) } ) ).status ).toBe( 202 );
		}
		await waitUntil(
			async () => ( await openDeliveries() ) === 0 && receiver.requests.length >= STORED / 3,
			60_000,
			'stored events delivered'
		);
		const [ bounds ] = await sql.query< mysql.RowDataPacket[] >(
			'SELECT MIN(received_at) AS first, MAX(received_at) AS last FROM events'
		);
		const range = {
			from: new Date( Number( bounds[ 0 ]?.first ) ).toISOString(),
			// The live events come later: outside the range.
			to: new Date( Number( bounds[ 0 ]?.last ) + 1 ).toISOString(),
			// The endpoint never had the other two types: the replay creates their deliveries, and
			// moves the paid ones it comes across after them to fresh ids, in arrival order.
			types: [ ...TYPES ],
		};
		await waitUntil( () => Date.now() > Date.parse( range.to ), 1000, 'the range closed' );

		const answers: { what: string; answer: ApiResponse }[] = [];
		const readiness: number[] = [];
		/** Whether a dispatcher's round failed on the store (it then tries again a second later). */
		let lostTheStore = false;
		let storming = true;
		const ready = ( async () => {
			while ( storming ) {
				for ( const instance of [ a, b ] ) {
					readiness.push( ( await instance.api( 'GET', '/ready' ) ).status );
					lostTheStore ||= instance.dispatcher.storeUnreachable();
				}
			}
		} )();
		const replay = async ( instance: ApiCall ) => {
			const answer = await instance( 'POST', `/v1/endpoints/${ endpointId }/replay`, range );
			answers.push( { what: 'replay', answer } );
			return answer;
		};
		/** WordPress's outbox: a refused batch is sent again (here at once) until it is taken. */
		const handOver = async ( instance: ApiCall, events: unknown[] ) => {
			for ( let tries = 0; tries < 20; tries++ ) {
				const answer = await instance( 'POST', '/v1/events', { events } );
				answers.push( { what: 'hand-over', answer } );
				if ( answer.status === 202 ) {
					return;
				}
			}
			throw new Error( 'a live batch was refused 20 times' );
		};
		const handingOver = ( async () => {
			for ( let n = 0; n < LIVE_BATCHES; n++ ) {
				await handOver( ( n % 2 === 0 ? a : b ).api, batch( 'lv', n * LIVE_PER_BATCH, LIVE_PER_BATCH ) );
			}
		} )();
		// Rounds of two replays at once, one through each instance: the first to start is written,
		// the other (if the first is still being written) refused; the next round comes while the
		// dispatchers send what the last one queued.
		const replays: ApiResponse[] = [];
		for ( let round = 0; round < REPLAY_ROUNDS; round++ ) {
			const pair = await Promise.all( [ replay( a.api ), replay( b.api ) ] );
			expect( pair.map( ( answer ) => answer.status ) ).toContain( 200 );
			replays.push( ...pair );
		}
		await handingOver;
		storming = false;
		await ready;

		const unexpected = answers.filter(
			( { what, answer } ) =>
				! (
					( what === 'replay' && answer.status === 200 ) ||
					( what === 'hand-over' && answer.status === 202 ) ||
					( what === 'replay' && answer.status === 409 && answer.body?.code === 'replay_conflict' ) ||
					( answer.status === 503 &&
						answer.body?.code === 'store_busy' &&
						answer.headers.get( 'retry-after' ) === '1' )
				)
		);
		expect( unexpected.map( ( { what, answer } ) => `${ what }: ${ answer.status } ${ answer.text }` ) ).toEqual(
			[]
		);
		expect( readiness.length ).toBeGreaterThan( 0 );
		expect( readiness.filter( ( status ) => status !== 200 ) ).toEqual( [] );
		// A deadlocked round is run again at once, not taken for a store that is away.
		expect( lostTheStore ).toBe( false );
		const accepted = replays.filter( ( answer ) => answer.status === 200 );
		const [ dl ] = await sql.query< mysql.RowDataPacket[] >( "SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'" );
		console.log(
			`InnoDB deadlocks: ${ dl[ 0 ]?.Value }; ${ accepted.length }/${ replays.length } replays accepted, ${
				answers.filter( ( { answer } ) => answer.status === 503 ).length
			} hand-overs refused as busy`
		);
		for ( const answer of accepted ) {
			expect( answer.body ).toMatchObject( { matched: STORED, more: false } );
			expect( answer.body.queued + answer.body.already_queued ).toBe( STORED );
		}

		// Everything goes out: each replayed event once more per replay that queued it again, each
		// live event the endpoint takes (one in three) once.
		const live = Array.from( { length: LIVE_BATCHES * LIVE_PER_BATCH }, ( _x, i ) => i );
		const livePaid = live.filter( ( i ) => TYPES[ i % 3 ] === 'order.paid' );
		const queued = accepted.reduce( ( sum, answer ) => sum + Number( answer.body.queued ), 0 );
		const expected = STORED / 3 + queued + livePaid.length;
		await waitUntil(
			async () => ( await openDeliveries() ) === 0 && receiver.requests.length >= expected,
			60_000,
			() => `all deliveries finished (${ receiver.requests.length } of ${ expected } received)`
		);
		expect( receiver.requests ).toHaveLength( expected );
		expect(
			await count( `SELECT COUNT(*) AS n FROM deliveries WHERE endpoint_id = ? AND status = 'succeeded'`, [
				endpointId,
			] )
		).toBe( ( accepted.length > 0 ? STORED : STORED / 3 ) + livePaid.length );
		// Each attempt recorded once.
		expect( await count( 'SELECT COUNT(*) AS n FROM attempts WHERE endpoint_id = ?', [ endpointId ] ) ).toBe(
			expected
		);
		expect( live.map( ( i ) => received( `lv_${ i }` ) ) ).toEqual(
			live.map( ( i ) => ( TYPES[ i % 3 ] === 'order.paid' ? 1 : 0 ) )
		);
		// Each order's live events arrived in order.
		const at = new Map(
			receiver.requests.map( ( request, index ) => [ request.headers[ 'webhook-id' ] as string, index ] )
		);
		for ( const i of livePaid ) {
			const later = livePaid.find( ( j ) => j > i && orderOf( j ) === orderOf( i ) );
			if ( later !== undefined ) {
				expect( at.get( `lv_${ i }` ) as number ).toBeLessThan( at.get( `lv_${ later }` ) as number );
			}
		}
	} );
} );

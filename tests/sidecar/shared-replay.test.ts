import mysql from 'mysql2/promise';
import { startMariaDb, type RunningMariaDb } from '../support/mariadb';
import { sleep, waitUntil } from '../support/wait-until';
import { orderEvent } from './support/api-client';
import { startReceiver, type Receiver } from './support/receiver';
import { startDeliveringInstance, type DeliveringInstance } from './support/delivering-instance';

/**
 * Replays on the shared store: requested through instance A, whose dispatcher is not running,
 * and delivered by instance B, which finds the requeued or new deliveries at its next poll.
 */
describe( 'replays through one instance, delivered by another, on one MariaDB', () => {
	let database: RunningMariaDb;
	let sql: mysql.Connection;
	let receiver: Receiver;
	let a: DeliveringInstance;
	let b: DeliveringInstance;
	/** Paths that answer 500 until removed. */
	const failing = new Set< string >();

	beforeAll( async () => {
		database = await startMariaDb( { name: 'shared_replay_test' } );
		sql = await mysql.createConnection( database.url );
		receiver = await startReceiver( ( request, res ) => {
			res.writeHead( failing.has( request.path ) ? 500 : 200 ).end( 'ok' );
		} );
		a = await startDeliveringInstance( database.url, 'instance-a', 60_000 );
		b = await startDeliveringInstance( database.url, 'instance-b', 200 );
		// A's dispatcher never starts: whatever A queues, B delivers.
		b.dispatcher.start();
	} );

	afterAll( async () => {
		await a?.close();
		await b?.close();
		await sql?.end();
		await receiver?.close();
		await database?.stop();
	} );

	const idsAt = ( path: string ) =>
		receiver.requests.filter( ( r ) => r.path === path ).map( ( r ) => r.headers[ 'webhook-id' ] );
	const createEndpoint = async ( path: string, eventTypes?: string[] ): Promise< string > => {
		const created = await a.api( 'POST', '/v1/endpoints', { url: receiver.url + path, event_types: eventTypes } );
		expect( created.status ).toBe( 201 );
		return created.body.id;
	};
	const statusesOf = async ( endpointId: string ) =>
		( await a.api( 'GET', `/v1/deliveries?endpoint_id=${ endpointId }&per_page=100` ) ).body.deliveries.map(
			( d: { status: string } ) => d.status
		) as string[];
	const attemptsBy = async ( eventId: string ) =>
		(
			await sql.query< mysql.RowDataPacket[] >(
				`SELECT a.instance_id, a.trigger FROM attempts a JOIN deliveries d ON d.id = a.delivery_id
				 WHERE d.event_id = ? ORDER BY a.id`,
				[ eventId ]
			)
		)[ 0 ].map( ( row ) => [ row.instance_id, row.trigger ] );
	const receivedAt = async ( eventId: string ): Promise< string > =>
		( await a.api( 'GET', `/v1/events/${ eventId }` ) ).body.event.received_at;

	it( 'replays one event through A, to all its endpoints or to one that never had it, and B delivers it', async () => {
		const endpointId = await createEndpoint( '/one' );
		expect(
			( await a.api( 'POST', '/v1/events', { events: [ orderEvent( 'r_1', 'order.paid', 1 ) ] } ) ).status
		).toBe( 202 );
		await receiver.waitFor( () => idsAt( '/one' ).length === 1 );
		await waitUntil(
			async () => ( await statusesOf( endpointId ) )[ 0 ] === 'succeeded',
			5000,
			'first delivery recorded'
		);

		const replay = await a.api( 'POST', '/v1/events/r_1/replay' );
		expect( replay.status ).toBe( 200 );
		expect( replay.body ).toEqual( { requeued: 1 } );
		await receiver.waitFor( () => idsAt( '/one' ).length === 2 );
		await waitUntil( async () => ( await attemptsBy( 'r_1' ) ).length === 2, 5000, 'replayed attempt recorded' );
		expect( await attemptsBy( 'r_1' ) ).toEqual( [
			[ 'instance-b', 'scheduled' ],
			[ 'instance-b', 'manual' ],
		] );

		// An endpoint created later never had the event: the replay to it creates its delivery.
		const lateId = await createEndpoint( '/late' );
		const late = await a.api( 'POST', '/v1/events/r_1/replay', { endpoint_id: lateId } );
		expect( late.body ).toEqual( { requeued: 1 } );
		await receiver.waitFor( () => idsAt( '/late' ).length === 1 );
		expect( idsAt( '/late' ) ).toEqual( [ 'r_1' ] );
		// B serves what A replayed.
		const seen = await b.api( 'GET', '/v1/events/r_1' );
		expect( seen.body.deliveries.map( ( d: { endpoint_id: string } ) => d.endpoint_id ) ).toEqual( [
			endpointId,
			lateId,
		] );
		await a.api( 'DELETE', `/v1/endpoints/${ endpointId }` );
		await a.api( 'DELETE', `/v1/endpoints/${ lateId }` );
	} );

	it( 'replays through A what failed since a time, and B delivers it once the receiver is back', async () => {
		failing.add( '/flaky' );
		const endpointId = await createEndpoint( '/flaky' );
		const since = new Date().toISOString();
		await a.api( 'POST', '/v1/events', {
			events: [ orderEvent( 'f_1', 'order.paid', 2 ), orderEvent( 'f_2', 'order.paid', 3 ) ],
		} );
		await waitUntil(
			async () => ( await statusesOf( endpointId ) ).every( ( status ) => status === 'failed' ),
			10_000,
			'both deliveries failed'
		);
		failing.delete( '/flaky' );
		const before = idsAt( '/flaky' ).length;

		const replay = await a.api( 'POST', '/v1/replay', { since, endpoint_id: endpointId } );
		expect( replay.body ).toEqual( { requeued: 2 } );
		await receiver.waitFor( () => idsAt( '/flaky' ).length === before + 2 );
		expect( idsAt( '/flaky' ).slice( before ).sort() ).toEqual( [ 'f_1', 'f_2' ] );
		await waitUntil(
			async () => ( await statusesOf( endpointId ) ).every( ( status ) => status === 'succeeded' ),
			5000,
			'replayed deliveries succeeded'
		);
		expect( ( await attemptsBy( 'f_1' ) ).pop() ).toEqual( [ 'instance-b', 'manual' ] );
		await a.api( 'DELETE', `/v1/endpoints/${ endpointId }` );
	} );

	it( 'replays a range through A to an endpoint created later: counts as on the embedded store, B delivers in order', async () => {
		for ( const [ id, type ] of [
			[ 'g_1', 'order.created' ],
			[ 'g_2', 'order.paid' ],
			[ 'g_3', 'order.refunded' ],
		] as const ) {
			await a.api( 'POST', '/v1/events', { events: [ orderEvent( id, type, 4 ) ] } );
			await sleep( 5 );
		}
		const endpointId = await createEndpoint( '/range', [ 'order.paid' ] );
		const range = {
			from: await receivedAt( 'g_1' ),
			to: new Date( Date.parse( await receivedAt( 'g_3' ) ) + 1 ).toISOString(),
			types: [ 'order.created', 'order.paid', 'order.refunded' ],
		};

		const dry = await a.api( 'POST', `/v1/endpoints/${ endpointId }/replay`, {
			...range,
			limit: 2,
			dry_run: true,
		} );
		expect( dry.status ).toBe( 200 );
		expect( dry.body ).toEqual( {
			matched: 2,
			queued: 2,
			already_queued: 0,
			more: true,
			next_from: await receivedAt( 'g_3' ),
			types: range.types,
			dry_run: true,
		} );
		// The API writes before it answers: a dry run left no delivery to send.
		expect( await statusesOf( endpointId ) ).toEqual( [] );
		expect( idsAt( '/range' ) ).toEqual( [] );

		const replay = await a.api( 'POST', `/v1/endpoints/${ endpointId }/replay`, range );
		expect( replay.body ).toMatchObject( {
			matched: 3,
			queued: 3,
			already_queued: 0,
			more: false,
			next_from: null,
		} );
		await receiver.waitFor( () => idsAt( '/range' ).length === 3 );
		expect( idsAt( '/range' ) ).toEqual( [ 'g_1', 'g_2', 'g_3' ] );
		expect( ( await attemptsBy( 'g_2' ) ).map( ( [ instance ] ) => instance ) ).toContain( 'instance-b' );

		// Through B, while A's are still being sent or after: each event once, none twice.
		const again = await b.api( 'POST', `/v1/endpoints/${ endpointId }/replay`, { ...range, dry_run: true } );
		expect( again.body ).toMatchObject( { matched: 3 } );
		expect( again.body.queued + again.body.already_queued ).toBe( 3 );
		await a.api( 'DELETE', `/v1/endpoints/${ endpointId }` );
	} );

	describe( 'bad input: the same answers as on the embedded store', () => {
		let endpointId: string;
		const good = { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' };

		beforeAll( async () => {
			endpointId = await createEndpoint( '/bad' );
			await a.api( 'POST', '/v1/events', { events: [ orderEvent( 'bad_1', 'order.paid', 5 ) ] } );
		} );

		it.each( [
			[ 'replay of an unknown event', '/v1/events/nope/replay', {}, 404, 'event_not_found' ],
			[
				'replay to an unknown endpoint',
				'/v1/events/bad_1/replay',
				{ endpoint_id: 'ep_nope' },
				404,
				'endpoint_not_found',
			],
			[ 'replay with an unknown field', '/v1/events/bad_1/replay', { endpoint: 'x' }, 400, 'invalid_body' ],
			[ 'replay with malformed JSON', '/v1/events/bad_1/replay', '{', 400, 'invalid_json' ],
			[ 'replay-since without since', '/v1/replay', {}, 400, 'invalid_body' ],
			[ 'replay-since with a bad date', '/v1/replay', { since: 'last week' }, 400, 'invalid_body' ],
			[
				'replay-since to an unknown endpoint',
				'/v1/replay',
				{ since: good.from, endpoint_id: 'ep_nope' },
				404,
				'endpoint_not_found',
			],
			[ 'range replay to an unknown endpoint', '/v1/endpoints/ep_nope/replay', good, 404, 'endpoint_not_found' ],
		] )( '%s: %i %s', async ( _label, path, body, status, code ) => {
			const answer = await a.api( 'POST', path, body );
			expect( answer.status ).toBe( status );
			expect( answer.body ).toMatchObject( { code } );
		} );

		it.each( [
			[ 'a bad from', 'invalid_from', 'from', { ...good, from: 'yesterday' } ],
			[ 'from after to', 'invalid_to', 'to', { from: good.to, to: good.from } ],
			[ 'an unknown type', 'invalid_event_type', 'types.0', { ...good, types: [ 'order.shipped' ] } ],
			[ 'limit 0', 'invalid_limit', 'limit', { ...good, limit: 0 } ],
			[ 'dry_run not a boolean', 'invalid_dry_run', 'dry_run', { ...good, dry_run: 'yes' } ],
		] )( 'range replay with %s: 400 %s naming %s', async ( _label, code, field, body ) => {
			const answer = await a.api( 'POST', `/v1/endpoints/${ endpointId }/replay`, body );
			expect( answer.status ).toBe( 400 );
			expect( answer.body ).toMatchObject( { code, data: { status: 400, field } } );
		} );

		it( 'another method: 405 with Allow; a disabled endpoint: 409', async () => {
			for ( const path of [ '/v1/events/bad_1/replay', '/v1/replay', `/v1/endpoints/${ endpointId }/replay` ] ) {
				const wrong = await a.api( 'GET', path );
				expect( wrong.status ).toBe( 405 );
				expect( wrong.headers.get( 'allow' ) ).toBe( 'POST' );
				expect( wrong.body ).toMatchObject( { code: 'method_not_allowed' } );
			}
			await a.api( 'POST', `/v1/endpoints/${ endpointId }/disable` );
			const range = await b.api( 'POST', `/v1/endpoints/${ endpointId }/replay`, good );
			expect( range.status ).toBe( 409 );
			expect( range.body ).toMatchObject( { code: 'endpoint_disabled' } );
			const one = await b.api( 'POST', '/v1/events/bad_1/replay', { endpoint_id: endpointId } );
			expect( one.status ).toBe( 409 );
			expect( one.body ).toMatchObject( { code: 'endpoint_disabled' } );
		} );
	} );
} );

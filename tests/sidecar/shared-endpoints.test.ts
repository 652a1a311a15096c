import mysql from 'mysql2/promise';
import { loadConfig } from '../../sidecar/src/config';
import { createLogger } from '../../sidecar/src/logger';
import type { Dispatcher } from '../../sidecar/src/outbound/dispatcher';
import { signStandardWebhook } from '../../sidecar/src/outbound/signing';
import { MysqlStore } from '../../sidecar/src/store/mysql/mysql-store';
import { startMariaDb, type RunningMariaDb } from '../support/mariadb';
import { waitUntil } from '../support/wait-until';
import { apiClient, orderEvent, type ApiCall } from './support/api-client';
import { TEST_ENV, TEST_KEY } from './support/harness';
import { startReceiver, type ReceivedRequest, type Receiver } from './support/receiver';
import { serveOnLoopback } from './support/loopback-server';
import { instanceApp, leasedDispatcher } from './support/instance-app';

const config = loadConfig( { ...TEST_ENV, SIDECAR_LOG_LEVEL: 'silent' } );
const log = createLogger( process.env.TEST_LOG ?? 'silent' );

interface Instance {
	url: string;
	api: ApiCall;
	store: MysqlStore;
	dispatcher: Dispatcher;
	close: () => Promise< void >;
}

/**
 * One sidecar instance on the shared store, in this process: its own pool, dispatcher and app.
 * The dispatcher polls only once a minute, so what it does within a test follows from a
 * request made to its own instance (a hand-over wakes it), not from a poll.
 */
async function startInstance( url: string, name: string ): Promise< Instance > {
	const store = await MysqlStore.open( { url } );
	const dispatcher = leasedDispatcher( store, config, log, name );
	const app = instanceApp( store, config, log, dispatcher );
	const server = await serveOnLoopback( app );
	const base = server.url;
	return {
		url: base,
		api: apiClient( base, TEST_KEY ),
		store,
		dispatcher,
		close: async () => {
			await dispatcher.stop( 1000 );
			await server.close();
			await store.close();
		},
	};
}

/** Whether the request carries exactly the signatures of these secrets, newest first. */
function signedWith( request: ReceivedRequest, secrets: string[] ): boolean {
	return (
		request.headers[ 'webhook-signature' ] ===
		signStandardWebhook( {
			id: request.headers[ 'webhook-id' ] as string,
			timestampSeconds: Number( request.headers[ 'webhook-timestamp' ] ),
			body: request.body,
			secrets,
		} )
	);
}

/**
 * Endpoint management on the shared store is the embedded store's router: a change made
 * through instance A is what instance B serves, and what B's dispatcher uses, at once.
 */
describe( 'endpoint management through two instances on one MariaDB', () => {
	let database: RunningMariaDb;
	let receiver: Receiver;
	let a: Instance;
	let b: Instance;
	let endpointId: string;

	beforeAll( async () => {
		database = await startMariaDb( { name: 'shared_endpoints_test' } );
		receiver = await startReceiver();
		a = await startInstance( database.url, 'instance-a' );
		b = await startInstance( database.url, 'instance-b' );
		const created = await a.api( 'POST', '/v1/endpoints', {
			url: `${ receiver.url }/first`,
			description: 'orders',
			event_types: [ 'order.paid' ],
		} );
		expect( created.status ).toBe( 201 );
		endpointId = created.body.id;
		// Both dispatchers load the endpoint as it was created; later changes reach B only through the store.
		a.dispatcher.start();
		b.dispatcher.start();
	} );

	afterAll( async () => {
		await a?.close();
		await b?.close();
		await receiver?.close();
		await database?.stop();
	} );

	it( 'serves an update made through A from B, and B delivers to the new url with the new settings', async () => {
		const patched = await a.api( 'PATCH', `/v1/endpoints/${ endpointId }`, {
			url: `${ receiver.url }/second`,
			description: 'orders, moved',
			event_types: [ 'order.paid', 'order.refunded' ],
		} );
		expect( patched.status ).toBe( 200 );
		const seen = await b.api( 'GET', `/v1/endpoints/${ endpointId }` );
		expect( seen.status ).toBe( 200 );
		expect( seen.body ).toEqual( patched.body );
		expect( seen.body ).toMatchObject( {
			url: `${ receiver.url }/second`,
			description: 'orders, moved',
			event_types: [ 'order.paid', 'order.refunded' ],
		} );

		expect(
			( await b.api( 'POST', '/v1/events', { events: [ orderEvent( 'moved_1', 'order.refunded', 1 ) ] } ) ).status
		).toBe( 202 );
		await receiver.waitFor( ( requests ) => requests.some( ( r ) => r.headers[ 'webhook-id' ] === 'moved_1' ) );
		expect( receiver.requests.find( ( r ) => r.headers[ 'webhook-id' ] === 'moved_1' )?.path ).toBe( '/second' );
	} );

	it( 'signs with a secret rotated through A on B’s very next delivery', async () => {
		const rotated = await a.api( 'POST', `/v1/endpoints/${ endpointId }/rotate-secret`, { grace_hours: 0 } );
		expect( rotated.status ).toBe( 200 );
		const secret = rotated.body.secret as string;
		expect( rotated.body.secrets ).toHaveLength( 1 );
		expect( ( await b.api( 'GET', `/v1/endpoints/${ endpointId }` ) ).body.secrets ).toEqual(
			rotated.body.secrets
		);

		expect(
			( await b.api( 'POST', '/v1/events', { events: [ orderEvent( 'rotated_1', 'order.paid', 2 ) ] } ) ).status
		).toBe( 202 );
		await receiver.waitFor( ( requests ) => requests.some( ( r ) => r.headers[ 'webhook-id' ] === 'rotated_1' ) );
		const request = receiver.requests.find( ( r ) => r.headers[ 'webhook-id' ] === 'rotated_1' ) as ReceivedRequest;
		expect( signedWith( request, [ secret ] ) ).toBe( true );
	} );

	it( 'stops delivering to an endpoint disabled through A; enabled through B, it gets what it missed', async () => {
		const disabled = await a.api( 'POST', `/v1/endpoints/${ endpointId }/disable`, { reason: 'maintenance' } );
		expect( disabled.status ).toBe( 200 );
		expect( ( await b.api( 'GET', '/v1/endpoints' ) ).body.endpoints ).toEqual( [
			expect.objectContaining( {
				id: endpointId,
				status: 'disabled',
				disabled_reason: 'maintenance',
				disabled_by: 'owner',
			} ),
		] );
		expect( ( await b.api( 'GET', '/v1/status' ) ).body.endpoints ).toEqual( { active: 0, disabled: 1 } );

		// B takes the event but queues nothing for the disabled endpoint: its dispatcher has nothing to send.
		expect(
			( await b.api( 'POST', '/v1/events', { events: [ orderEvent( 'missed_1', 'order.paid', 3 ) ] } ) ).status
		).toBe( 202 );
		expect( ( await b.api( 'GET', '/v1/events/missed_1' ) ).body.deliveries ).toEqual( [] );

		const enabled = await b.api( 'POST', `/v1/endpoints/${ endpointId }/enable`, { redeliver: true } );
		expect( enabled.status ).toBe( 200 );
		expect( enabled.body ).toMatchObject( { status: 'active', redelivered: true, requeued: 1, skipped: 0 } );
		expect( ( await a.api( 'GET', `/v1/endpoints/${ endpointId }` ) ).body.status ).toBe( 'active' );
		await receiver.waitFor( ( requests ) => requests.some( ( r ) => r.headers[ 'webhook-id' ] === 'missed_1' ) );
	} );

	it( 'lists through A the deliveries B made, filtered like on the embedded store', async () => {
		const succeeded = `/v1/deliveries?endpoint_id=${ endpointId }&status=succeeded&per_page=2`;
		// The receiver has them all; B records each attempt just after its answer.
		await waitUntil(
			async () => ( await a.api( 'GET', succeeded ) ).body.total === 3,
			10_000,
			'three deliveries succeeded'
		);
		const page = await a.api( 'GET', succeeded );
		expect( page.status ).toBe( 200 );
		expect( page.body ).toMatchObject( { total: 3, page: 1, per_page: 2 } );
		expect( page.body.deliveries.map( ( d: { event_id: string } ) => d.event_id ) ).toEqual( [
			'missed_1',
			'rotated_1',
		] );
		const refunds = await a.api( 'GET', '/v1/deliveries?type=order.refunded' );
		expect( refunds.body.deliveries.map( ( d: { event_id: string } ) => d.event_id ) ).toEqual( [ 'moved_1' ] );
	} );

	it.each( [
		[ 'GET', '' ],
		[ 'PATCH', '' ],
		[ 'DELETE', '' ],
		[ 'POST', '/rotate-secret' ],
		[ 'POST', '/enable' ],
		[ 'POST', '/disable' ],
	] )( 'answers %s /v1/endpoints/<unknown>%s with 404 endpoint_not_found', async ( method, suffix ) => {
		const answer = await b.api(
			method,
			`/v1/endpoints/ep_unknown${ suffix }`,
			method === 'PATCH' ? { description: 'x' } : undefined
		);
		expect( answer.status ).toBe( 404 );
		expect( answer.body.code ).toBe( 'endpoint_not_found' );
	} );

	it.each( [
		[ 'malformed JSON', 'PATCH', '', '{"url":', 'invalid_json', undefined ],
		[ 'an unknown field', 'PATCH', '', { colour: 'red' }, 'invalid_body', 'colour' ],
		[ 'a description of the wrong type', 'PATCH', '', { description: 42 }, 'invalid_body', 'description' ],
		[
			'an unknown event type',
			'PATCH',
			'',
			{ event_types: [ 'order.lost' ] },
			'invalid_event_type',
			'event_types.0',
		],
		[ 'a url that is not http(s)', 'PATCH', '', { url: 'ftp://hooks.example/x' }, undefined, 'url' ],
		[ 'malformed JSON', 'POST', '/rotate-secret', '{', 'invalid_json', undefined ],
		[ 'a negative grace period', 'POST', '/rotate-secret', { grace_hours: -1 }, 'invalid_body', 'grace_hours' ],
		[ 'a reason that is not text', 'POST', '/disable', { reason: true }, 'invalid_body', 'reason' ],
		[ 'redeliver that is not a boolean', 'POST', '/enable', { redeliver: 'yes' }, 'invalid_body', 'redeliver' ],
	] )(
		'answers %s in %s /v1/endpoints/<id>%s with 400 naming the field',
		async ( _what, method, suffix, body, code, field ) => {
			const answer = await b.api( method, `/v1/endpoints/${ endpointId }${ suffix }`, body );
			expect( answer.status ).toBe( 400 );
			if ( code !== undefined ) {
				expect( answer.body.code ).toBe( code );
			}
			if ( field !== undefined ) {
				expect( JSON.stringify( answer.body.data ) ).toContain( field );
			}
		}
	);

	it( 'answers a bad delivery-list query with 400 and an unknown endpoint filter with 404', async () => {
		const bad = await a.api( 'GET', '/v1/deliveries?status=lost' );
		expect( bad.status ).toBe( 400 );
		expect( bad.body.code ).toBe( 'invalid_query' );
		const unknown = await a.api( 'GET', '/v1/deliveries?endpoint_id=ep_unknown' );
		expect( unknown.status ).toBe( 404 );
		expect( unknown.body.code ).toBe( 'endpoint_not_found' );
	} );

	it( 'serves /health with its instance, /ready, and the same 404 and 405 as the embedded app', async () => {
		const health = await fetch( `${ b.url }/health` );
		expect( health.headers.get( 'etag' ) ).toBeNull();
		expect( await health.json() ).toMatchObject( { status: 'ok', instance: 'instance-b' } );
		const ready = await fetch( `${ b.url }/ready` );
		expect( ready.status ).toBe( 200 );
		expect( await ready.json() ).toMatchObject( { status: 'ready', failed: [] } );
		const missing = await fetch( `${ b.url }/nowhere` );
		expect( missing.status ).toBe( 404 );
		expect( ( ( await missing.json() ) as { code: string } ).code ).toBe( 'not_found' );
		// A signed request to a path no router serves: the embedded app's 404, not a shared-store special case.
		const unknownApi = await b.api( 'GET', '/v1/nowhere' );
		expect( unknownApi.status ).toBe( 404 );
		expect( unknownApi.body ).toMatchObject( { code: 'not_found' } );
		const wrongMethod = await b.api( 'PUT', `/v1/endpoints/${ endpointId }`, { description: 'x' } );
		expect( wrongMethod.status ).toBe( 405 );
		expect( wrongMethod.headers.get( 'allow' ) ).toBe( 'GET, PATCH, DELETE' );
	} );

	it( 'parks as cancelled a retry of A’s attempt in flight when B disabled the endpoint; enabling sends it again', async () => {
		let release: () => void = () => undefined;
		const released = new Promise< void >( ( resolve ) => ( release = resolve ) );
		let holding = true;
		receiver.setHandler( async ( request, res ) => {
			if ( request.headers[ 'webhook-id' ] === 'held_1' && holding ) {
				holding = false; // the first attempt only
				await released;
				res.writeHead( 503 ).end( 'busy' );
				return;
			}
			res.writeHead( 200 ).end( 'ok' );
		} );
		try {
			const held = orderEvent( 'held_1', 'order.paid', 4 );
			expect( ( await a.api( 'POST', '/v1/events', { events: [ held ] } ) ).status ).toBe( 202 );
			await receiver.waitFor( ( requests ) => requests.some( ( r ) => r.headers[ 'webhook-id' ] === 'held_1' ) );
			expect(
				( await b.api( 'POST', `/v1/endpoints/${ endpointId }/disable`, { reason: 'maintenance' } ) ).status
			).toBe( 200 );
			release();
			await waitUntil(
				async () => ( await b.api( 'GET', '/v1/events/held_1' ) ).body.deliveries[ 0 ]?.status === 'cancelled',
				10_000,
				() => 'the retry of the attempt A had in flight was not parked with the disabled endpoint’s queue'
			);
			const parked = ( await b.api( 'GET', '/v1/events/held_1' ) ).body.deliveries[ 0 ];
			expect( parked ).toMatchObject( {
				attempt_count: 1,
				next_attempt_at: null,
				last_error: 'endpoint disabled: maintenance',
			} );
			expect( parked.attempts.map( ( attempt: { status_code: number } ) => attempt.status_code ) ).toEqual( [
				503,
			] );

			const enabled = await b.api( 'POST', `/v1/endpoints/${ endpointId }/enable`, { redeliver: true } );
			expect( enabled.body ).toMatchObject( { status: 'active', redelivered: true, requeued: 1 } );
			await waitUntil(
				async () => ( await a.api( 'GET', '/v1/events/held_1' ) ).body.deliveries[ 0 ]?.status === 'succeeded',
				10_000,
				() => 'the parked delivery was not sent again after the endpoint was enabled'
			);
		} finally {
			release();
			receiver.setHandler( ( _request, res ) => void res.writeHead( 200 ).end( 'ok' ) );
		}
	} );

	it( 'deletes through B what A then no longer has, with one endpoint.deleted notice queued in its place', async () => {
		expect( ( await b.api( 'DELETE', `/v1/endpoints/${ endpointId }` ) ).body ).toEqual( {
			deleted: true,
			id: endpointId,
		} );
		expect( ( await a.api( 'GET', `/v1/endpoints/${ endpointId }` ) ).status ).toBe( 404 );
		expect( ( await a.api( 'DELETE', `/v1/endpoints/${ endpointId }` ) ).status ).toBe( 404 );
		const connection = await mysql.createConnection( database.url );
		try {
			const [ rows ] = await connection.query< mysql.RowDataPacket[] >(
				'SELECT payload FROM notices WHERE acknowledged_at IS NULL ORDER BY id'
			);
			// The endpoint.enabled notice of the previous test was dropped with the endpoint.
			expect( rows.map( ( row ) => JSON.parse( String( row.payload ) ) ) ).toEqual( [
				{ type: 'endpoint.deleted', endpoint_id: endpointId },
			] );
		} finally {
			await connection.end();
		}
	} );
} );

import type { ApiCall } from './support/api-client';
import { orderEvent } from './support/api-client';
import { startDeliveringInstance, type DeliveringInstance } from './support/delivering-instance';
import { startHarness } from './support/harness';
import { startReceiver, type Receiver } from './support/receiver';
import { STORE_KINDS, useBackend, type StoreKind } from './support/stores-under-test';
import { waitUntil } from '../support/wait-until';

interface Sidecars {
	/** Each instance's API: one on SQLite, two on one MariaDB (both delivering). */
	apis: ApiCall[];
	close: () => Promise< void >;
}

/** The re-send on recovery through the real dispatcher(s), a real receiver, and the HTTP API. */
describe.each( STORE_KINDS )( 'the re-send on recovery, delivered, on %s', ( kind: StoreKind ) => {
	const backend = useBackend( kind, { reset: false } );
	let sidecars: Sidecars;
	let receiver: Receiver;
	let answer = 500;

	beforeAll( async () => {
		// The test settings' schedule: three attempts in 150 ms, then the delivery has failed for good.
		receiver = await startReceiver( ( _request, res ) => void res.writeHead( answer ).end() );
		if ( kind === 'sqlite' ) {
			const harness = await startHarness();
			sidecars = { apis: [ harness.api ], close: () => harness.close() };
			return;
		}
		const instances: DeliveringInstance[] = [];
		for ( const name of [ 'instance-a', 'instance-b' ] ) {
			const instance = await startDeliveringInstance( backend.url!, name, 100 );
			instance.dispatcher.start();
			instances.push( instance );
		}
		sidecars = {
			apis: instances.map( ( instance ) => instance.api ),
			close: async () => {
				await Promise.all( instances.map( ( instance ) => instance.close() ) );
			},
		};
	} );

	afterAll( async () => {
		await sidecars?.close();
		await receiver?.close();
	} );

	const api = ( index: number ) => sidecars.apis[ index % sidecars.apis.length ]!;
	const deliveriesOf = async ( endpointId: string ) =>
		( await api( 0 )( 'GET', `/v1/deliveries?endpoint_id=${ endpointId }&per_page=100` ) ).body as {
			deliveries: { event_id: string; status: string; resent_on_recovery_at: string | null }[];
		};
	const idsFrom = ( from: number ) =>
		receiver.requests.slice( from ).map( ( request ) => request.headers[ 'webhook-id' ] );

	it( 'sends again, once and in order, what ran out of attempts while the endpoint failed; not with the setting off', async () => {
		const on = ( await api( 0 )( 'POST', '/v1/endpoints', { url: receiver.url + '/on', max_concurrency: 1 } ) )
			.body;
		const off = (
			await api( 1 )( 'POST', '/v1/endpoints', {
				url: receiver.url + '/off',
				max_concurrency: 1,
				resend_failed_on_recovery: false,
			} )
		).body;
		expect( [ on.resend_failed_on_recovery, off.resend_failed_on_recovery ] ).toEqual( [ true, false ] );

		// The receiver is down: order 1's two events run out of attempts, on both endpoints.
		answer = 500;
		await api( 0 )( 'POST', '/v1/events', {
			events: [ orderEvent( 'rr_1', 'order.created', 1 ), orderEvent( 'rr_2', 'order.paid', 1 ) ],
		} );
		for ( const endpoint of [ on, off ] ) {
			await waitUntil(
				async () =>
					( await deliveriesOf( endpoint.id ) ).deliveries.filter( ( d ) => d.status === 'failed' ).length ===
					2,
				20_000,
				'both deliveries failed for good'
			);
		}

		// Back: order 2's event succeeds on each endpoint, which ends its failure streak.
		answer = 200;
		const before = receiver.requests.length;
		await api( 1 )( 'POST', '/v1/events', { events: [ orderEvent( 'rr_3', 'order.created', 2 ) ] } );
		await waitUntil(
			async () =>
				( await deliveriesOf( on.id ) ).deliveries.every( ( d ) => d.status === 'succeeded' ) &&
				( await deliveriesOf( off.id ) ).deliveries.some( ( d ) => d.status === 'succeeded' ),
			20_000,
			'the recovery and the re-sent deliveries'
		);
		// Order 1's next event comes after the recovery and goes after the re-sent ones.
		await api( 0 )( 'POST', '/v1/events', { events: [ orderEvent( 'rr_4', 'order.refunded', 1 ) ] } );
		await receiver.waitFor(
			( requests ) =>
				requests.filter( ( r ) => r.path === '/on' && r.headers[ 'webhook-id' ] === 'rr_4' ).length === 1
		);
		await receiver.waitFor(
			( requests ) =>
				requests.filter( ( r ) => r.path === '/off' && r.headers[ 'webhook-id' ] === 'rr_4' ).length === 1
		);

		const sent = ( path: string ) =>
			receiver.requests
				.slice( before )
				.filter( ( request ) => request.path === path )
				.map( ( request ) => request.headers[ 'webhook-id' ] );
		expect( sent( '/on' ) ).toEqual( [ 'rr_3', 'rr_1', 'rr_2', 'rr_4' ] );
		expect( sent( '/off' ) ).toEqual( [ 'rr_3', 'rr_4' ] );
		const resent = ( await deliveriesOf( on.id ) ).deliveries.filter( ( d ) => d.resent_on_recovery_at !== null );
		expect( resent.map( ( d ) => d.event_id ).sort() ).toEqual( [ 'rr_1', 'rr_2' ] );
		expect( ( await deliveriesOf( off.id ) ).deliveries.filter( ( d ) => d.status === 'failed' ) ).toHaveLength(
			2
		);
		expect( idsFrom( before ) ).toHaveLength( 6 );
	} );
} );

import { Webhook } from 'standardwebhooks';
import { orderEvent } from './support/api-client';
import { deliverySidecars, type DeliverySidecar, type DeliverySidecars } from './support/delivery-sidecar';
import { startReceiver, startWordPress, type Receiver } from './support/receiver';
import { waitUntil } from '../support/wait-until';

/**
 * POST /v1/endpoints/:id/test on the real sidecar (app + dispatcher + store, in-process) against
 * real receivers on 127.0.0.1, on the embedded and the shared store: the test event is signed as
 * any event is (the standardwebhooks library verifies it), goes to the endpoint asked for only,
 * shows in its delivery log, and never reaches another endpoint later (redelivery, range replay).
 */
describe.each( [ 'embedded', 'shared' ] as const )( 'a test event to one endpoint (%s store)', ( store ) => {
	let sidecars: DeliverySidecars;
	let sidecar: DeliverySidecar;
	let wordpress: Receiver;
	let tested: Receiver;
	let other: Receiver;

	beforeAll( async () => {
		wordpress = await startWordPress( ( _req, res ) => void res.writeHead( 202 ).end( '{"received":true}' ) );
		sidecars = await deliverySidecars( store );
		sidecar = await sidecars.start( { SIDECAR_WORDPRESS_URL: wordpress.url } );
	} );

	afterAll( async () => {
		await sidecar?.close();
		await sidecars?.stop();
		await wordpress?.close();
	} );

	beforeEach( async () => {
		tested = await startReceiver();
		other = await startReceiver();
	} );

	afterEach( async () => {
		for ( const endpoint of ( await sidecar.api( 'GET', '/v1/endpoints' ) ).body.endpoints as { id: string }[] ) {
			await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
		}
		await tested.close();
		await other.close();
	} );

	async function createEndpoint( receiver: Receiver ): Promise< { id: string; secret: string } > {
		// No event_types: subscribed to every type, the endpoint a test event must still skip.
		const response = await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/hook' } );
		expect( response.status ).toBe( 201 );
		return response.body;
	}

	const deliveriesOf = async ( endpointId: string ) =>
		( await sidecar.api( 'GET', `/v1/deliveries?endpoint_id=${ endpointId }` ) ).body as {
			total: number;
			deliveries: { event_id: string; event_type: string; status: string }[];
		};

	it( 'sends a signed service_integration.test event to that endpoint only, shown in its delivery log', async () => {
		const endpoint = await createEndpoint( tested );
		const bystander = await createEndpoint( other );

		const answer = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/test` );
		expect( answer.status ).toBe( 202 );
		expect( answer.body ).toEqual( {
			event_id: expect.stringMatching( /^evt_test_[0-9a-f]{24}$/ ),
			endpoint_id: endpoint.id,
			type: 'service_integration.test',
		} );

		await tested.waitFor( ( requests ) => requests.length === 1 );
		const [ request ] = tested.requests;
		expect( request!.headers[ 'webhook-id' ] ).toBe( answer.body.event_id );
		const verified = new Webhook( endpoint.secret ).verify( request!.body, request!.headers ) as {
			type: string;
			data: Record< string, unknown >;
		};
		expect( verified ).toMatchObject( {
			type: 'service_integration.test',
			data: { endpoint_id: endpoint.id },
		} );

		await waitUntil( async () => ( await deliveriesOf( endpoint.id ) ).deliveries[ 0 ]?.status === 'succeeded' );
		expect( ( await deliveriesOf( endpoint.id ) ).deliveries ).toEqual( [
			expect.objectContaining( {
				event_id: answer.body.event_id,
				event_type: 'service_integration.test',
				status: 'succeeded',
			} ),
		] );
		// The other endpoint never had a delivery of it: the fan-out skipped it in the same transaction.
		expect( ( await deliveriesOf( bystander.id ) ).total ).toBe( 0 );
		expect( other.requests ).toEqual( [] );

		// Each test is a new event.
		const again = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/test`, {} );
		expect( again.status ).toBe( 202 );
		expect( again.body.event_id ).not.toBe( answer.body.event_id );
		await tested.waitFor( ( requests ) => requests.length === 2 );
	} );

	it( 'reaches no other endpoint later: neither its redelivery on enable nor a range replay', async () => {
		const endpoint = await createEndpoint( tested );
		const bystander = await createEndpoint( other );
		const since = new Date( Date.now() - 1000 ).toISOString();
		expect( ( await sidecar.api( 'POST', `/v1/endpoints/${ bystander.id }/disable` ) ).status ).toBe( 200 );

		const test = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/test` );
		expect( test.status ).toBe( 202 );
		// An order event while the bystander is disabled: the one thing its redelivery must bring.
		const order = orderEvent( `evt_order_${ Date.now().toString( 36 ) }`, 'order.paid', 7 );
		expect( ( await sidecar.api( 'POST', '/v1/events', { events: [ order ] } ) ).status ).toBe( 202 );
		await tested.waitFor( ( requests ) => requests.length === 2 );

		const enabled = await sidecar.api( 'POST', `/v1/endpoints/${ bystander.id }/enable`, { redeliver: true } );
		expect( enabled.status ).toBe( 200 );
		expect( enabled.body.requeued ).toBe( 1 );
		await other.waitFor( ( requests ) => requests.length === 1 );
		expect( other.requests[ 0 ]!.headers[ 'webhook-id' ] ).toBe( order.id );

		const replay = await sidecar.api( 'POST', `/v1/endpoints/${ bystander.id }/replay`, {
			from: since,
			to: new Date( Date.now() + 1000 ).toISOString(),
			dry_run: true,
		} );
		expect( replay.status ).toBe( 200 );
		expect( replay.body.matched ).toBe( 1 );
		expect( ( await deliveriesOf( bystander.id ) ).deliveries.map( ( d ) => d.event_type ) ).toEqual( [
			'order.paid',
		] );
	} );

	it( 'refuses a disabled endpoint (409 endpoint_disabled) and an unknown one (404 endpoint_not_found)', async () => {
		const endpoint = await createEndpoint( tested );
		expect( ( await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/disable` ) ).status ).toBe( 200 );

		const disabled = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/test` );
		expect( disabled.status ).toBe( 409 );
		expect( disabled.body.code ).toBe( 'endpoint_disabled' );
		expect( ( await deliveriesOf( endpoint.id ) ).total ).toBe( 0 );

		const unknown = await sidecar.api( 'POST', '/v1/endpoints/ep_nobody/test' );
		expect( unknown.status ).toBe( 404 );
		expect( unknown.body.code ).toBe( 'endpoint_not_found' );

		const extra = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/test`, { type: 'order.paid' } );
		expect( extra.status ).toBe( 400 );
		expect( extra.body.code ).toBe( 'invalid_body' );
	} );
} );

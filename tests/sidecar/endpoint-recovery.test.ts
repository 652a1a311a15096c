import { orderEvent } from './support/api-client';
import { startHarness, type Harness } from './support/harness';
import { startReceiver, type Receiver } from './support/receiver';
import { waitUntil } from '../support/wait-until';

/**
 * Re-enabling an endpoint: after an automatic disable, everything it missed goes out
 * again, in order; after the owner's own disable, only when the owner asks.
 */
describe( 'enabling a disabled endpoint', () => {
	let sidecar: Harness;
	let receiver: Receiver;
	let answer = 200;

	beforeAll( async () => {
		receiver = await startReceiver( ( _req, res ) => void res.writeHead( answer ).end() );
		// One attempt per delivery: a failure is final at once, like a delivery whose retries ran out.
		sidecar = await startHarness( { SIDECAR_RETRY_SCHEDULE: '0' } );
	} );

	afterAll( async () => {
		await sidecar.close();
		await receiver.close();
	} );

	const ids = () => receiver.requests.map( ( r ) => r.headers[ 'webhook-id' ] );
	const deliveriesOf = async ( endpointId: string ) =>
		( await sidecar.api( 'GET', `/v1/deliveries?endpoint_id=${ endpointId }&per_page=100` ) ).body as {
			total: number;
			deliveries: { event_id: string; status: string }[];
		};

	it( 'after an automatic disable, redelivers what failed during the failure streak and the events that arrived while disabled, in order', async () => {
		const endpoint = (
			await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/auto', max_concurrency: 1 } )
		).body;

		// The streak starts: a delivery fails for good, long before anything disables the endpoint.
		answer = 500;
		await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'auto_1', 'order.created', 1 ) ] } );
		await waitUntil( async () =>
			( await deliveriesOf( endpoint.id ) ).deliveries.some( ( d ) => d.status === 'failed' )
		);

		// Then a 410 disables it.
		answer = 410;
		await sidecar.api( 'POST', '/v1/events', { events: [ orderEvent( 'auto_2', 'order.paid', 1 ) ] } );
		await waitUntil(
			async () => ( await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body.status === 'disabled'
		);
		expect( ( await sidecar.api( 'GET', `/v1/endpoints/${ endpoint.id }` ) ).body ).toMatchObject( {
			disabled_by: 'auto',
		} );

		// Events arriving while it is disabled get no delivery yet.
		await sidecar.api( 'POST', '/v1/events', {
			events: [ orderEvent( 'auto_3', 'order.refunded', 1 ), orderEvent( 'auto_4', 'order.created', 2 ) ],
		} );
		expect( ( await deliveriesOf( endpoint.id ) ).total ).toBe( 2 );

		answer = 200;
		const before = receiver.requests.length;
		const enabled = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/enable` );
		expect( enabled.body ).toMatchObject( {
			status: 'active',
			disabled_by: null,
			redelivered: true,
			requeued: 4,
			skipped: 0,
		} );
		await receiver.waitFor( ( r ) => r.length === before + 4 );
		expect( ids().slice( before ) ).toEqual( [ 'auto_1', 'auto_2', 'auto_3', 'auto_4' ] );
		await waitUntil( async () =>
			( await deliveriesOf( endpoint.id ) ).deliveries.every( ( d ) => d.status === 'succeeded' )
		);
		expect( ( await deliveriesOf( endpoint.id ) ).total ).toBe( 4 );
		await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
	} );

	it( 'after the owner disabled it, enabling sends nothing it missed unless asked, and says how much was left out', async () => {
		answer = 200;
		const endpoint = (
			await sidecar.api( 'POST', '/v1/endpoints', {
				url: receiver.url + '/owner',
				event_types: [ 'order.paid' ],
			} )
		).body;
		const disabled = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/disable` );
		expect( disabled.body ).toMatchObject( { status: 'disabled', disabled_by: 'owner' } );
		await sidecar.api( 'POST', '/v1/events', {
			events: [
				orderEvent( 'owner_1', 'order.paid', 3 ),
				orderEvent( 'owner_skip', 'order.created', 3 ),
				orderEvent( 'owner_2', 'order.paid', 4 ),
			],
		} );

		const plain = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/enable` );
		expect( plain.body ).toMatchObject( { status: 'active', redelivered: false, requeued: 0, skipped: 2 } );
		expect( ( await deliveriesOf( endpoint.id ) ).total ).toBe( 0 );

		// Asked for: the two order.paid events it missed (not the type it does not subscribe to).
		await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/disable` );
		await sidecar.api( 'POST', '/v1/events', {
			events: [ orderEvent( 'owner_3', 'order.paid', 5 ), orderEvent( 'owner_4', 'order.paid', 6 ) ],
		} );
		const before = receiver.requests.length;
		const asked = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/enable`, { redeliver: true } );
		expect( asked.body ).toMatchObject( { status: 'active', redelivered: true, requeued: 2, skipped: 0 } );
		await receiver.waitFor( ( r ) => r.length === before + 2 );
		expect( ids().slice( before ).sort() ).toEqual( [ 'owner_3', 'owner_4' ] );
		await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
	} );

	it( 'refuses a redeliver flag that is not a boolean', async () => {
		const endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/flag' } ) ).body;
		const response = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/enable`, { redeliver: 'yes' } );
		expect( [ response.status, response.body.code ] ).toEqual( [ 400, 'invalid_body' ] );
		await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
	} );
} );

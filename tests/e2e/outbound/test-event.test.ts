import { Webhook } from 'standardwebhooks';
import { startReceiver, type Receiver } from '../../sidecar/support/receiver';
import { adminClient } from '../support/clients';
import { createEndpoint, deleteEndpoint, type Endpoint } from '../support/webhooks';
import { wp } from '../cli/run-wp';
import { waitUntil } from '../../support/wait-until';

const ROUTE = '/service-integration/v1/webhooks';

interface Delivery {
	event_id: string;
	event_type: string;
	status: string;
}

/**
 * "Send a test event" through WordPress, as the admin page and WP-CLI do it: the proxy route
 * POST webhooks/endpoints/<id>/test and `wp service-integration endpoint test <id>`. The real
 * sidecar signs and sends it; a real receiver on 127.0.0.1 verifies it with the Standard
 * Webhooks reference library; the delivery log shows it; another endpoint gets nothing.
 */
describe( 'a test event to one endpoint (REST and WP-CLI)', () => {
	let receiver: Receiver;
	let bystanderReceiver: Receiver;
	let endpoint: Endpoint;
	let bystander: Endpoint;

	beforeAll( async () => {
		receiver = await startReceiver();
		bystanderReceiver = await startReceiver();
		endpoint = await createEndpoint( `${ receiver.url }/test-event` );
		bystander = await createEndpoint( `${ bystanderReceiver.url }/bystander` );
	} );

	afterAll( async () => {
		await deleteEndpoint( endpoint.id );
		await deleteEndpoint( bystander.id );
		await receiver?.close();
		await bystanderReceiver?.close();
	} );

	async function deliveriesOf( id: string ): Promise< Delivery[] > {
		const page = await adminClient().get< { deliveries: Delivery[] } >(
			`${ ROUTE }/deliveries?endpoint_id=${ encodeURIComponent( id ) }`
		);
		expect( page.status ).toBe( 200 );
		return page.body.deliveries;
	}

	async function receivedAndVerified( eventId: string ): Promise< void > {
		await receiver.waitFor( ( requests ) => requests.some( ( r ) => r.headers[ 'webhook-id' ] === eventId ) );
		const request = receiver.requests.find( ( r ) => r.headers[ 'webhook-id' ] === eventId )!;
		expect( new Webhook( endpoint.secret ).verify( request.body, request.headers ) ).toMatchObject( {
			type: 'service_integration.test',
			data: { endpoint_id: endpoint.id },
		} );
		await waitUntil(
			async () =>
				( await deliveriesOf( endpoint.id ) ).some(
					( d ) => d.event_id === eventId && d.status === 'succeeded'
				),
			60_000,
			'the test delivery recorded as succeeded'
		);
	}

	it( 'sends a signed test event through the REST route, shown in the delivery log', async () => {
		const sent = await adminClient().post< { event_id: string; endpoint_id: string; type: string } >(
			`${ ROUTE }/endpoints/${ encodeURIComponent( endpoint.id ) }/test`
		);
		expect( sent.status ).toBe( 202 );
		expect( sent.body ).toEqual( {
			event_id: expect.stringMatching( /^evt_test_/ ),
			endpoint_id: endpoint.id,
			type: 'service_integration.test',
		} );
		await receivedAndVerified( sent.body.event_id );
		expect(
			( await deliveriesOf( endpoint.id ) ).find( ( d ) => d.event_id === sent.body.event_id )
		).toMatchObject( { event_type: 'service_integration.test' } );
		expect( await deliveriesOf( bystander.id ) ).toEqual( [] );
		expect( bystanderReceiver.requests ).toEqual( [] );
	} );

	it( 'sends one with wp service-integration endpoint test', async () => {
		const porcelain = await wp( 'service-integration', 'endpoint', 'test', endpoint.id, '--porcelain' );
		expect( porcelain.stderr ).toBe( '' );
		expect( porcelain.status ).toBe( 0 );
		const eventId = porcelain.stdout.trim();
		expect( eventId ).toMatch( /^evt_test_[0-9a-f]+$/ );
		await receivedAndVerified( eventId );

		const told = await wp( 'service-integration', 'endpoint', 'test', endpoint.id );
		expect( told.status ).toBe( 0 );
		expect( told.stdout ).toMatch(
			new RegExp( `^Success: Test event evt_test_\\w+ queued for endpoint ${ endpoint.id }\\.` )
		);
		expect( await deliveriesOf( bystander.id ) ).toEqual( [] );
	} );

	it( 'refuses a disabled endpoint with a message that says what to do', async () => {
		expect(
			( await adminClient().post( `${ ROUTE }/endpoints/${ encodeURIComponent( bystander.id ) }/disable` ) )
				.status
		).toBe( 200 );
		const refused = await adminClient().post< { code: string; message: string } >(
			`${ ROUTE }/endpoints/${ encodeURIComponent( bystander.id ) }/test`
		);
		expect( refused.status ).toBe( 409 );
		expect( refused.body.code ).toBe( 'endpoint_disabled' );
		expect( refused.body.message ).toBe( 'This endpoint is disabled: enable it first.' );

		const cli = await wp( 'service-integration', 'endpoint', 'test', bystander.id );
		expect( cli.status ).toBe( 1 );
		expect( cli.stderr ).toContain( 'endpoint_disabled, HTTP 409' );
	} );
} );

import { startReceiver, type Receiver, type ReceivedRequest } from '../../sidecar/support/receiver';
import { adminClient } from '../support/clients';
import { commerce, type CommerceOrder } from '../support/commerce';
import { readState } from '../support/environment';
import { expectRefused } from '../support/expectations';
import { provisionServiceAccount } from '../support/service-account';
import { startSidecar, stopSidecar } from '../support/sidecar-control';
import { createEndpoint, verified, type Delivered, type Endpoint } from '../support/webhooks';
import { loginCookies } from '../../../scripts/lib/wp-login';
import { waitUntil } from '../../support/wait-until';

type StoreOrder = CommerceOrder & {
	currency: string;
	total: string;
	date_paid_gmt: string | null;
	line_items: Array< { product_id: number; sku: string; name: string; quantity: number } >;
};

/** WooCommerce's *_gmt dates carry no zone: the payload's are the same instant in ISO 8601 UTC. */
function isoSeconds( gmt: string | null ): string | null {
	return gmt ? `${ gmt.replace( /\.\d+$/, '' ) }Z` : null;
}

/** The event's order against the store's own REST view of it (/wc/v3/orders/<id>) at the same moment. */
function expectSameOrder( event: Delivered, store: CommerceOrder ): void {
	const order = store as StoreOrder;
	expect( event.data.order.id ).toBe( order.id );
	expect( event.data.order.currency ).toBe( order.currency );
	expect( event.data.order.total ).toBe( order.total );
	expect( event.data.order.status ).toBe( order.status );
	expect( event.data.order.date_paid ).toBe( isoSeconds( order.date_paid_gmt ) );
	expect( event.data.order.line_items ).toEqual(
		order.line_items.map( ( item ) => ( {
			product_id: item.product_id,
			variation_id: 0,
			sku: item.sku,
			name: item.name,
			quantity: item.quantity,
		} ) )
	);
}

async function newOrder(): Promise< number > {
	const shop = commerce();
	const [ product ] = await shop.createProducts( [
		{ name: 'Oak chair', sku: `CHAIR-${ Date.now() }`, price: '120.00' },
	] );
	const [ id ] = await shop.createOrders( [
		{ status: 'pending', line_items: [ { product_id: ( product as { id: number } ).id, quantity: 2 } ] },
	] );
	return id as number;
}

describe( 'outbound order webhooks, end to end', () => {
	let receiver: Receiver;
	let endpoint: Endpoint;

	beforeAll( async () => {
		receiver = await startReceiver();
		endpoint = await createEndpoint( `${ receiver.url }/hooks` );
	} );

	afterAll( async () => {
		await adminClient().request( {
			method: 'DELETE',
			path: `/service-integration/v1/webhooks/endpoints/${ endpoint.id }`,
		} );
		await receiver.close();
	} );

	it( 'delivers created, paid and refunded (partial then full), signed, in order, each matching what the store said at that moment', async () => {
		const shop = commerce();
		const orderId = await newOrder();
		// What the store says once each step's request is done: the automation acts on these amounts.
		const afterCreate = await shop.getOrder( orderId );
		await shop.pay( [ orderId ] );
		const afterPay = await shop.getOrder( orderId );
		await shop.refund( orderId, '40.00' );
		const afterPartial = await shop.getOrder( orderId );
		await shop.refund( orderId, '200.00' );
		const afterFull = await shop.getOrder( orderId );

		await receiver.waitFor(
			( requests ) => requests.filter( ( r ) => r.body.includes( `"id":${ orderId },` ) ).length >= 4,
			30_000
		);
		const events = verified( receiver, endpoint.secret, [ orderId ] ).filter(
			( event ) => event.data.order.id === orderId
		);

		expect( events.map( ( event ) => event.type ) ).toEqual( [
			'order.created',
			'order.paid',
			'order.refunded',
			'order.refunded',
		] );
		expect( new Set( events.map( ( event ) => event.id ) ).size ).toBe( 4 );
		const [ created, paid, partial, full ] = events as [ Delivered, Delivered, Delivered, Delivered ];

		expectSameOrder( created, afterCreate );
		// The created event keeps the order as it was created: unpaid.
		expect( created.data.order ).toMatchObject( { status: 'pending', date_paid: null } );
		expect( created.data.order.total ).toBe( '240.00' );

		expectSameOrder( paid, afterPay );
		expect( paid.data.order.status ).toBe( 'processing' );
		expect( paid.data.order.date_paid ).toBe( isoSeconds( ( afterPay as StoreOrder ).date_paid_gmt ) );

		expectSameOrder( partial, afterPartial );
		expect( partial.data.refund?.full ).toBe( false );
		expect( partial.data.refund?.amount ).toBe( '40.00' );
		expect( partial.data.refund?.amount ).toBe(
			( await shop.getRefund( orderId, partial.data.refund?.id as number ) ).amount
		);

		expectSameOrder( full, afterFull );
		expect( full.data.order.status ).toBe( 'refunded' );
		expect( full.data.refund?.full ).toBe( true );
		expect( full.data.refund?.amount ).toBe( '200.00' );
		expect( full.data.refund?.amount ).toBe(
			( await shop.getRefund( orderId, full.data.refund?.id as number ) ).amount
		);
	} );

	it( 'retries a failing receiver with the same event id, and logs every attempt', async () => {
		// Its own receiver and endpoint: the failing handler must not answer any other test's deliveries.
		let calls = 0;
		const failing = await startReceiver( ( _request, res ) => {
			calls++;
			void res.writeHead( calls <= 2 ? 500 : 200 ).end( calls <= 2 ? 'down for maintenance' : 'ok' );
		} );
		const failingEndpoint = await createEndpoint( `${ failing.url }/retries`, [ 'order.created' ] );
		try {
			const orderId = await newOrder();
			const ofThisOrder = ( requests: ReceivedRequest[] ) =>
				requests.filter( ( r ) => r.body.includes( `"id":${ orderId },` ) );
			await failing.waitFor( ( requests ) => ofThisOrder( requests ).length >= 3, 30_000 );

			const attempts = ofThisOrder( failing.requests );
			expect( new Set( attempts.map( ( r ) => r.headers[ 'webhook-id' ] ) ).size ).toBe( 1 );
			expect( attempts.length ).toBeGreaterThanOrEqual( 3 );

			const eventId = attempts[ 0 ]?.headers[ 'webhook-id' ] as string;
			const log = await adminClient().get< {
				deliveries: Array< {
					endpoint_id: string;
					status: string;
					attempts: Array< { status_code: number; response_excerpt: string } >;
				} >;
			} >( `/service-integration/v1/webhooks/events/${ eventId }` );
			expect( log.status ).toBe( 200 );
			const delivery = log.body.deliveries.find( ( item ) => item.endpoint_id === failingEndpoint.id );
			expect( delivery?.status ).toBe( 'succeeded' );
			expect( delivery?.attempts.map( ( attempt ) => attempt.status_code ) ).toEqual( [ 500, 500, 200 ] );
			expect( delivery?.attempts[ 0 ]?.response_excerpt ).toContain( 'down for maintenance' );
		} finally {
			await adminClient().request( {
				method: 'DELETE',
				path: `/service-integration/v1/webhooks/endpoints/${ failingEndpoint.id }`,
			} );
			await failing.close();
		}
	} );

	it( 'replays an event on demand with the same id', async () => {
		const orderId = await newOrder();
		const ofThisOrder = ( requests: ReceivedRequest[] ) =>
			requests.filter( ( r ) => r.body.includes( `"id":${ orderId },` ) );
		await receiver.waitFor( ( requests ) => ofThisOrder( requests ).length >= 1, 30_000 );
		const eventId = ofThisOrder( receiver.requests )[ 0 ]?.headers[ 'webhook-id' ] as string;
		expect( eventId ).toMatch( /^evt_/ );
		const replay = await adminClient().post< { requeued: number } >(
			`/service-integration/v1/webhooks/events/${ eventId }/replay`
		);
		expect( replay.status ).toBe( 200 );
		await receiver.waitFor( ( requests ) => ofThisOrder( requests ).length >= 2, 20_000 );
		expect( ofThisOrder( receiver.requests ).map( ( r ) => r.headers[ 'webhook-id' ] ) ).toEqual( [
			eventId,
			eventId,
		] );
	} );

	it( 'keeps events in the outbox while the sidecar is down and hands them over in order afterwards', async () => {
		await stopSidecar();
		const orders: number[] = [];
		try {
			orders.push( await newOrder(), await newOrder(), await newOrder() );
			const outbox = await adminClient().get< { pending: number } >( '/service-integration/v1/webhooks/outbox' );
			expect( outbox.body.pending ).toBeGreaterThanOrEqual( 3 );
		} finally {
			await startSidecar();
		}
		const flushed = await adminClient().post< { pending: number; error: string | null } >(
			'/service-integration/v1/webhooks/outbox'
		);
		expect( flushed.body ).toMatchObject( { error: null, pending: 0 } );
		await receiver.waitFor(
			( requests ) => orders.every( ( id ) => requests.some( ( r ) => r.body.includes( `"id":${ id },` ) ) ),
			30_000
		);
		const created = verified( receiver, endpoint.secret, orders ).filter(
			( event ) => orders.includes( event.data.order.id ) && event.type === 'order.created'
		);
		expect( created.map( ( event ) => event.data.order.id ) ).toEqual( orders );
	} );

	it( 'disables an endpoint that answers 410 Gone and tells the site owner, until the endpoint is deleted', async () => {
		const gone = await startReceiver( ( _request, res ) => void res.writeHead( 410 ).end( 'gone' ) );
		const goneEndpoint = await createEndpoint( `${ gone.url }/gone`, [ 'order.created' ] );
		try {
			await newOrder();
			await gone.waitFor( ( requests ) => requests.length >= 1, 20_000 );
			const endpointStatus = async () =>
				(
					await adminClient().get< Endpoint >(
						`/service-integration/v1/webhooks/endpoints/${ goneEndpoint.id }`
					)
				).body.status;
			await waitUntil(
				async () => ( await endpointStatus() ) === 'disabled',
				10_000,
				'the endpoint disabled',
				500
			);
			const { siteUrl } = readState();
			const cookie = await loginCookies( siteUrl, 'admin', 'password' );
			const dashboard = async () => ( await fetch( `${ siteUrl }/wp-admin/`, { headers: { cookie } } ) ).text();
			// The notice is sent after the disable commits (and again until WordPress acknowledges it).
			await waitUntil(
				async () => ( await dashboard() ).includes( `${ gone.url }/gone` ),
				60_000,
				'the notice on the dashboard',
				1500
			);

			// Deleting the endpoint also retires its notice: the sidecar tells WordPress with an
			// endpoint.deleted notice, sent after the delete commits, so it can land after the answer.
			const deleted = await adminClient().request( {
				method: 'DELETE',
				path: `/service-integration/v1/webhooks/endpoints/${ goneEndpoint.id }`,
			} );
			expect( deleted.status ).toBe( 200 );
			await waitUntil(
				async () => ! ( await dashboard() ).includes( `${ gone.url }/gone` ),
				30_000,
				'the notice gone from the dashboard',
				1000
			);
		} finally {
			await adminClient().request( {
				method: 'DELETE',
				path: `/service-integration/v1/webhooks/endpoints/${ goneEndpoint.id }`,
			} );
			await gone.close();
		}
	} );

	it( 'refuses an endpoint on an internal address unless allow-listed, and bad input clearly', async () => {
		const metadata = await adminClient().post< { code: string } >( '/service-integration/v1/webhooks/endpoints', {
			url: 'http://169.254.169.254/latest/meta-data',
		} );
		expect( metadata.status ).toBe( 400 );
		expect( metadata.body.code ).toBe( 'blocked_address' );
		const unknownType = await adminClient().post< { code: string } >(
			'/service-integration/v1/webhooks/endpoints',
			{ url: `${ receiver.url }/x`, event_types: [ 'order.exploded' ] }
		);
		expect( unknownType.status ).toBe( 400 );
		const missing = await adminClient().get< { code: string } >(
			'/service-integration/v1/webhooks/endpoints/ep_does_not_exist'
		);
		expect( missing.status ).toBe( 404 );
	} );

	it( "answers with slashes unescaped, so a secret or URL copied by eye from curl's output is the real one", async () => {
		const url = `${ receiver.url }/copied/by/eye`;
		const created = await adminClient().post< Endpoint >( '/service-integration/v1/webhooks/endpoints', { url } );
		expect( created.status ).toBe( 201 );
		try {
			expect( created.text ).toContain( `"url":"${ url }"` );
			expect( created.text ).toContain( `"secret":"${ created.body.secret }"` );
			expect( created.text ).not.toContain( '\\/' );
			// Only the plugin's routes: WordPress's own keep its default encoding.
			const core = await adminClient().get( '/wp/v2/users/me' );
			expect( core.text ).toContain( ':\\/\\/' );
		} finally {
			await adminClient().request( {
				method: 'DELETE',
				path: `/service-integration/v1/webhooks/endpoints/${ created.body.id }`,
			} );
		}
	} );

	it( 'is for administrators only, and never shows a secret again', async () => {
		const account = await provisionServiceAccount( 'outbound-refused' );
		expectRefused(
			await account.client.get( '/service-integration/v1/webhooks/endpoints' ),
			'rest_forbidden',
			[ 403 ]
		);
		const listed = await adminClient().get( '/service-integration/v1/webhooks/endpoints' );
		expect( JSON.stringify( listed.body ) ).not.toContain( endpoint.secret );
	} );
} );

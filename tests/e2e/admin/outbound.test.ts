import { Webhook } from 'standardwebhooks';
import { startReceiver, type Receiver } from '../../sidecar/support/receiver';
import {
	app,
	openSession,
	openTab,
	refreshUntil,
	requireRoute,
	SETUP_TIMEOUT,
	shot,
	waitForLoaded,
	type AdminSession,
} from '../support/admin-page';
import { adminClient } from '../support/clients';
import { commerce } from '../support/commerce';

interface Endpoint {
	id: string;
	url: string;
	status: string;
}

const ROUTE = '/service-integration/v1/webhooks/endpoints';

async function paidOrder(): Promise< number > {
	const shop = commerce();
	const [ product ] = await shop.createProducts( [
		{ name: 'Walnut desk', sku: `DESK-${ Date.now() }`, price: '450.00' },
	] );
	const [ id ] = await shop.createOrders( [
		{ status: 'pending', line_items: [ { product_id: ( product as { id: number } ).id, quantity: 1 } ] },
	] );
	await shop.pay( [ id as number ] );
	return id as number;
}

describe( 'outbound webhooks from the admin page', () => {
	let session: AdminSession;
	let receiver: Receiver;

	beforeAll( async () => {
		await requireRoute( ROUTE, 'Outbound endpoints screen' );
		await requireRoute( '/service-integration/v1/webhooks/deliveries', 'Deliveries screen' );
		receiver = await startReceiver();
		session = await openSession( { tab: 'endpoints' } );
	}, SETUP_TIMEOUT );

	beforeEach( () => {
		// Each test answers for the errors of its own page loads.
		session.errors.length = 0;
	} );

	afterAll( async () => {
		await session?.close();
		const list = await adminClient().get< { endpoints: Endpoint[] } >( ROUTE );
		for ( const endpoint of list.body.endpoints ?? [] ) {
			if ( receiver && endpoint.url.startsWith( `${ receiver.url }/` ) ) {
				await adminClient().request( { method: 'DELETE', path: `${ ROUTE }/${ endpoint.id }` } );
			}
		}
		await receiver?.close();
	} );

	/** Each test's endpoint is its own, on its own path of the receiver: no test leans on another's. */
	const urlFor = ( name: string ) => `${ receiver.url }/${ name }`;
	const requestsTo = ( url: string ) =>
		receiver.requests.filter( ( request ) => `${ receiver.url }${ request.path }` === url );
	async function endpointFor( name: string ): Promise< { id: string; url: string; secret: string } > {
		const url = urlFor( name );
		const created = await adminClient().post< Endpoint & { secret: string } >( ROUTE, {
			url,
			event_types: [ 'order.paid' ],
		} );
		expect( created.status ).toBe( 201 );
		return { id: created.body.id, url, secret: created.body.secret };
	}
	const card = ( url: string ) =>
		session.page.locator( '.si-endpoint', { has: session.page.locator( '.si-endpoint__url', { hasText: url } ) } );

	it( 'adds an endpoint and shows its signing secret once', async () => {
		const { page } = session;
		const url = urlFor( 'added-in-the-browser' );
		await openTab( session, 'endpoints' );
		await waitForLoaded( page );
		await page.getByRole( 'button', { name: 'Add an endpoint' } ).click();
		const form = page.getByRole( 'form', { name: 'Add an endpoint' } );
		await form.getByLabel( 'Endpoint URL' ).fill( url );
		await form.getByLabel( 'Order paid (order.paid)' ).check();
		await form.getByLabel( 'Description' ).fill( 'Browser test receiver' );
		await form.getByRole( 'button', { name: 'Add endpoint' } ).click();

		await app( page ).getByText( `Endpoint added: ${ url }` ).waitFor();
		const secret = await page.getByLabel( 'Signing secret', { exact: true } ).inputValue();
		expect( secret ).toMatch( /^whsec_/ );
		await card( url ).waitFor();
		const text = await card( url ).innerText();
		expect( text ).toContain( 'Active' );
		expect( text ).toContain( 'Order paid' );
		expect( text ).not.toContain( secret );
		await shot( session, 'outbound-endpoint-added' );

		const list = await adminClient().get< { endpoints: Endpoint[] } >( ROUTE );
		expect( list.body.endpoints.filter( ( endpoint ) => endpoint.url === url ) ).toHaveLength( 1 );
		expect( session.errors ).toEqual( [] );
	} );

	it( 'shows the delivery of a paid order, its attempts, and replays it with the same id', async () => {
		const { page } = session;
		const { url, secret } = await endpointFor( 'delivery-and-replay' );
		const orderId = await paidOrder();
		const ofOrder = () => requestsTo( url ).filter( ( request ) => request.body.includes( `"id":${ orderId },` ) );
		await receiver.waitFor( () => ofOrder().length > 0, 30_000 );
		const delivered = ofOrder()[ 0 ];
		const eventId = delivered?.headers[ 'webhook-id' ] as string;
		// Signed with the secret the endpoint was given.
		expect(
			( new Webhook( secret ).verify( delivered?.body ?? '', delivered?.headers ?? {} ) as { type: string } ).type
		).toBe( 'order.paid' );

		await openTab( session, 'deliveries' );
		await waitForLoaded( page );
		await page.getByLabel( 'Endpoint', { exact: true } ).selectOption( { label: url } );
		const row = page.locator( `tr[data-event-id="${ eventId }"]` );
		await refreshUntil(
			page.getByRole( 'button', { name: 'Refresh' } ),
			async () => ( await row.getAttribute( 'data-status' ).catch( () => null ) ) === 'succeeded',
			`delivery of ${ eventId } shown as succeeded`
		);
		expect( await row.innerText() ).toContain( 'Order paid' );
		expect( await row.innerText() ).toContain( 'Succeeded' );

		await row.getByRole( 'button', { name: 'Attempts' } ).click();
		// The event's deliveries to every subscribed endpoint are listed: read this endpoint's.
		const ours = page.locator( '.si-delivery-attempts', {
			has: page.getByRole( 'heading', { name: `To ${ url }` } ),
		} );
		const attempts = ours.locator( '.si-attempts tbody tr' );
		await attempts.first().waitFor();
		expect( await attempts.first().locator( '.si-attempt-status' ).innerText() ).toBe( '200' );
		await shot( session, 'deliveries-with-attempts' );

		const before = requestsTo( url ).length;
		await row.getByRole( 'button', { name: `Replay event ${ eventId }` } ).click();
		await app( page ).getByText( `Event ${ eventId } queued again (1 delivery).` ).waitFor();
		await receiver.waitFor( () => requestsTo( url ).length > before, 30_000 );
		expect( requestsTo( url )[ before ]?.headers[ 'webhook-id' ] ).toBe( eventId );

		// The replay shows up as a manual attempt.
		await refreshUntil(
			page.getByRole( 'button', { name: 'Refresh' } ),
			async () => ( await attempts.allInnerTexts() ).some( ( line ) => line.includes( 'replay' ) ),
			'the replayed attempt in the attempts table'
		);
		await shot( session, 'deliveries-replayed' );
		expect( session.errors ).toEqual( [] );
	} );

	it( 'replays the failed deliveries of the selected endpoint since a time', async () => {
		const { page } = session;
		const { url } = await endpointFor( 'replay-failed' );
		await openTab( session, 'deliveries' );
		await waitForLoaded( page );
		// Scoped to this test's endpoint, so other tests' receivers are left alone.
		await page.getByLabel( 'Endpoint', { exact: true } ).selectOption( { label: url } );
		await app( page ).getByText( 'to the endpoint selected above' ).waitFor();
		await page.getByRole( 'button', { name: 'Replay failed deliveries' } ).click();
		await app( page ).getByText( '0 failed deliveries queued again.' ).waitFor();
		expect( session.errors ).toEqual( [] );
	} );

	it( 'disables, enables and rotates the secret of an endpoint, and deletes it', async () => {
		const { page } = session;
		const { url, secret } = await endpointFor( 'lifecycle' );
		const first = await paidOrder();
		await receiver.waitFor(
			() => requestsTo( url ).some( ( request ) => request.body.includes( `"id":${ first },` ) ),
			30_000
		);

		await openTab( session, 'endpoints' );
		await card( url ).waitFor();
		// Its health: the delivery above succeeded.
		await refreshUntil(
			page.getByRole( 'button', { name: 'Refresh' } ),
			async () =>
				(
					await card( url )
						.locator( '.si-endpoint__success-rate' )
						.innerText()
						.catch( () => '' )
				).startsWith( '100 % of the last 1 attempt' ),
			"the endpoint's recent success rate"
		);
		expect( await card( url ).locator( '.si-endpoint__last-error' ).innerText() ).toBe(
			'None among the recent attempts'
		);

		await page.getByRole( 'button', { name: `Disable ${ url }` } ).click();
		await card( url ).locator( '.si-badge', { hasText: 'Disabled' } ).waitFor();
		expect( await card( url ).innerText() ).toContain( 'disabled by an administrator' );
		// Disabled by its owner: enabling again resends what it missed only when asked.
		await card( url )
			.getByRole( 'button', { name: `Enable and resend: ${ url }` } )
			.waitFor();
		await shot( session, 'outbound-endpoint-disabled' );
		await page.getByRole( 'button', { name: `Enable ${ url }` } ).click();
		await card( url ).locator( '.si-badge', { hasText: 'Active' } ).waitFor();

		await page.getByRole( 'button', { name: `Rotate the secret of ${ url }` } ).click();
		await card( url ).getByRole( 'button', { name: 'Rotate', exact: true } ).click();
		await app( page ).getByText( 'New signing secret' ).waitFor();
		const rotated = await page.getByLabel( 'Signing secret', { exact: true } ).inputValue();
		expect( rotated ).toMatch( /^whsec_/ );
		expect( rotated ).not.toBe( secret );
		await card( url ).getByText( 'the previous one also signs until' ).waitFor();

		// The next delivery carries two signatures: the new secret's and, during the grace period, the old one's.
		const second = await paidOrder();
		const ofSecond = () => requestsTo( url ).filter( ( request ) => request.body.includes( `"id":${ second },` ) );
		await receiver.waitFor( () => ofSecond().length > 0, 30_000 );
		const next = ofSecond()[ 0 ];
		expect( () => new Webhook( rotated ).verify( next?.body ?? '', next?.headers ?? {} ) ).not.toThrow();
		expect( () => new Webhook( secret ).verify( next?.body ?? '', next?.headers ?? {} ) ).not.toThrow();

		await page.getByRole( 'button', { name: `Delete ${ url }` } ).click();
		await card( url ).getByRole( 'button', { name: 'Delete', exact: true } ).click();
		await card( url ).waitFor( { state: 'detached' } );
		await app( page ).getByText( 'Endpoint deleted, with its delivery history.' ).waitFor();
		const list = await adminClient().get< { endpoints: Endpoint[] } >( ROUTE );
		expect( list.body.endpoints.filter( ( endpoint ) => endpoint.url === url ) ).toEqual( [] );
		expect( session.errors ).toEqual( [] );
	} );
} );

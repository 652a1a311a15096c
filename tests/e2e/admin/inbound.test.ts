import { randomUUID } from 'crypto';
import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import { sampleWebhook, type SignedWebhook } from '../../support/inbound-signers';
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

/** A remote service posting to the receiving URL the page showed. */
async function post( url: string, webhook: SignedWebhook ): Promise< number > {
	const response = await fetch( url, {
		method: 'POST',
		headers: { cookie: PLAYGROUND_COOKIE, 'content-type': 'application/json', ...webhook.headers },
		body: webhook.body,
		redirect: 'manual',
	} );
	await response.text();
	return response.status;
}

const SOURCES = '/service-integration/v1/inbound/sources';

describe( 'inbound sources from the admin page', () => {
	let session: AdminSession;
	/** Each test's source is its own (this prefix and the test's name): no test leans on another's. */
	const prefix = `browser-${ Date.now().toString( 36 ) }`;

	beforeAll( async () => {
		await requireRoute( SOURCES, 'Inbound screen' );
		session = await openSession( { tab: 'inbound' } );
	}, SETUP_TIMEOUT );

	beforeEach( () => {
		// Each test answers for the errors of its own page loads.
		session.errors.length = 0;
	} );

	afterAll( async () => {
		await session?.close();
		const list = await adminClient().get< { sources: Array< { id: string } > } >( SOURCES );
		for ( const source of list.body.sources ?? [] ) {
			if ( source.id.startsWith( `${ prefix }-` ) ) {
				await adminClient().request( { method: 'DELETE', path: `${ SOURCES }/${ source.id }` } );
			}
		}
	} );

	const row = ( id: string ) => session.page.locator( `tr[data-source-id="${ id }"]` );

	/** A Standard Webhooks source made through the API, with its receiving URL and generated secret. */
	async function sourceFor( name: string ): Promise< { id: string; receivingUrl: string; secret: string } > {
		const id = `${ prefix }-${ name }`;
		const created = await adminClient().post< { receiving_url: string; secret: string } >( SOURCES, {
			id,
			scheme: 'standard-webhooks',
			description: 'Browser test sender',
		} );
		expect( created.status ).toBe( 201 );
		return { id, receivingUrl: created.body.receiving_url, secret: created.body.secret };
	}

	it( 'adds a source and shows its receiving URL and generated secret once', async () => {
		const { page } = session;
		const id = `${ prefix }-added`;
		await openTab( session, 'inbound' );
		await waitForLoaded( page );
		await page.getByRole( 'button', { name: 'Add a source' } ).click();
		const form = page.getByRole( 'form', { name: 'Add a source' } );
		await form.getByLabel( 'Identifier' ).fill( id );
		await form.getByLabel( 'Signature scheme' ).selectOption( 'standard-webhooks' );
		await form.getByLabel( 'Description' ).fill( 'Browser test sender' );
		await form.getByRole( 'button', { name: 'Add source' } ).click();

		await app( page ).getByText( `Source ${ id } added` ).waitFor();
		const receivingUrl = await page.getByLabel( 'Receiving URL', { exact: true } ).inputValue();
		const secret = await page.getByLabel( 'Signing secret', { exact: true } ).inputValue();
		expect( receivingUrl ).toMatch( new RegExp( `/wp-json/.+/${ id }$` ) );
		expect( secret.length ).toBeGreaterThanOrEqual( 24 );
		await row( id ).waitFor();
		const text = await row( id ).innerText();
		expect( text ).toContain( 'Standard Webhooks' );
		expect( text ).toContain( 'Active' );
		expect( text ).toContain( receivingUrl );
		expect( text ).not.toContain( secret );
		await shot( session, 'inbound-source-added' );
		expect( session.errors ).toEqual( [] );
	} );

	it( 'shows what the source sent: the verified event, its duplicate, and the forged one refused', async () => {
		const { page } = session;
		const { id, receivingUrl, secret } = await sourceFor( 'sent' );
		await openTab( session, 'inbound' );
		await waitForLoaded( page );
		const genuine = sampleWebhook( 'standard-webhooks', secret, {
			eventId: `msg_${ randomUUID().replace( /-/g, '' ) }`,
		} );
		expect( await post( receivingUrl, genuine ) ).toBe( 202 );
		// The sender retries the same event: acknowledged as a duplicate.
		expect( await post( receivingUrl, genuine ) ).toBe( 200 );
		const forged = sampleWebhook(
			'standard-webhooks',
			`whsec_${ Buffer.from( randomUUID() ).toString( 'base64' ) }`
		);
		expect( await post( receivingUrl, forged ) ).toBe( 401 );

		const eventRow = page.locator( `.si-inbound-events tr[data-event-id="${ genuine.expected.eventId }"]` );
		const refusedRow = page.locator( '.si-inbound-log tr[data-outcome="refused"]', { hasText: id } );
		const verified = page.locator( '.si-inbound-log tr[data-outcome="verified"]', {
			hasText: genuine.expected.eventId,
		} );
		// An entry says "verified" once WordPress has reported the 2xx it answered (after the answer).
		await refreshUntil(
			page.getByRole( 'button', { name: 'Refresh' } ),
			async () =>
				( await eventRow.count() ) > 0 && ( await refusedRow.count() ) > 0 && ( await verified.count() ) === 2,
			'the received event, the refused delivery and both verified ones'
		);
		expect( await eventRow.innerText() ).toContain( 'order.paid' );
		expect( [ 'received', 'processed' ] ).toContain( await eventRow.getAttribute( 'data-status' ) );
		expect( await eventRow.getAttribute( 'data-duplicates' ) ).toBe( '1' );
		expect( await eventRow.innerText() ).toContain( '1 duplicate' );
		expect( await app( page ).locator( '.si-counts' ).innerText() ).toMatch( /Duplicate deliveries: [1-9]/ );
		// Both deliveries passed the signature check; WordPress then counted the second as a duplicate.
		expect( await verified.count() ).toBe( 2 );
		expect( await verified.first().innerText() ).toContain( 'Verified' );
		expect( await refusedRow.first().innerText() ).toContain( 'Refused' );
		expect( await refusedRow.first().innerText() ).toContain( '401' );
		await shot( session, 'inbound-events-and-log' );

		// The duplicates filter keeps the redelivered event.
		await page.getByLabel( 'Duplicates', { exact: true } ).selectOption( 'only' );
		await page
			.locator( '.si-inbound-events tbody tr[data-duplicates="0"]' )
			.first()
			.waitFor( { state: 'detached' } );
		await eventRow.waitFor();
		await page.getByLabel( 'Duplicates', { exact: true } ).selectOption( '' );
		// The forged delivery's 401 is logged by nobody in the browser; the page itself ran clean.
		expect( session.errors ).toEqual( [] );
	} );

	it( 'rotates the secret (the new one shown once), disables, enables and deletes the source', async () => {
		const { page } = session;
		const { id, receivingUrl, secret } = await sourceFor( 'lifecycle' );
		await openTab( session, 'inbound' );
		await waitForLoaded( page );
		await page.getByRole( 'button', { name: `Rotate the secret of ${ id }` } ).click();
		const rotate = page.getByRole( 'form', { name: `Rotate the secret of ${ id }` } );
		await rotate.getByRole( 'button', { name: 'Rotate', exact: true } ).click();
		await app( page ).getByText( `New secret for ${ id } saved` ).waitFor();
		const rotated = await page.getByLabel( 'Signing secret', { exact: true } ).inputValue();
		expect( rotated ).not.toBe( secret );
		await row( id ).getByText( 'The previous one is accepted until' ).waitFor();
		// Both secrets are accepted during the grace period.
		expect( await post( receivingUrl, sampleWebhook( 'standard-webhooks', rotated ) ) ).toBeLessThan( 300 );
		expect( await post( receivingUrl, sampleWebhook( 'standard-webhooks', secret ) ) ).toBeLessThan( 300 );

		await page.getByRole( 'button', { name: `Disable ${ id }` } ).click();
		await row( id ).locator( '.si-badge', { hasText: 'Disabled' } ).waitFor();
		expect( await post( receivingUrl, sampleWebhook( 'standard-webhooks', rotated ) ) ).toBeGreaterThanOrEqual(
			400
		);
		await shot( session, 'inbound-source-disabled' );
		await page.getByRole( 'button', { name: `Enable ${ id }` } ).click();
		await row( id ).locator( '.si-badge', { hasText: 'Active' } ).waitFor();

		await page.getByRole( 'button', { name: `Delete ${ id }` } ).click();
		await row( id ).getByRole( 'button', { name: 'Delete', exact: true } ).click();
		await row( id ).waitFor( { state: 'detached' } );
		await app( page ).getByText( `Source ${ id } deleted.` ).waitFor();
		expect( session.errors ).toEqual( [] );
	} );

	it( 'on a site without the inbound or outbound routes, says "not available yet" and keeps working', async () => {
		const { page } = session;
		const noRoute = JSON.stringify( {
			code: 'rest_no_route',
			message: 'No route was found matching the URL and request method.',
			data: { status: 404 },
		} );
		// Such a site answers these routes with core's rest_no_route 404; simulated here.
		await page.route( /\/service-integration\/v1\/(inbound|webhooks)\//, ( route ) =>
			route.fulfill( { status: 404, contentType: 'application/json', body: noRoute } )
		);
		try {
			for ( const tab of [ 'inbound', 'endpoints', 'deliveries' ] as const ) {
				await page.goto( `${ session.siteUrl }/wp-admin/admin.php?page=service-integration&tab=${ tab }`, {
					waitUntil: 'domcontentloaded',
				} );
				await waitForLoaded( page );
				const notice = app( page ).locator( '.si-not-available' );
				await notice.first().waitFor();
				expect( await notice.first().innerText() ).toContain( 'Not available yet.' );
				expect( await app( page ).locator( '.si-error' ).count() ).toBe( 0 );
				if ( tab === 'inbound' ) {
					expect( await page.getByRole( 'button', { name: 'Add a source' } ).count() ).toBe( 0 );
					await shot( session, 'inbound-not-available' );
				}
			}
			// The rest of the page is unaffected.
			await page.getByRole( 'tab', { name: 'Service account', exact: true } ).click();
			await page.locator( '.si-capabilities' ).waitFor();
		} finally {
			await page.unroute( /\/service-integration\/v1\/(inbound|webhooks)\// );
		}
		expect( session.errors.filter( ( error ) => ! /status of 404/.test( error ) ) ).toEqual( [] );
	} );
} );

import { randomUUID } from 'crypto';
import type { Locator } from 'playwright-core';
import { sampleWebhook } from '../../support/inbound-signers';
import {
	app,
	horizontalOverflow,
	overflowingElements,
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
import { ADMIN, createSource, sendWebhook } from '../support/inbound';

/**
 * Details of the admin page a newcomer trips over (issue 15): codes and URLs that wrap
 * mid-word, a log that showed the verifier's 200 where the sender got 202, an old error left
 * next to a new one, and two ways of masking a secret.
 */
const ENDPOINTS = '/service-integration/v1/webhooks/endpoints';
const MARK = Date.now().toString( 36 );
/** Never contacted: subscribed to refunds only, on a name that does not resolve, and deleted afterwards. */
const LONG_URL = `https://receiver.example.invalid/webhooks/service-integration/orders/paid-and-refunded/tenant-${ MARK }/endpoint_with_a_long_name/v2?token=abc123&mode=test`;
/** One segment longer than any phone screen: the last-resort rule must keep it inside the page. */
const UNBROKEN_URL = `https://receiver.example.invalid/${ 'x'.repeat( 140 ) }${ MARK }`;
const SEPARATORS = '/._-?&=';

interface CreatedEndpoint {
	id: string;
	url: string;
	secret: string;
}

async function createEndpoint( url: string ): Promise< CreatedEndpoint > {
	const created = await adminClient().post< CreatedEndpoint >( ENDPOINTS, {
		url,
		event_types: [ 'order.refunded' ],
		description: 'details test (never contacted)',
	} );
	if ( created.status !== 201 ) {
		throw new Error(
			`Could not create the endpoint ${ url }: HTTP ${ created.status } ${ JSON.stringify( created.body ) }`
		);
	}
	return created.body;
}

/**
 * Where the rendered text of `element` goes to a new line: the character before each break
 * (from the position of every character, Range.getClientRects), and how many lines there are.
 */
async function lineBreaks( element: Locator ): Promise< { lines: number; after: string[]; text: string } > {
	return element.evaluate( ( root ) => {
		const chars: { ch: string; top: number }[] = [];
		const walker = document.createTreeWalker( root, NodeFilter.SHOW_TEXT );
		const range = document.createRange();
		for ( let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null ) {
			for ( let i = 0; i < node.data.length; i++ ) {
				range.setStart( node, i );
				range.setEnd( node, i + 1 );
				const rect = range.getClientRects()[ 0 ];
				chars.push( { ch: node.data[ i ] as string, top: rect ? rect.top : Number.NaN } );
			}
		}
		const after: string[] = [];
		for ( let i = 1; i < chars.length; i++ ) {
			if ( ( chars[ i ] as { top: number } ).top > ( chars[ i - 1 ] as { top: number } ).top + 2 ) {
				after.push( ( chars[ i - 1 ] as { ch: string } ).ch );
			}
		}
		return { lines: after.length + 1, after, text: chars.map( ( c ) => c.ch ).join( '' ) };
	} );
}

describe( 'admin page details', () => {
	let session: AdminSession;
	let endpoint: CreatedEndpoint;
	const sourceId = `details-${ MARK }`;
	let sourceSecret: string;

	beforeAll( async () => {
		await requireRoute( ENDPOINTS, 'Outbound endpoints screen' );
		await requireRoute( `${ ADMIN }/sources`, 'Inbound screen' );
		endpoint = await createEndpoint( LONG_URL );
		await createEndpoint( UNBROKEN_URL );
		sourceSecret = ( await createSource( sourceId, 'standard-webhooks' ) ).secret;
		session = await openSession( { tab: 'endpoints' } );
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
		const admin = adminClient();
		const list = await admin.get< { endpoints: { id: string; url: string }[] } >( ENDPOINTS );
		for ( const listed of list.body.endpoints ?? [] ) {
			if ( listed.url.includes( MARK ) || listed.url === 'http://10.0.0.1/x' ) {
				await admin.request( { method: 'DELETE', path: `${ ENDPOINTS }/${ listed.id }` } );
			}
		}
		await admin.request( { method: 'DELETE', path: `${ ADMIN }/sources/${ sourceId }` } );
	} );

	/** Errors the page logged, but for the refusals these tests provoke on purpose. */
	const unexpected = () => session.errors.filter( ( error ) => ! /status of (400|409)/.test( error ) );
	const maskStyle = ( locator: Locator ) =>
		locator.evaluate(
			( element ) =>
				`${ element.tagName } ${ getComputedStyle( element ).fontFamily } ${ getComputedStyle( element ).fontSize }`
		);
	const card = ( url: string ) =>
		session.page.locator( '.si-endpoint', { has: session.page.locator( '.si-endpoint__url', { hasText: url } ) } );

	it( 'wraps codes and URLs only after / . _ - ? & =, and a token with no break point never widens the page', async () => {
		const { page } = session;
		await page.setViewportSize( { width: 360, height: 800 } );
		try {
			await openTab( session, 'endpoints' );
			await waitForLoaded( page );
			const url = card( LONG_URL ).locator( '.si-endpoint__url' );
			await url.waitFor();
			const wrapped = await lineBreaks( url );
			expect( wrapped.text ).toBe( LONG_URL );
			// It does wrap at this width, and only right after a separator.
			expect( wrapped.lines ).toBeGreaterThanOrEqual( 3 );
			expect( wrapped.after.filter( ( ch ) => ! SEPARATORS.includes( ch ) ) ).toEqual( [] );
			// Copying gets the URL as it is (the <wbr>s add nothing).
			expect( await url.innerText() ).toBe( LONG_URL );
			await card( UNBROKEN_URL ).waitFor();
			expect( await horizontalOverflow( page ) ).toBe( 0 );
			await shot( session, 'details-narrow-endpoint-urls' );

			await openTab( session, 'inbound' );
			await waitForLoaded( page );
			const receiving = page.locator( `tr[data-source-id="${ sourceId }"] .si-receiving-url` );
			await receiving.waitFor();
			const inTable = await lineBreaks( receiving );
			expect( inTable.after.filter( ( ch ) => ! SEPARATORS.includes( ch ) ) ).toEqual( [] );
			expect( await overflowingElements( page ) ).toEqual( [] );
			expect( await horizontalOverflow( page ) ).toBe( 0 );
		} finally {
			await page.setViewportSize( { width: 1280, height: 900 } );
		}
		expect( unexpected() ).toEqual( [] );
	} );

	it( 'the verification log shows the status the sender got: 202 for a new event, 200 for its duplicate', async () => {
		const { page } = session;
		const webhook = sampleWebhook( 'standard-webhooks', sourceSecret, {
			eventId: `msg_${ randomUUID().replace( /-/g, '' ) }`,
		} );
		expect( ( await sendWebhook( sourceId, webhook ) ).status ).toBe( 202 );
		expect( ( await sendWebhook( sourceId, webhook ) ).status ).toBe( 200 );

		await openTab( session, 'inbound' );
		await waitForLoaded( page );
		const rows = page.locator( '.si-inbound-log tr[data-outcome="verified"]', {
			hasText: webhook.expected.eventId,
		} );
		const answers = async () =>
			Promise.all( ( await rows.all() ).map( ( row ) => row.locator( '.si-answer' ).innerText() ) );
		await refreshUntil(
			page.getByRole( 'button', { name: 'Refresh' } ),
			async () => ( await answers() ).join( ',' ) === '200,202',
			'the log to show the answers 200 and 202'
		);
		// Newest first: the duplicate (200), then the new event (202); both passed the signature check.
		expect( await answers() ).toEqual( [ '200', '202' ] );
		await shot( session, 'details-log-answers' );
		expect( unexpected() ).toEqual( [] );
	} );

	it( 'shows only the current problem: a validation error replaces a server error, and the other way round', async () => {
		const { page } = session;
		const errors = app( page ).locator( '.si-error' );
		const onlyError = async ( text: string ) => {
			await errors.filter( { hasText: text } ).waitFor();
			expect( await errors.count() ).toBe( 1 );
			return errors.innerText();
		};

		await openTab( session, 'endpoints' );
		await waitForLoaded( page );
		await page.getByRole( 'button', { name: 'Add an endpoint' } ).click();
		const form = page.getByRole( 'form', { name: 'Add an endpoint' } );
		const field = form.getByLabel( 'Endpoint URL' );
		const submit = form.getByRole( 'button', { name: 'Add endpoint' } );

		// The sidecar refuses a private address (it is never contacted).
		await field.fill( 'http://10.0.0.1/x' );
		await submit.click();
		expect( await onlyError( 'blocked_address' ) ).toContain( 'blocked_address' );

		await field.fill( '' );
		await submit.click();
		expect( await onlyError( 'Enter the endpoint URL.' ) ).not.toContain( 'blocked_address' );

		await field.fill( 'not a url' );
		await submit.click();
		expect( await onlyError( 'not a valid URL' ) ).not.toContain( 'Enter the endpoint URL.' );
		await shot( session, 'details-validation-error' );

		await field.fill( 'http://10.0.0.1/x' );
		await submit.click();
		expect( await onlyError( 'blocked_address' ) ).not.toContain( 'not a valid URL' );
		await form.getByRole( 'button', { name: 'Cancel' } ).click();

		// The same on the inbound form: a taken identifier (409), then one that is not a slug.
		await openTab( session, 'inbound' );
		await waitForLoaded( page );
		await page.getByRole( 'button', { name: 'Add a source' } ).click();
		const sourceForm = page.getByRole( 'form', { name: 'Add a source' } );
		const identifier = sourceForm.getByLabel( 'Identifier' );
		const add = sourceForm.getByRole( 'button', { name: 'Add source' } );
		await identifier.fill( sourceId );
		await add.click();
		expect( await onlyError( 'source_exists' ) ).toContain( 'source_exists' );
		await identifier.fill( 'not a slug!' );
		await add.click();
		expect( await onlyError( 'lower-case letters, digits and dashes' ) ).not.toContain( 'source_exists' );
		await sourceForm.getByRole( 'button', { name: 'Cancel' } ).click();
		expect( unexpected() ).toEqual( [] );
	} );

	it( 'masks secrets one way: the endpoint card and the inbound source show the same shape', async () => {
		const { page } = session;
		const shape = /^whsec_…[A-Za-z0-9+/=]{4}$/;

		await openTab( session, 'endpoints' );
		await waitForLoaded( page );
		const endpointMask = await card( LONG_URL ).locator( '.si-secret-mask' ).innerText();
		const endpointStyle = await maskStyle( card( LONG_URL ).locator( '.si-secret-mask' ) );

		await openTab( session, 'inbound' );
		await waitForLoaded( page );
		const sourceMask = await page.locator( `tr[data-source-id="${ sourceId }"] .si-secret-mask` ).innerText();
		// Shown the same way too: the same element, font and size.
		expect( await maskStyle( page.locator( `tr[data-source-id="${ sourceId }"] .si-secret-mask` ) ) ).toBe(
			endpointStyle
		);

		expect( endpointMask ).toMatch( shape );
		expect( sourceMask ).toMatch( shape );
		expect( endpointMask ).toBe( `whsec_…${ endpoint.secret.slice( -4 ) }` );
		expect( sourceMask ).toBe( `whsec_…${ sourceSecret.slice( -4 ) }` );
		expect( unexpected() ).toEqual( [] );
	} );
} );

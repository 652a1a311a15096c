import type { Page } from 'playwright-core';
import { startReceiver, type Receiver } from '../../sidecar/support/receiver';
import {
	openSession,
	openTab,
	refreshUntil,
	requireRoute,
	SETUP_TIMEOUT,
	shot,
	waitForLoaded,
	type AdminSession,
	type Tab,
} from '../support/admin-page';
import { adminClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { waitUntil } from '../../support/wait-until';

interface Endpoint {
	id: string;
	url: string;
	failing_since: string | null;
}

const ROUTE = '/service-integration/v1/webhooks/endpoints';
const PHONE = { width: 390, height: 844 };

/**
 * What a narrow screen hides of the tables on the page: for each table, each column header
 * with no body cell shown under that name, and each named cell that is not fully on screen
 * sideways. Empty when every column's information is there to read.
 */
async function hiddenColumns( page: Page ): Promise< string[] > {
	return page.locator( '.si-table' ).evaluateAll( ( tables ) => {
		const problems: string[] = [];
		const width = document.documentElement.clientWidth;
		tables.forEach( ( table, number ) => {
			const headers = Array.from( table.querySelectorAll( 'thead th' ) ).map(
				( th ) => th.textContent?.trim() ?? ''
			);
			const cells = Array.from( table.querySelectorAll( 'tbody td, tbody th' ) );
			if ( cells.length === 0 ) {
				return;
			}
			for ( const header of headers ) {
				const named = cells.filter( ( cell ) => cell.getAttribute( 'data-colname' ) === header );
				if ( named.length === 0 ) {
					problems.push( `table ${ number }: no cell named "${ header }"` );
				}
				for ( const cell of named ) {
					const box = cell.getBoundingClientRect();
					const label = getComputedStyle( cell, '::before' ).content;
					if ( box.width === 0 || box.left < 0 || box.right > width + 0.5 ) {
						problems.push(
							`table ${ number }: "${ header }" cell off screen (${ box.left }–${ box.right })`
						);
					}
					if ( label !== JSON.stringify( header ) ) {
						problems.push( `table ${ number }: "${ header }" cell labelled ${ label }` );
					}
				}
			}
		} );
		return problems;
	} );
}

/** The colour of a card's left edge, as the browser paints it. */
async function edgeColour( page: Page, url: string ): Promise< string > {
	return page
		.locator( '.si-endpoint', { has: page.locator( '.si-endpoint__url', { hasText: url } ) } )
		.evaluate( ( card ) => getComputedStyle( card ).borderLeftColor );
}

describe( 'the admin page on a phone (390 px wide)', () => {
	let session: AdminSession;
	let receiver: Receiver;
	const created: string[] = [];

	beforeAll( async () => {
		await requireRoute( ROUTE, 'Outbound endpoints screen' );
		// One path of the receiver refuses every delivery: its endpoint starts failing.
		receiver = await startReceiver(
			( request, res ) => void res.writeHead( request.path.startsWith( '/failing' ) ? 500 : 200 ).end( 'answer' )
		);
		session = await openSession( { viewport: PHONE, tab: 'endpoints' } );
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
		for ( const id of created ) {
			await adminClient().request( { method: 'DELETE', path: `${ ROUTE }/${ id }` } );
		}
		await receiver?.close();
	} );

	async function endpoint( name: string ): Promise< Endpoint > {
		const made = await adminClient().post< Endpoint >( ROUTE, {
			url: `${ receiver.url }/${ name }`,
			event_types: [ 'order.paid' ],
		} );
		expect( made.status ).toBe( 201 );
		created.push( made.body.id );
		return made.body;
	}

	it( "shows each endpoint's health on its card's edge: healthy, failing, disabled", async () => {
		const { page } = session;
		const healthy = await endpoint( 'healthy' );
		const failing = await endpoint( 'failing' );
		const disabled = await endpoint( 'disabled' );
		expect(
			( await adminClient().post( `${ ROUTE }/${ encodeURIComponent( disabled.id ) }/disable` ) ).status
		).toBe( 200 );

		const shop = commerce();
		const [ product ] = await shop.createProducts( [
			{ name: 'Elm bench', sku: `BENCH-${ Date.now() }`, price: '120.00' },
		] );
		const [ order ] = await shop.createOrders( [
			{ status: 'pending', line_items: [ { product_id: ( product as { id: number } ).id, quantity: 1 } ] },
		] );
		await shop.pay( [ order as number ] );
		await waitUntil(
			async () =>
				( await adminClient().get< Endpoint >( `${ ROUTE }/${ encodeURIComponent( failing.id ) }` ) ).body
					.failing_since !== null,
			60_000,
			'the endpoint that answers 500 to be failing'
		);

		await openTab( session, 'endpoints' );
		await waitForLoaded( page );
		const card = ( url: string ) =>
			page.locator( '.si-endpoint', { has: page.locator( '.si-endpoint__url', { hasText: url } ) } );
		await refreshUntil(
			page.getByRole( 'button', { name: 'Refresh' } ),
			async () =>
				( await card( failing.url )
					.getAttribute( 'data-health' )
					.catch( () => null ) ) === 'failing',
			'the failing endpoint shown as failing'
		);
		expect( await card( healthy.url ).getAttribute( 'data-health' ) ).toBe( 'healthy' );
		expect( await card( disabled.url ).getAttribute( 'data-health' ) ).toBe( 'disabled' );
		// The badges' colours: green, amber, red.
		expect( await edgeColour( page, healthy.url ) ).toBe( 'rgb(0, 163, 42)' );
		expect( await edgeColour( page, failing.url ) ).toBe( 'rgb(219, 166, 23)' );
		expect( await edgeColour( page, disabled.url ) ).toBe( 'rgb(214, 54, 56)' );
		await card( failing.url ).scrollIntoViewIfNeeded();
		await shot( session, 'narrow-endpoints-health' );

		// The delivery log: every column of the failing delivery, Status, Attempts and Actions included.
		await openTab( session, 'deliveries' );
		await waitForLoaded( page );
		await page.getByLabel( 'Endpoint', { exact: true } ).selectOption( { label: failing.url } );
		const row = page.locator( 'tr[data-event-id]' ).first();
		await refreshUntil(
			page.getByRole( 'button', { name: 'Refresh' } ),
			async () => ( await row.count() ) > 0,
			'the failing delivery in the log'
		);
		for ( const column of [ 'Status', 'Attempts', 'Actions' ] ) {
			const cell = row.locator( `[data-colname="${ column }"]` );
			expect( await cell.isVisible() ).toBe( true );
		}
		expect( await row.getByRole( 'button', { name: /^Replay event / } ).isVisible() ).toBe( true );
		expect( await hiddenColumns( page ) ).toEqual( [] );
		await shot( session, 'narrow-deliveries-cards' );
		expect( session.errors ).toEqual( [] );
	} );

	it( 'shows every column of every table on each tab', async () => {
		const { page } = session;
		for ( const tab of [
			'account',
			'check',
			'sidecar',
			'deliveries',
			'inbound',
		] as const satisfies readonly Tab[] ) {
			await openTab( session, tab );
			await waitForLoaded( page );
			expect( { tab, hidden: await hiddenColumns( page ) } ).toEqual( { tab, hidden: [] } );
		}
		await openTab( session, 'account' );
		await waitForLoaded( page );
		await shot( session, 'narrow-account-cards' );
		expect( session.errors ).toEqual( [] );
	} );
} );

import type { Locator, Page } from 'playwright-core';
import { startReceiver, type Receiver } from '../../sidecar/support/receiver';
import {
	app,
	openSession,
	openTab,
	SETUP_TIMEOUT,
	shot,
	waitForLoaded,
	type AdminSession,
} from '../support/admin-page';
import { adminClient } from '../support/clients';
import { setPluginActive } from '../support/plugins';
import { createEndpoint, deleteEndpoint, type Endpoint } from '../support/webhooks';
import { waitUntil } from '../../support/wait-until';

const FRENCH_AVAILABLE = 'french-available/french-available';
const ROUTE = '/service-integration/v1/webhooks';
/** A laptop: the width at which French labels and the tables' widest rows first met. */
const LAPTOP = { width: 1280, height: 800 };

/**
 * How far a table reaches past the box it scrolls in (0 when it fits), and which of its
 * buttons are not fully inside that box: at 1280 px every column and button must be readable
 * without scrolling sideways.
 */
async function fit( table: Locator ): Promise< { overflow: number; hiddenButtons: string[] } > {
	return table.evaluate( ( element ) => {
		const box = ( element.closest( '.si-table-scroll' ) as HTMLElement ).getBoundingClientRect();
		const hiddenButtons = Array.from( element.querySelectorAll( ':scope > tbody > tr > td button' ) )
			.filter( ( button ) => {
				const rect = button.getBoundingClientRect();
				return rect.width === 0 || rect.left < box.left - 0.5 || rect.right > box.right + 0.5;
			} )
			.map( ( button ) => ( button as HTMLElement ).innerText );
		return {
			overflow: Math.max( 0, Math.round( element.getBoundingClientRect().width - box.width ) ),
			hiddenButtons,
		};
	} );
}

/** The cells of a table whose content is cut: wider than the cell, or past the table's box. */
async function cutCells( table: Locator ): Promise< string[] > {
	return table.evaluate( ( element ) => {
		const box = ( element.closest( '.si-table-scroll' ) as HTMLElement ).getBoundingClientRect();
		return Array.from( element.querySelectorAll( ':scope > tbody > tr > td' ) )
			.filter( ( cell ) => {
				const rect = cell.getBoundingClientRect();
				const inner = Array.from( cell.querySelectorAll( '*' ) ).some(
					( child ) => child.scrollWidth > child.clientWidth + 1 && child.clientWidth > 0
				);
				return rect.right > box.right + 0.5 || inner;
			} )
			.map(
				( cell ) =>
					`${ cell.getAttribute( 'data-colname' ) }: ${ ( cell as HTMLElement ).innerText.slice( 0, 40 ) }`
			);
	} );
}

/**
 * Whether a text field paints every line of its font: its content box at least as tall as the
 * glyphs of "_Wg" (the underscore's stroke is the lowest of a secret's characters).
 */
async function glyphsFit( field: Locator ): Promise< { content: number; glyphs: number } > {
	return field.evaluate( ( input ) => {
		const style = getComputedStyle( input );
		const context = document.createElement( 'canvas' ).getContext( '2d' ) as CanvasRenderingContext2D;
		context.font = `${ style.fontWeight } ${ style.fontSize } ${ style.fontFamily }`;
		const metrics = context.measureText( '_Wg' );
		const padding = parseFloat( style.paddingTop ) + parseFloat( style.paddingBottom );
		return {
			content: Math.min(
				( input as HTMLElement ).clientHeight - padding,
				parseFloat( style.lineHeight ) || Infinity
			),
			glyphs: Math.ceil( metrics.actualBoundingBoxAscent + metrics.actualBoundingBoxDescent ),
		};
	} );
}

describe( 'the admin page at 1280 px, in French', () => {
	let session: AdminSession;
	let receiver: Receiver;
	let failing: Endpoint;
	let page: Page;
	const endpoints: string[] = [];

	beforeAll( async () => {
		await setPluginActive( FRENCH_AVAILABLE, true );
		expect( ( await adminClient().post( '/wp/v2/settings', { language: 'fr_FR' } ) ).status ).toBe( 200 );
		expect( ( await adminClient().post( '/wp/v2/users/me', { locale: 'fr_FR' } ) ).status ).toBe( 200 );
		// A receiver that refuses with a long answer, as a real one's error page is.
		receiver = await startReceiver(
			( _request, res ) =>
				void res.writeHead( 500 ).end( `Erreur interne du récepteur : ${ 'détail '.repeat( 60 ) }` )
		);
		failing = await createEndpoint( `${ receiver.url }/un-chemin-assez-long/pour/un/recepteur/qui/refuse` );
		endpoints.push( failing.id );
		const sent = await adminClient().post< { event_id: string } >(
			`${ ROUTE }/endpoints/${ encodeURIComponent( failing.id ) }/test`
		);
		expect( sent.status ).toBe( 202 );
		await waitUntil(
			async () =>
				(
					await adminClient().get< { deliveries: { attempt_count: number }[] } >(
						`${ ROUTE }/deliveries?endpoint_id=${ encodeURIComponent( failing.id ) }`
					)
				).body.deliveries.some( ( delivery ) => delivery.attempt_count > 0 ),
			60_000,
			'the test delivery attempted'
		);
		session = await openSession( { viewport: LAPTOP, tab: 'deliveries' } );
		page = session.page;
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
		for ( const id of endpoints ) {
			await deleteEndpoint( id );
		}
		await receiver?.close();
		await adminClient().post( '/wp/v2/users/me', { locale: '' } );
		await adminClient().post( '/wp/v2/settings', { language: '' } );
		await setPluginActive( FRENCH_AVAILABLE, false );
	} );

	it( 'fits the deliveries table in its box, with every row button visible', async () => {
		await openTab( session, 'deliveries' );
		await waitForLoaded( page );
		const table = app( page ).locator( 'table.si-deliveries' );
		await table.waitFor();
		expect( await fit( table ) ).toEqual( { overflow: 0, hiddenButtons: [] } );
		expect(
			await app( page )
				.getByRole( 'button', { name: /Renvoyer l’événement/ } )
				.first()
				.isVisible()
		).toBe( true );

		// The attempts of the test delivery: the answer column whole, inside the box.
		await app( page )
			.locator( `tr[data-event-id^="evt_test_"]` )
			.first()
			.getByRole( 'button', { name: 'Tentatives' } )
			.click();
		const attempts = app( page ).locator( 'table.si-attempts' ).first();
		await attempts.waitFor();
		expect( await fit( table ) ).toEqual( { overflow: 0, hiddenButtons: [] } );
		expect( await fit( attempts ) ).toEqual( { overflow: 0, hiddenButtons: [] } );
		expect( await cutCells( attempts ) ).toEqual( [] );
		await shot( session, 'wide-french-deliveries' );
	} );

	it( 'shows the shown-once secret with room for its lowest strokes', async () => {
		await openTab( session, 'endpoints' );
		await waitForLoaded( page );
		await app( page ).getByRole( 'button', { name: 'Ajouter un point de terminaison' } ).click();
		await app( page ).getByLabel( 'URL du point de terminaison' ).fill( `${ receiver.url }/secret` );
		await app( page ).locator( 'form button[type=submit]' ).click();
		const secret = app( page ).locator( '.si-secret-field__value' ).first();
		await secret.waitFor();
		const listed = await adminClient().get< { endpoints: { id: string; url: string }[] } >(
			`${ ROUTE }/endpoints`
		);
		endpoints.push( ...listed.body.endpoints.filter( ( e ) => e.url.endsWith( '/secret' ) ).map( ( e ) => e.id ) );
		const { content, glyphs } = await glyphsFit( secret );
		expect( content ).toBeGreaterThanOrEqual( glyphs );
		await shot( session, 'wide-french-secret' );
	} );

	it( "gives the items' SKU and name inputs room to read what they hold", async () => {
		const created = await adminClient().post< { id: number } >( '/wp/v2/commandes-fabrication', {
			title: 'Commande large',
			status: 'publish',
			meta: {
				items: [
					{ sku: 'CHAISE-CHENE-MASSIF-2026', name: 'Chaise en chêne massif, assise paillée', quantity: 2 },
				],
			},
		} );
		expect( created.status ).toBe( 201 );
		await page.goto( `${ session.siteUrl }/wp-admin/post.php?post=${ created.body.id }&action=edit`, {
			waitUntil: 'domcontentloaded',
		} );
		const widths = await page
			.locator( '.service-integration-mo-rows-table tbody tr' )
			.first()
			.locator( 'input[type=text]' )
			.evaluateAll( ( inputs ) =>
				inputs.map( ( input ) => ( {
					width: Math.round( input.getBoundingClientRect().width ),
					fits: ( input as HTMLInputElement ).scrollWidth <= ( input as HTMLInputElement ).clientWidth + 1,
				} ) )
			);
		// Each with its width, so a failure says how narrow it was.
		expect( widths ).toEqual(
			widths.map( ( input ) => ( { width: input.width >= 200 ? input.width : '≥ 200 px', fits: true } ) )
		);
		expect( widths ).toHaveLength( 2 );
		await shot( session, 'wide-french-items' );
		await adminClient().request( {
			method: 'DELETE',
			path: `/wp/v2/commandes-fabrication/${ created.body.id }?force=true`,
		} );
	} );
} );

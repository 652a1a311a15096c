import fs from 'fs';
import type { Page } from 'playwright-core';
import { parsePo } from '../../../scripts/lib/gettext';
import { poFile } from '../../../scripts/lib/i18n';
import {
	app,
	openSession,
	openTab,
	SETUP_TIMEOUT,
	shot,
	waitForLoaded,
	type AdminSession,
	type Tab,
} from '../support/admin-page';
import { adminClient } from '../support/clients';
import { setPluginActive } from '../support/plugins';

const FRENCH_AVAILABLE = 'french-available/french-available';
const TYPE = 'commande_fabrication';

/**
 * The plugin's English strings that French says otherwise, from its own catalogue: each
 * msgid's literal text between placeholders (the longest piece, of two words or more, or a
 * single word of four letters or more), so a page showing it in English is caught whatever
 * fills the placeholders.
 */
function englishStrings(): string[] {
	const po = parsePo( fs.readFileSync( poFile( 'fr_FR' ), 'utf8' ), 'fr_FR' );
	// An English text French writes the same way in one of its contexts ("Active", a source's
	// status, feminine; "Actif" for an endpoint's) is not English on a French screen.
	const sameInFrench = new Set(
		po.entries.filter( ( entry ) => entry.msgstr[ 0 ] === entry.msgid ).map( ( entry ) => entry.msgid )
	);
	const pieces = new Set< string >();
	for ( const entry of po.entries ) {
		if ( sameInFrench.has( entry.msgid ) ) {
			continue;
		}
		const french = entry.msgstr[ 0 ] ?? '';
		if ( french === '' || french === entry.msgid ) {
			continue;
		}
		const piece = entry.msgid
			.split( /%(?:\d+\$)?[sdf]/ )
			.map( ( part ) => part.replace( /<[^>]+>/g, ' ' ).trim() )
			.sort( ( a, b ) => b.length - a.length )[ 0 ];
		if ( ! piece || ( ! piece.includes( ' ' ) && ! /^[A-Za-z]{4,}$/.test( piece ) ) ) {
			continue;
		}
		// Not a word French writes the same way (e.g. "Description").
		if ( french.includes( piece ) ) {
			continue;
		}
		pieces.add( piece );
	}
	return [ ...pieces ];
}

const escape = ( text: string ) => text.replace( /[.*+?^${}()|[\]\\]/g, '\\$&' );

/** The plugin's English strings found in the visible text of `selector` (the plugin's own parts of the screen). */
async function englishIn( page: Page, selector: string, strings: string[] ): Promise< string[] > {
	const texts = await page.locator( selector ).evaluateAll( ( elements ) =>
		elements.map( ( element ) => {
			const own = element as HTMLElement;
			// Labels read out but not shown (screen-reader text, aria-label) count too.
			const labels = Array.from( own.querySelectorAll( '[aria-label]' ) ).map(
				( labelled ) => labelled.getAttribute( 'aria-label' ) ?? ''
			);
			return [
				own.innerText,
				own.querySelectorAll( '.screen-reader-text' ).length
					? Array.from( own.querySelectorAll( '.screen-reader-text' ) )
							.map( ( hidden ) => hidden.textContent )
							.join( '\n' )
					: '',
				...labels,
			].join( '\n' );
		} )
	);
	expect( texts.join( '' ).trim() ).not.toBe( '' );
	const text = texts.join( '\n' );
	// Each found with the text around it, to find it on the screen.
	return strings.flatMap( ( english ) => {
		const found = new RegExp(
			// Not within an identifier a person or a test gave (an account named site-health-refused, order.paid).
			`(^|[^\\p{L}\\p{N}\\-_./])${ escape( english ) }($|[^\\p{L}\\p{N}\\-_/])`,
			'u'
		).exec( text );
		return found
			? [
					`"${ english }" in "${ text.slice( Math.max( 0, found.index - 60 ), found.index + english.length + 60 ).replace( /\s+/g, ' ' ) }"`,
				]
			: [];
	} );
}

describe( 'the plugin in French (site and user in fr_FR)', () => {
	let session: AdminSession;
	const strings = englishStrings();

	beforeAll( async () => {
		await setPluginActive( FRENCH_AVAILABLE, true );
		expect( ( await adminClient().post( '/wp/v2/settings', { language: 'fr_FR' } ) ).status ).toBe( 200 );
		expect( ( await adminClient().post( '/wp/v2/users/me', { locale: 'fr_FR' } ) ).status ).toBe( 200 );
		session = await openSession();
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
		await adminClient().post( '/wp/v2/users/me', { locale: '' } );
		await adminClient().post( '/wp/v2/settings', { language: '' } );
		await setPluginActive( FRENCH_AVAILABLE, false );
	} );

	it( 'has English strings to look for', () => {
		// The catalogue is read right: its well-known strings are among them.
		expect( strings ).toEqual( expect.arrayContaining( [ 'Manufacturing orders', 'Due date' ] ) );
	} );

	it( 'shows no English string of the plugin on any tab of its page', async () => {
		const { page } = session;
		for ( const tab of [
			'account',
			'check',
			'sidecar',
			'endpoints',
			'deliveries',
			'inbound',
		] as const satisfies readonly Tab[] ) {
			await openTab( session, tab );
			await waitForLoaded( page );
			expect( { tab, english: await englishIn( page, '#service-integration-admin', strings ) } ).toEqual( {
				tab,
				english: [],
			} );
		}
		expect( await app( page ).locator( '.si-tabs [role=tab]' ).first().innerText() ).not.toBe( 'Service account' );
		await shot( session, 'french-admin-page' );
		expect( session.errors ).toEqual( [] );
	} );

	it( 'shows no English string of the plugin on the manufacturing orders list, edit screen and details box', async () => {
		const { page, siteUrl } = session;
		const created = await adminClient().post< { id: number } >( '/wp/v2/commandes-fabrication', {
			title: 'Commande en français',
			status: 'publish',
			meta: {
				source_order_id: 12,
				due_date: '2026-12-24',
				priority: 'high',
				items: [ { sku: 'A', name: 'Chaise', quantity: 2 } ],
			},
		} );
		expect( created.status ).toBe( 201 );

		await page.goto( `${ siteUrl }/wp-admin/edit.php?post_type=${ TYPE }`, { waitUntil: 'domcontentloaded' } );
		const list = [
			'h1.wp-heading-inline',
			'thead th#source_order',
			'thead th#due_date',
			'thead th#priority',
			'thead th#item_count',
			`#post-${ created.body.id } td.column-source_order`,
			`#post-${ created.body.id } td.column-priority`,
			'#adminmenu .menu-icon-' + TYPE,
		].join( ', ' );
		expect( await englishIn( page, list, strings ) ).toEqual( [] );
		expect( await page.locator( `#post-${ created.body.id } td.column-priority` ).innerText() ).toBe( 'Haute' );
		await shot( session, 'french-manufacturing-orders' );

		await page.goto( `${ siteUrl }/wp-admin/post.php?post=${ created.body.id }&action=edit`, {
			waitUntil: 'domcontentloaded',
		} );
		const edit = [ 'h1.wp-heading-inline', '#service-integration-manufacturing-order-fields' ].join( ', ' );
		expect( await englishIn( page, edit, strings ) ).toEqual( [] );
		await shot( session, 'french-manufacturing-order-edit' );
		expect( session.errors ).toEqual( [] );
	} );
} );

import fs from 'fs';
import path from 'path';
import { loginCookies } from '../../../scripts/lib/wp-login';
import {
	clickTab,
	horizontalOverflow,
	overflowingElements,
	openSession,
	openTab,
	PAGE_PATH,
	SETUP_TIMEOUT,
	shot,
	waitForLoaded,
	type AdminSession,
	type Tab,
} from '../support/admin-page';
import { readState } from '../support/environment';

const BUILD_DIR = path.resolve( __dirname, '..', '..', '..', 'plugin', 'build' );

function assetVersion(): string {
	const asset = fs.readFileSync( path.join( BUILD_DIR, 'index.asset.php' ), 'utf8' );
	const match = /'version' => '([^']+)'/.exec( asset );
	if ( ! match ) {
		throw new Error( `plugin/build/index.asset.php has no version: ${ asset }` );
	}
	return match[ 1 ] as string;
}

/**
 * Whether a core style is on the page: its own <link id="<handle>-css">, or, where WordPress
 * concatenates core styles (CONCATENATE_SCRIPTS, on without SCRIPT_DEBUG, as on the production
 * runtime), in the load-styles.php URL's `load[]` list (wp_print_styles() → _print_styles()).
 */
function coreStyleLoaded( page: string, handle: string ): boolean {
	if ( new RegExp( `id=["']${ handle }-css["']` ).test( page ) ) {
		return true;
	}
	return [ ...page.matchAll( /href=['"]([^'"]*load-styles\.php\?[^'"]*)['"]/g ) ].some( ( match ) => {
		const url = new URL(
			( match[ 1 ] as string ).replaceAll( '&amp;', '&' ).replaceAll( '&#038;', '&' ),
			'http://localhost'
		);
		return [ ...url.searchParams.entries() ].some(
			( [ key, value ] ) => key.startsWith( 'load' ) && value.split( ',' ).includes( handle )
		);
	} );
}

describe( 'the admin page, served by WordPress', () => {
	let html: string;
	let otherPage: string;

	beforeAll( async () => {
		if ( ! fs.existsSync( path.join( BUILD_DIR, 'index.js' ) ) ) {
			throw new Error( 'plugin/build/index.js is missing: run `npm run build` (npm test does it first).' );
		}
		const { siteUrl } = readState();
		const cookie = await loginCookies( siteUrl, 'admin', 'password' );
		html = await ( await fetch( `${ siteUrl }${ PAGE_PATH }`, { headers: { cookie } } ) ).text();
		otherPage = await ( await fetch( `${ siteUrl }/wp-admin/profile.php`, { headers: { cookie } } ) ).text();
	} );

	it( 'has its own top-level menu entry and the mount point', () => {
		expect( html ).toMatch( /<a href=['"]admin\.php\?page=service-integration['"][^>]*class=['"][^'"]*menu-top/ );
		expect( html ).toContain( '<div id="service-integration-admin"></div>' );
	} );

	it( "enqueues the build with its asset file's version and dependencies, and the wp-components style", () => {
		const version = assetVersion();
		expect( html ).toContain( `plugins/service-integration/build/index.js?ver=${ version }` );
		expect( html ).toContain( `plugins/service-integration/build/index.css?ver=${ version }` );
		for ( const dependency of [
			'wp-element-js',
			'wp-components-js',
			'wp-api-fetch-js',
			'wp-i18n-js',
			'service-integration-admin-js',
			'service-integration-admin-css',
		] ) {
			expect( { dependency, present: new RegExp( `id=["']${ dependency }["']` ).test( html ) } ).toEqual( {
				dependency,
				present: true,
			} );
		}
		expect( { style: 'wp-components', loaded: coreStyleLoaded( html, 'wp-components' ) } ).toEqual( {
			style: 'wp-components',
			loaded: true,
		} );
		// The app's script comes after its dependencies (WordPress resolved them from the asset file).
		expect( html.indexOf( 'id="wp-components-js"' ) ).toBeLessThan(
			html.indexOf( 'id="service-integration-admin-js"' )
		);
	} );

	it( 'enqueues nothing on other admin pages', () => {
		expect( otherPage ).not.toContain( 'plugins/service-integration/build/' );
		expect( otherPage ).not.toContain( 'id="service-integration-admin"' );
	} );
} );

describe( 'the admin page in a real browser', () => {
	let session: AdminSession;

	beforeAll( async () => {
		session = await openSession();
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
	} );

	it( 'renders every tab without a script error, and deep-links to each', async () => {
		const { page } = session;
		await page.locator( '.si-tab-content' ).waitFor();
		const tabs = await page.getByRole( 'tab' ).allInnerTexts();
		expect( tabs ).toEqual( [
			'Service account',
			'Least-privilege check',
			'Sidecar',
			'Outbound endpoints',
			'Deliveries',
			'Inbound',
		] );

		await clickTab( page, 'Sidecar' );
		await page.getByRole( 'heading', { name: 'Sidecar status' } ).waitFor();
		expect( new URL( page.url() ).searchParams.get( 'tab' ) ).toBe( 'sidecar' );

		await openTab( session, 'deliveries' );
		await page.getByRole( 'heading', { name: 'Deliveries', level: 2 } ).waitFor();
		await waitForLoaded( page );
		expect( session.errors ).toEqual( [] );
	} );

	it( 'fits a phone-sized screen: nothing scrolls the page sideways', async () => {
		const { page } = session;
		await page.setViewportSize( { width: 390, height: 844 } );
		// Back to the desktop size even on failure: the other test of the session expects it.
		try {
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
				const overflow = await horizontalOverflow( page );
				expect( { tab, overflow, sticking: overflow ? await overflowingElements( page ) : [] } ).toEqual( {
					tab,
					overflow: 0,
					sticking: [],
				} );
			}
			await openTab( session, 'account' );
			await waitForLoaded( page );
			await shot( session, 'narrow-service-account' );
			await openTab( session, 'deliveries' );
			await waitForLoaded( page );
			await shot( session, 'narrow-deliveries' );
		} finally {
			await page.setViewportSize( { width: 1280, height: 900 } );
		}
		expect( session.errors ).toEqual( [] );
	} );
} );

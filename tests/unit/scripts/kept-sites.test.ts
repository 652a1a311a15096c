import Database from 'better-sqlite3';
import fs from 'fs';
import path from 'path';
import { keptSites, siteSourceFile, switchSite } from '../../../scripts/lib/kept-sites';
import { orderStorageConflict, readStoredOrders } from '../../../scripts/lib/order-storage-guard';
import { adminPasswordFile, environmentDir, sidecarDataDir, siteCopyDir } from '../../../scripts/lib/paths';

/** An environment folder of this test's own under .cache/environments, removed after each test. */
const NAME = `unit-kept-sites-${ process.pid }`;
const DIR = environmentDir( NAME );
afterEach( () => fs.rmSync( DIR, { recursive: true, force: true } ) );

const core = ( version: string ) => JSON.stringify( { source: `/builds/wordpress-${ version }`, version } );

/** A started site as npm start leaves it: its WordPress copy, sidecar data, admin password and source. */
function startedSite( version: string, mark: string ): void {
	for ( const file of [
		path.join( siteCopyDir( NAME ), 'wp-content', 'database', '.ht.sqlite' ),
		path.join( sidecarDataDir( NAME ), 'sidecar.db' ),
		adminPasswordFile( NAME ),
	] ) {
		fs.mkdirSync( path.dirname( file ), { recursive: true } );
		fs.writeFileSync( file, mark );
	}
	fs.writeFileSync( siteSourceFile( NAME ), core( version ) );
}

const read = ( file: string ) => fs.readFileSync( file, 'utf8' );

describe( 'a site started again on another WordPress core', () => {
	it( 'stays when the core is the same', () => {
		startedSite( '7.1', 'site A' );
		expect( switchSite( NAME, core( '7.1' ) ) ).toBeUndefined();
		expect( keptSites( NAME ) ).toEqual( [] );
	} );

	it( "is kept with its sidecar's data, and comes back with them when its core is asked for again (7.1 → 6.5 → 7.1)", () => {
		startedSite( '7.1', 'site A' );
		const toOld = switchSite( NAME, core( '6.5' ), new Date( '2026-11-28T10:00:00Z' ) );
		expect( toOld ).toMatch(
			/^the WordPress 7\.1 \(.*\) site is kept with its sidecar's data in .*kept-site-2026-11-28T10-00-00Z; a new WordPress 6\.5 \(.*\) site starts, with an empty sidecar$/
		);
		// Nothing of site A is left for the new site or its sidecar.
		expect( fs.existsSync( siteCopyDir( NAME ) ) ).toBe( false );
		expect( fs.existsSync( sidecarDataDir( NAME ) ) ).toBe( false );
		expect( fs.existsSync( adminPasswordFile( NAME ) ) ).toBe( false );
		const [ keptA ] = keptSites( NAME );
		expect( read( path.join( keptA as string, 'sidecar-data', 'sidecar.db' ) ) ).toBe( 'site A' );

		startedSite( '6.5', 'site B' );
		const back = switchSite( NAME, core( '7.1' ), new Date( '2026-11-28T11:00:00Z' ) );
		expect( back ).toContain( 'the WordPress 6.5' );
		expect( back ).toContain( 'site kept in' );
		expect( back ).toContain( 'is back, with its sidecar' );
		expect( read( path.join( sidecarDataDir( NAME ), 'sidecar.db' ) ) ).toBe( 'site A' );
		expect( read( adminPasswordFile( NAME ) ) ).toBe( 'site A' );
		expect( read( siteSourceFile( NAME ) ) ).toBe( core( '7.1' ) );
		// Site B is kept in turn, and site A's folder is gone (nothing was overwritten).
		const kept = keptSites( NAME );
		expect( kept ).toHaveLength( 1 );
		expect( read( path.join( kept[ 0 ] as string, 'sidecar-data', 'sidecar.db' ) ) ).toBe( 'site B' );
	} );

	it( 'never overwrites a kept site, even within the same second', () => {
		const at = new Date( '2026-11-28T12:00:00Z' );
		startedSite( '7.1', 'site A' );
		switchSite( NAME, core( '6.5' ), at );
		startedSite( '6.5', 'site B' );
		switchSite( NAME, core( '6.6' ), at );
		expect( keptSites( NAME ).map( ( dir ) => read( path.join( dir, 'admin-application-password' ) ) ) ).toEqual( [
			'site A',
			'site B',
		] );
	} );
} );

describe( "a switch of WooCommerce's order storage on a site with orders", () => {
	const commands = { start: 'npm start', fresh: 'npm start -- --fresh' };

	/** A site database with WooCommerce's storage option and orders in its tables or in posts. */
	function database( storage: 'yes' | 'no' | null, inHpos: number, inPosts: number ): string {
		fs.mkdirSync( DIR, { recursive: true } );
		const file = path.join( DIR, `site-${ storage }-${ inHpos }-${ inPosts }.sqlite` );
		const db = new Database( file );
		db.exec( 'CREATE TABLE wp_options (option_name TEXT, option_value TEXT)' );
		db.exec( 'CREATE TABLE wp_posts (ID INTEGER, post_type TEXT)' );
		db.exec( 'CREATE TABLE wp_wc_orders (id INTEGER, type TEXT)' );
		if ( storage ) {
			db.prepare( 'INSERT INTO wp_options VALUES (?, ?)' ).run(
				'woocommerce_custom_orders_table_enabled',
				storage
			);
		}
		for ( let i = 0; i < inHpos; i++ ) {
			db.prepare( "INSERT INTO wp_wc_orders VALUES (?, 'shop_order')" ).run( i );
			db.prepare( "INSERT INTO wp_posts VALUES (?, 'shop_order_placehold')" ).run( i );
		}
		for ( let i = 0; i < inPosts; i++ ) {
			db.prepare( "INSERT INTO wp_posts VALUES (?, 'shop_order')" ).run( 100 + i );
		}
		db.close();
		return file;
	}

	it( 'is refused from HPOS to legacy, which would hide every order, with the two ways out', () => {
		const message = orderStorageConflict( readStoredOrders( database( 'yes', 2, 0 ) ), 'legacy', commands );
		expect( message ).toContain( "WOOCOMMERCE_HPOS=off would hide this site's 2 orders" );
		expect( message ).toContain( 'Keep HPOS: npm start without WOOCOMMERCE_HPOS=off' );
		expect( message ).toContain( 'WOOCOMMERCE_HPOS=off npm start -- --fresh' );
	} );

	it( 'is refused from legacy to HPOS, which WooCommerce refuses, with the two ways out', () => {
		const message = orderStorageConflict( readStoredOrders( database( 'no', 0, 1 ) ), 'hpos', commands );
		expect( message ).toContain( 'keeps its 1 order in posts (legacy storage)' );
		expect( message ).toContain( 'Keep legacy storage: WOOCOMMERCE_HPOS=off npm start.' );
		expect( message ).toContain( 'new, empty site on HPOS: npm start -- --fresh' );
		// A legacy site may never have stored the option at all.
		expect( orderStorageConflict( readStoredOrders( database( null, 0, 1 ) ), 'hpos', commands ) ).toBe( message );
	} );

	it( 'is let through without orders, and the same storage always', () => {
		expect(
			orderStorageConflict( readStoredOrders( database( 'yes', 0, 0 ) ), 'legacy', commands )
		).toBeUndefined();
		expect( orderStorageConflict( readStoredOrders( database( 'no', 0, 0 ) ), 'hpos', commands ) ).toBeUndefined();
		expect( orderStorageConflict( readStoredOrders( database( 'yes', 3, 0 ) ), 'hpos', commands ) ).toBeUndefined();
		expect(
			orderStorageConflict( readStoredOrders( database( 'no', 0, 3 ) ), 'legacy', commands )
		).toBeUndefined();
		expect( readStoredOrders( path.join( DIR, 'none.sqlite' ) ) ).toBeUndefined();
	} );
} );

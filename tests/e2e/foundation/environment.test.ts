import fs from 'fs';
import path from 'path';
import { chooseSite } from '../../../scripts/lib/site-choice';
import { coreTreeVersion, wordpressVersion } from '../../../scripts/lib/wordpress-core';
import { adminClient, anonymousClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { DEBUG_LOG, debugLogMark, phpProblemsSince } from '../support/debug-log';
import { readState } from '../support/environment';

interface SiteReport {
	wordpress_version: string;
	commerce: { plugin: string | null; version: string | null; order_storage: string | null };
	order_rows?: { hpos_table: number | null; posts: number; placeholder_posts: number };
}

describe( 'the running WordPress', () => {
	it( 'serves pretty REST URLs with the plugin namespace and Application Passwords available', async () => {
		const index = await anonymousClient().get< {
			namespaces: string[];
			authentication: Record< string, unknown >;
		} >( '/' );
		expect( index.status ).toBe( 200 );
		expect( index.body.namespaces ).toContain( 'service-integration/v1' );
		expect( index.body.authentication ).toHaveProperty( 'application-passwords' );
	} );

	it( 'has the plugin active under its own slug', async () => {
		const plugins =
			await adminClient().get< Array< { plugin: string; status: string; name: string } > >( '/wp/v2/plugins' );
		expect( plugins.status ).toBe( 200 );
		const ours = plugins.body.find( ( plugin ) => plugin.plugin === 'service-integration/service-integration' );
		expect( ours ).toMatchObject( { status: 'active', name: 'Service Integration' } );
	} );

	it( 'authenticates the administrator with an application password over HTTP Basic', async () => {
		const me = await adminClient().get< { slug: string } >( '/wp/v2/users/me' );
		expect( me.status ).toBe( 200 );
		expect( me.body.slug ).toBe( 'admin' );
	} );

	// WP_DEBUG_DISPLAY is off (a notice would never reach the body): WP_DEBUG_LOG's file is read.
	it( 'answers API clients directly (no Playground auto-login redirect) and logs no PHP notice meanwhile', async () => {
		const mark = debugLogMark();
		const response = await fetch( `${ readState().siteUrl }/wp-json/service-integration/v1`, {
			redirect: 'manual',
		} );
		expect( response.status ).toBe( 200 );
		const text = await response.text();
		expect( () => JSON.parse( text ) ).not.toThrow();
		expect( phpProblemsSince( mark ) ).toEqual( [] );
		expect( response.headers.get( 'x-wp-doingitwrong' ) ).toBeNull();
	} );

	it( 'runs the must-use plugins put in the folder npm start mounts as local-mu-plugins/ (the suite mounts a fixture there)', async () => {
		const response = await fetch( `${ readState().siteUrl }/wp-json/`, { redirect: 'manual' } );
		await response.arrayBuffer();
		expect( response.status ).toBe( 200 );
		// tests/fixtures/local-mu-plugins/service-integration-test-local-mu-plugin.php
		expect( response.headers.get( 'x-service-integration-local-mu-plugin' ) ).toBe( 'loaded' );
	} );

	it( 'runs the WordPress the run asked for (scripts/lib/site-choice.ts) and reads its debug.log from there', async () => {
		const state = readState();
		const { wordpressDir } = chooseSite();
		const expected = wordpressDir ? coreTreeVersion( wordpressDir ) : wordpressVersion();
		const report = await adminClient().get< SiteReport >( '/service-integration-local/v1/environment' );
		expect( report.status ).toBe( 200 );
		expect( report.body.wordpress_version ).toBe( expected );
		expect( state.wordpressVersion ).toBe( expected );
		// The site's own files, not the pristine tree it was copied from.
		expect( coreTreeVersion( state.wordpressDir ) ).toBe( expected );
		expect( DEBUG_LOG.startsWith( state.wordpressDir ) ).toBe( true );
		if ( wordpressDir ) {
			expect( state.wordpressDir.startsWith( wordpressDir ) ).toBe( false );
		}
	} );

	it( 'runs the shop the run asked for, active with its REST API answering, on the order storage asked for', async () => {
		const state = readState();
		const site = chooseSite();
		const report = await adminClient().get< SiteReport >( '/service-integration-local/v1/environment' );
		const index = await adminClient().get< { namespaces: string[] } >( '/' );
		if ( ! site.woocommerceDir ) {
			expect( state.commerce ).toBe( 'none' );
			expect( report.body.commerce ).toEqual( { plugin: null, version: null, order_storage: null } );
			expect( index.body.namespaces ).not.toContain( 'wc/v3' );
			return;
		}
		const plugins = await adminClient().get< Array< { plugin: string; status: string } > >( '/wp/v2/plugins' );
		expect( plugins.body.find( ( plugin ) => plugin.plugin === commerce().plugin ) ).toMatchObject( {
			status: 'active',
		} );
		expect( index.body.namespaces ).toContain( 'wc/v3' );
		expect( report.body.commerce ).toEqual( {
			plugin: 'woocommerce',
			version: state.commerceVersion,
			order_storage: site.orderStorage,
		} );
		expect( state.orderStorage ).toBe( site.orderStorage );
		// The build asked for, as its main file's header says.
		const header = fs.readFileSync( path.join( site.woocommerceDir, 'woocommerce.php' ), 'utf8' );
		expect( /^\s*\*\s*Version:\s*(\S+)/m.exec( header )?.[ 1 ] ).toBe( state.commerceVersion );
	} );

	it( 'stores a new order where the recorded order storage says (on a site without a shop, has no order route)', async () => {
		if ( readState().commerce === 'none' ) {
			const refused = await adminClient().post< { code: string } >( '/wc/v3/orders', { status: 'pending' } );
			expect( refused.status ).toBe( 404 );
			expect( refused.body.code ).toBe( 'rest_no_route' );
			return;
		}
		const driver = commerce();
		const orderStorage = readState().orderStorage as 'hpos' | 'legacy';
		const rows = async () => {
			const report = await adminClient().get< SiteReport >( '/service-integration-local/v1/environment' );
			return report.body.order_rows as NonNullable< SiteReport[ 'order_rows' ] >;
		};
		const before = await rows();
		const [ product ] = await driver.createProducts( [
			{ name: 'Storage probe', sku: `storage-probe-${ Date.now() }`, price: '3.00' },
		] );
		await driver.createOrders( [
			{ status: 'pending', line_items: [ { product_id: ( product as { id: number } ).id, quantity: 1 } ] },
		] );
		const after = await rows();
		const grew = ( key: keyof typeof before ) => ( after[ key ] ?? 0 ) - ( before[ key ] ?? 0 );
		const expected = {
			// HPOS: the order row in wc_orders, and a placeholder post reserving its id.
			hpos: { hpos_table: 1, placeholder_posts: 1, posts: 0 },
			legacy: { hpos_table: 0, placeholder_posts: 0, posts: 1 },
		}[ orderStorage ];
		expect( {
			hpos_table: grew( 'hpos_table' ),
			placeholder_posts: grew( 'placeholder_posts' ),
			posts: grew( 'posts' ),
		} ).toEqual( expected );
		if ( orderStorage === 'hpos' ) {
			expect( after.hpos_table ).not.toBeNull();
		}
	} );
} );

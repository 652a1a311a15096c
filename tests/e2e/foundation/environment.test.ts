import { coreTreeVersion, wordpressVersion } from '../../../scripts/lib/wordpress-core';
import { adminClient, anonymousClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { DEBUG_LOG, debugLogMark, phpProblemsSince } from '../support/debug-log';
import { readState } from '../support/environment';

interface SiteReport {
	wordpress_version: string;
	commerce: { plugin: string | null; version: string | null; order_storage: string | null };
	order_rows?: { hpos_table: number | null; fixture_table: number | null; posts: number; placeholder_posts: number };
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

	it( 'runs the WordPress the run asked for (WORDPRESS_DIR, else the npm registry build) and reads its debug.log from there', async () => {
		const state = readState();
		const expected = process.env.WORDPRESS_DIR ? coreTreeVersion( process.env.WORDPRESS_DIR ) : wordpressVersion();
		const report = await adminClient().get< SiteReport >( '/service-integration-local/v1/environment' );
		expect( report.status ).toBe( 200 );
		expect( report.body.wordpress_version ).toBe( expected );
		expect( state.wordpressVersion ).toBe( expected );
		// The site's own files, not the pristine tree it was copied from.
		expect( coreTreeVersion( state.wordpressDir ) ).toBe( expected );
		expect( DEBUG_LOG.startsWith( state.wordpressDir ) ).toBe( true );
		if ( process.env.WORDPRESS_DIR ) {
			expect( state.wordpressDir.startsWith( process.env.WORDPRESS_DIR ) ).toBe( false );
		}
	} );

	it( 'has the commerce plugin active with its REST API answering, on the order storage the state records', async () => {
		const state = readState();
		const driver = commerce();
		const plugins = await adminClient().get< Array< { plugin: string; status: string } > >( '/wp/v2/plugins' );
		expect( plugins.body.find( ( plugin ) => plugin.plugin === driver.plugin ) ).toMatchObject( {
			status: 'active',
		} );
		const namespace = state.commerce === 'woocommerce' ? 'wc/v3' : 'wc-fixture/v1';
		const index = await adminClient().get< { namespace: string } >( `/${ namespace }` );
		expect( index.status ).toBe( 200 );
		expect( index.body.namespace ).toBe( namespace );

		const report = await adminClient().get< SiteReport >( '/service-integration-local/v1/environment' );
		expect( report.body.commerce ).toEqual( {
			plugin: state.commerce === 'woocommerce' ? 'woocommerce' : 'woocommerce-fixture',
			version: state.commerceVersion,
			order_storage: state.orderStorage,
		} );
		if ( state.commerce === 'woocommerce' ) {
			// WOOCOMMERCE_HPOS=off asks for posts; anything else (unset included) for HPOS.
			const off = [ 'off', 'no', 'false', '0', 'legacy', 'posts' ].includes(
				( process.env.WOOCOMMERCE_HPOS ?? '' ).toLowerCase()
			);
			expect( state.orderStorage ).toBe( off ? 'legacy' : 'hpos' );
		} else {
			expect( state.orderStorage ).toBe( 'fixture' );
		}
	} );

	it( 'stores a new order where the recorded order storage says', async () => {
		const { orderStorage } = readState();
		const rows = async () => {
			const report = await adminClient().get< SiteReport >( '/service-integration-local/v1/environment' );
			return report.body.order_rows as NonNullable< SiteReport[ 'order_rows' ] >;
		};
		const before = await rows();
		const [ product ] = await commerce().createProducts( [
			{ name: 'Storage probe', sku: `storage-probe-${ Date.now() }`, price: '3.00' },
		] );
		await commerce().createOrders( [
			{ status: 'pending', line_items: [ { product_id: ( product as { id: number } ).id, quantity: 1 } ] },
		] );
		const after = await rows();
		const grew = ( key: keyof typeof before ) => ( after[ key ] ?? 0 ) - ( before[ key ] ?? 0 );
		const expected = {
			// HPOS: the order row in wc_orders, and a placeholder post reserving its id.
			hpos: { hpos_table: 1, placeholder_posts: 1, posts: 0, fixture_table: 0 },
			legacy: { hpos_table: 0, placeholder_posts: 0, posts: 1, fixture_table: 0 },
			fixture: { hpos_table: 0, placeholder_posts: 0, posts: 0, fixture_table: 1 },
		}[ orderStorage ];
		expect( {
			hpos_table: grew( 'hpos_table' ),
			placeholder_posts: grew( 'placeholder_posts' ),
			posts: grew( 'posts' ),
			fixture_table: grew( 'fixture_table' ),
		} ).toEqual( expected );
		if ( orderStorage === 'hpos' ) {
			expect( after.hpos_table ).not.toBeNull();
		}
	} );
} );

import { adminClient } from '../support/clients';
import { debugLogMark, phpProblemsSince } from '../support/debug-log';
import { readState } from '../support/environment';
import { listPaid, PAID_ORDERS } from '../support/paid-orders';
import { setPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

/**
 * A site without WooCommerce: the run without a shop (WOOCOMMERCE_VERSION=none) has never had it
 * installed; on a site with a shop, WooCommerce is deactivated for these tests and activated again
 * after. The plugin keeps working (the service account, the site's own routes) and the paid-orders
 * route answers its documented 503 commerce_unavailable for every query, with a message and no PHP
 * problem logged, never a fatal error; the index's status says it does not serve (on a site with a
 * shop, over the state its last walk left for WooCommerce's paid statuses).
 */
describe( 'a site without WooCommerce', () => {
	const withShop = readState().commerce === 'woocommerce';
	let account: ServiceAccount;

	beforeAll( async () => {
		if ( withShop ) {
			await setPluginActive( 'woocommerce/woocommerce', false );
		}
		account = await provisionServiceAccount( 'without-a-shop' );
	} );

	afterAll( async () => {
		if ( withShop ) {
			await setPluginActive( 'woocommerce/woocommerce', true );
		}
	} );

	it.each( [
		[ 'the plain listing', {} ],
		[ 'the sync order', { orderby: 'date_paid', paid_after: '2026-01-01T00:00:00Z', per_page: 100 } ],
		[ 'a filtered page', { modified_after: '2026-01-01T00:00:00Z', page: 2, _fields: 'id,total' } ],
	] )( 'answers %s with 503 commerce_unavailable naming WooCommerce', async ( _label, params ) => {
		const mark = debugLogMark();
		const result = await listPaid( account.client, params );
		expect( result.status ).toBe( 503 );
		expect( result.body ).toMatchObject( {
			code: 'commerce_unavailable',
			message: expect.stringContaining( 'WooCommerce' ),
			data: { status: 503 },
		} );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );

	it( 'still refuses the route to anyone without the capability, before saying the shop is missing', async () => {
		const anonymous = await fetch( `${ readState().siteUrl }/wp-json${ PAID_ORDERS }` );
		expect( anonymous.status ).toBe( 401 );
		expect( ( ( await anonymous.json() ) as { code: string } ).code ).toBe( 'rest_forbidden' );
		const administrator = await adminClient().get< { code: string } >( PAID_ORDERS );
		expect( administrator.status ).toBe( 403 );
		expect( administrator.body.code ).toBe( 'rest_forbidden' );
	} );

	it( 'shows the paid-orders index as not serving, and refuses a rebuild with 503 commerce_unavailable', async () => {
		const mark = debugLogMark();
		const admin = adminClient();
		const status = await admin.get< { commerce_available: boolean; serving: boolean } >(
			'/service-integration/v1/paid-orders/index'
		);
		expect( status.status ).toBe( 200 );
		expect( status.body ).toMatchObject( { commerce_available: false, serving: false } );
		const rebuild = await admin.post< { code: string } >( '/service-integration/v1/paid-orders/index/rebuild', {} );
		expect( rebuild.status ).toBe( 503 );
		expect( rebuild.body.code ).toBe( 'commerce_unavailable' );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );

	it( 'keeps the rest of the plugin working: the account, its manufacturing orders, the sidecar status', async () => {
		const me = await account.client.get< { roles: string[] } >( '/service-integration/v1/me' );
		expect( me.status ).toBe( 200 );
		expect( me.body.roles ).toEqual( [ 'service_integration' ] );
		const created = await account.client.post< { id: number; status: string } >( '/wp/v2/commandes-fabrication', {
			title: 'Without a shop',
			status: 'publish',
			meta: {
				due_date: '2026-12-15',
				priority: 'normal',
				items: [ { sku: 'NO-SHOP', name: 'Stool', quantity: 1 } ],
			},
		} );
		expect( created.status ).toBe( 201 );
		expect( created.body.status ).toBe( 'publish' );
		const status = await adminClient().get< { reachable: boolean } >( '/service-integration/v1/sidecar/status' );
		expect( status.status ).toBe( 200 );
		expect( status.body.reachable ).toBe( true );
	} );
} );

import { adminClient, anonymousClient } from '../support/clients';
import { commerce, type Product } from '../support/commerce';
import { readState } from '../support/environment';
import { setPluginActive } from '../support/plugins';
import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';

/**
 * What the Service Integration plugin relies on from WooCommerce, observed on the real thing, so
 * a WooCommerce release that changes it fails here first, by name. Each expectation comes from
 * WooCommerce's source, named beside it, and holds on WooCommerce 9.4.3 and 10.0.2.
 *
 * The probe plugin (tests/fixtures/plugins/woocommerce-contract-probe) records the hooks the plugin
 * listens to, with the order a listener sees at each: status, total, whether it is paid, and
 * its line items' quantities.
 */
interface Observed {
	hook: string;
	from?: string;
	to?: string;
	status: string;
	total: string;
	paid: boolean;
	items: number[];
}

interface QueryReport {
	ids: number[];
	total: number | null;
	max_num_pages: number | null;
	database_error: string;
	sqlite: boolean;
	hpos: boolean;
	all_orders: number;
	version: string;
}

const PROBE = 'woocommerce-contract-probe/woocommerce-contract-probe';

async function observed( orderId: number ): Promise< Observed[] > {
	const response = await adminClient().get< Observed[] >( `/woocommerce-contract/v1/hooks/${ orderId }` );
	expect( response.status ).toBe( 200 );
	return response.body;
}

async function query( name: string ): Promise< QueryReport > {
	const response = await adminClient().get< QueryReport >( `/woocommerce-contract/v1/query/${ name }` );
	expect( response.status ).toBe( 200 );
	return response.body;
}

describe( `what the plugin relies on from WooCommerce ${ readState().commerceVersion } (${ readState().orderStorage })`, () => {
	const shop = commerce();
	let chair: Product;

	beforeAll( async () => {
		await setPluginActive( PROBE, true );
		[ chair ] = ( await shop.createProducts( [
			{ name: 'Parity chair', sku: `PARITY-${ Date.now() }`, price: '120.00' },
		] ) ) as [ Product ];
	} );

	afterAll( async () => {
		await setPluginActive( PROBE, false );
	} );

	it( 'REST create: woocommerce_new_order fires on the first save, pending with a total of 0, before totals and status', async () => {
		// WC_REST_Orders_Controller::save_object() (includes/rest-api/Controllers/Version3/
		// class-wc-rest-orders-controller.php): save() [woocommerce_new_order, from
		// OrdersTableDataStore::create() / WC_Order_Data_Store_CPT::create()], calculate_totals(),
		// set_status( $request['status'] ), save() [WC_Order::status_transition()].
		const [ id ] = await shop.createOrders( [
			{ status: 'processing', line_items: [ { product_id: chair.id, quantity: 2 } ] },
		] );
		expect( await observed( id as number ) ).toEqual( [
			{ hook: 'woocommerce_new_order', status: 'pending', total: '0.00', paid: false, items: [ 2 ] },
			{
				hook: 'woocommerce_order_status_changed',
				from: 'pending',
				to: 'processing',
				status: 'processing',
				total: '240.00',
				paid: true,
				items: [ 2 ],
			},
		] );
	} );

	it( 'REST create with set_paid: payment_complete() after the save, with the status change inside it', async () => {
		// save_object(): `if ( true === $request['set_paid'] ) $object->payment_complete()` after
		// the last save; WC_Order::payment_complete() sets the status, saves (the status
		// hooks), then fires woocommerce_payment_complete (includes/class-wc-order.php).
		const [ id ] = await shop.createOrders( [
			{ status: 'pending', set_paid: true, line_items: [ { product_id: chair.id, quantity: 1 } ] },
		] );
		expect( await observed( id as number ) ).toEqual( [
			{ hook: 'woocommerce_new_order', status: 'pending', total: '0.00', paid: false, items: [ 1 ] },
			{
				hook: 'woocommerce_order_status_changed',
				from: 'pending',
				to: 'processing',
				status: 'processing',
				total: '120.00',
				paid: true,
				items: [ 1 ],
			},
			{ hook: 'woocommerce_payment_complete', status: 'processing', total: '120.00', paid: true, items: [ 1 ] },
		] );
	} );

	it( 'payment_complete() on a pending order, then a status change into completed', async () => {
		const [ id ] = await shop.createOrders( [
			{ status: 'pending', line_items: [ { product_id: chair.id, quantity: 1 } ] },
		] );
		await shop.pay( [ id as number ] );
		await shop.setStatus( id as number, 'completed' );
		expect( ( await observed( id as number ) ).slice( 1 ) ).toEqual( [
			{
				hook: 'woocommerce_order_status_changed',
				from: 'pending',
				to: 'processing',
				status: 'processing',
				total: '120.00',
				paid: true,
				items: [ 1 ],
			},
			{ hook: 'woocommerce_payment_complete', status: 'processing', total: '120.00', paid: true, items: [ 1 ] },
			{
				hook: 'woocommerce_order_status_changed',
				from: 'processing',
				to: 'completed',
				status: 'completed',
				total: '120.00',
				paid: true,
				items: [ 1 ],
			},
		] );
	} );

	it( 'refunds: the full refund hook fires before the order is set to refunded; woocommerce_order_refunded fires last', async () => {
		// wc_create_refund() (includes/wc-order-functions.php): woocommerce_order_partially_refunded
		// or woocommerce_order_fully_refunded, then (full) $order->update_status( 'refunded' ),
		// then $order->save(), woocommerce_refund_created and woocommerce_order_refunded.
		const [ id ] = await shop.createOrders( [
			{ status: 'processing', line_items: [ { product_id: chair.id, quantity: 2 } ] },
		] );
		await shop.refund( id as number, '40.00' );
		await shop.refund( id as number, '200.00' );
		expect( ( await observed( id as number ) ).slice( 2 ) ).toEqual( [
			{
				hook: 'woocommerce_order_partially_refunded',
				status: 'processing',
				total: '240.00',
				paid: true,
				items: [ 2 ],
			},
			{ hook: 'woocommerce_order_refunded', status: 'processing', total: '240.00', paid: true, items: [ 2 ] },
			{
				hook: 'woocommerce_order_fully_refunded',
				status: 'processing',
				total: '240.00',
				paid: true,
				items: [ 2 ],
			},
			{
				hook: 'woocommerce_order_status_changed',
				from: 'processing',
				to: 'refunded',
				status: 'refunded',
				total: '240.00',
				paid: true,
				items: [ 2 ],
			},
			{ hook: 'woocommerce_order_refunded', status: 'refunded', total: '240.00', paid: true, items: [ 2 ] },
		] );
	} );

	it( 'wc_get_orders( limit -1 ) on HPOS becomes LIMIT 0, 18446744073709551615, which SQLite refuses', async () => {
		// OrdersTableQuery::build_query() (src/Internal/DataStores/Orders/OrdersTableQuery.php)
		// writes limit -1 as MYSQL_MAX_UNSIGNED_BIGINT; legacy storage leaves LIMIT out
		// (WP_Query with posts_per_page -1).
		// An order of its own, so the shop has orders whatever ran before.
		await shop.createOrders( [ { status: 'pending', line_items: [ { product_id: chair.id, quantity: 1 } ] } ] );
		const report = await query( 'limit-all' );
		if ( report.sqlite && report.hpos ) {
			expect( report.database_error ).toMatch( /datatype mismatch/i );
			expect( report.ids ).toEqual( [] );
		} else {
			expect( report.database_error ).toBe( '' );
			expect( report.ids ).toHaveLength( report.all_orders );
		}
		expect( report.all_orders ).toBeGreaterThan( 0 );
	} );

	it( 'a paginated query whose page is empty reports a total of 0, however many orders exist', async () => {
		// OrdersTableQuery::run_query() returns before the count query when no order came back;
		// WP_Query::set_found_posts() (legacy storage) does the same for an empty page.
		// An order of its own, so orders exist whatever ran before.
		await shop.createOrders( [ { status: 'pending', line_items: [ { product_id: chair.id, quantity: 1 } ] } ] );
		const report = await query( 'empty-page' );
		expect( report.ids ).toEqual( [] );
		expect( report.total ).toBe( 0 );
		expect( report.max_num_pages ).toBe( 0 );
		expect( report.all_orders ).toBeGreaterThan( 0 );
	} );

	it( 'front-end requests: current_user_can( manage_woocommerce ) runs during plugins_loaded (WooCommerce 9.6+)', async () => {
		// Features::should_load_features() (src/Admin/Features/Features.php, 9.6.0+), from the
		// admin Loader on plugins_loaded: current_user_can( 'manage_woocommerce' ) outside
		// wp-admin and the REST API, which authenticates an application password that early.
		const { version } = await query( 'empty-page' );
		const response = await fetch( `${ anonymousClient().siteUrl }/`, {
			redirect: 'manual',
			headers: { cookie: PLAYGROUND_COOKIE },
		} );
		expect( response.status ).toBe( 200 );
		const early = ( response.headers.get( 'x-woocommerce-contract-early-caps' ) ?? '' ).split( ',' );
		const since96 = versionAtLeast( version, '9.6' );
		expect( early.includes( 'manage_woocommerce' ) ).toBe( since96 );
	} );
} );

function versionAtLeast( version: string, wanted: string ): boolean {
	const [ a = 0, b = 0 ] = version.split( '.' ).map( Number );
	const [ c = 0, d = 0 ] = wanted.split( '.' ).map( Number );
	return a > c || ( a === c && b >= d );
}

import { adminClient } from '../support/clients';
import { readState } from '../support/environment';

/**
 * The WooCommerce-compatible TEST FIXTURE fires WooCommerce's order actions with
 * WooCommerce's arguments and in WooCommerce's order (WC_Order::payment_complete(),
 * status_transition(), wc_create_refund(), OrdersTableDataStore::create()/update()), so code
 * that listens to them (outbound webhooks) behaves as it will on a real shop. The fixture's
 * driver routes report the actions fired during the request. Real WooCommerce needs no such
 * check, so this file only runs against the fixture.
 */
type Fired = Array< [ string, unknown[] ] >;

const describeFixture = readState().commerce === 'fixture' ? describe : describe.skip;

describeFixture( 'commerce fixture: WooCommerce order hooks', () => {
	const admin = adminClient();
	let productId: number;

	beforeAll( async () => {
		const created = await admin.post< { products: Array< { id: number } > } >( '/wc-fixture/v1/products', { products: [ { name: 'Lamp', sku: `LAMP-${ Date.now() }`, price: '30' } ] } );
		productId = created.body.products[ 0 ]!.id;
	} );

	function names( fired: Fired ): string[] {
		return fired.map( ( [ hook ] ) => hook );
	}

	it( 'creation fires woocommerce_new_order( $order_id, $order ), then the status transition', async () => {
		const result = await admin.post< { ids: number[]; hooks: Fired } >( '/wc-fixture/v1/orders', { orders: [ { status: 'processing', line_items: [ { product_id: productId, quantity: 1 } ] } ] } );
		const id = result.body.ids[ 0 ];
		expect( result.body.hooks ).toEqual( [
			[ 'woocommerce_new_order', [ id, `WC_Order#${ id }` ] ],
			[ 'woocommerce_update_order', [ id, `WC_Order#${ id }` ] ],
			[ 'woocommerce_order_status_processing', [ id, `WC_Order#${ id }`, { from: 'pending', to: 'processing', note: '', manual: false } ] ],
			[ 'woocommerce_order_status_pending_to_processing', [ id, `WC_Order#${ id }` ] ],
			[ 'woocommerce_order_status_changed', [ id, 'pending', 'processing', `WC_Order#${ id }` ] ],
			[ 'woocommerce_order_payment_status_changed', [ id, `WC_Order#${ id }` ] ],
		] );
	} );

	it( 'payment_complete() fires the payment and status hooks with WooCommerce’s arguments', async () => {
		const created = await admin.post< { ids: number[] } >( '/wc-fixture/v1/orders', { orders: [ { status: 'pending', line_items: [ { product_id: productId, quantity: 2 } ] } ] } );
		const id = created.body.ids[ 0 ];
		const paid = await admin.post< { status: string; date_paid: string; hooks: Fired } >( `/wc-fixture/v1/orders/${ id }/pay`, { transaction_id: 'tx-42' } );
		expect( paid.body.status ).toBe( 'processing' );
		expect( paid.body.date_paid ).toMatch( /^\d{4}-\d{2}-\d{2}T/ );
		expect( paid.body.hooks ).toEqual( [
			[ 'woocommerce_pre_payment_complete', [ id, 'tx-42' ] ],
			[ 'woocommerce_update_order', [ id, `WC_Order#${ id }` ] ],
			[ 'woocommerce_order_status_processing', [ id, `WC_Order#${ id }`, { from: 'pending', to: 'processing', note: '', manual: false } ] ],
			[ 'woocommerce_order_status_pending_to_processing', [ id, `WC_Order#${ id }` ] ],
			[ 'woocommerce_order_status_changed', [ id, 'pending', 'processing', `WC_Order#${ id }` ] ],
			[ 'woocommerce_order_payment_status_changed', [ id, `WC_Order#${ id }` ] ],
			[ 'woocommerce_payment_complete', [ id, 'tx-42' ] ],
		] );

		// Paying again changes nothing but says so, as WooCommerce does.
		const again = await admin.post< { hooks: Fired } >( `/wc-fixture/v1/orders/${ id }/pay`, {} );
		expect( again.body.hooks ).toEqual( [
			[ 'woocommerce_pre_payment_complete', [ id, '' ] ],
			[ 'woocommerce_payment_complete_order_status_processing', [ id, '' ] ],
		] );
	} );

	it( 'a partial refund fires woocommerce_order_partially_refunded, a full one fully_refunded and the refunded status', async () => {
		const created = await admin.post< { ids: number[] } >( '/wc-fixture/v1/orders', { orders: [ { status: 'processing', line_items: [ { product_id: productId, quantity: 2 } ] } ] } );
		const id = created.body.ids[ 0 ];

		const partial = await admin.post< { status: string; refund_id: number; hooks: Fired } >( `/wc-fixture/v1/orders/${ id }/refund`, { amount: 10, reason: 'scratch' } );
		expect( partial.body.status ).toBe( 'processing' );
		expect( names( partial.body.hooks ) ).toEqual( [ 'woocommerce_create_refund', 'woocommerce_order_partially_refunded', 'woocommerce_update_order', 'woocommerce_refund_created', 'woocommerce_order_refunded' ] );
		expect( partial.body.hooks[ 1 ] ).toEqual( [ 'woocommerce_order_partially_refunded', [ id, partial.body.refund_id ] ] );
		expect( partial.body.hooks[ 4 ] ).toEqual( [ 'woocommerce_order_refunded', [ id, partial.body.refund_id ] ] );

		const full = await admin.post< { status: string; refund_id: number; hooks: Fired } >( `/wc-fixture/v1/orders/${ id }/refund`, { amount: 50 } );
		expect( full.body.status ).toBe( 'refunded' );
		expect( names( full.body.hooks ) ).toEqual( [
			'woocommerce_create_refund',
			'woocommerce_order_fully_refunded',
			'woocommerce_update_order',
			'woocommerce_order_status_refunded',
			'woocommerce_order_status_processing_to_refunded',
			'woocommerce_order_status_changed',
			'woocommerce_update_order',
			'woocommerce_refund_created',
			'woocommerce_order_refunded',
		] );
		expect( full.body.hooks[ 1 ] ).toEqual( [ 'woocommerce_order_fully_refunded', [ id, full.body.refund_id ] ] );
		expect( full.body.hooks[ 8 ] ).toEqual( [ 'woocommerce_order_refunded', [ id, full.body.refund_id ] ] );
	} );

	it( 'shows orders the way /wc/v3/orders does (the stand-in the benchmark compares with)', async () => {
		const list = await admin.get< Array< Record< string, unknown > > >( '/wc-fixture/v1/wc-v3-orders?status=processing,completed&per_page=1' );
		expect( list.status ).toBe( 200 );
		expect( list.headers.get( 'x-wp-total' ) ).toMatch( /^\d+$/ );
		const order = list.body[ 0 ] as Record< string, unknown >;
		for ( const key of [ 'id', 'parent_id', 'number', 'order_key', 'status', 'currency', 'date_created_gmt', 'total', 'billing', 'shipping', 'payment_method', 'date_paid_gmt', 'meta_data', 'line_items', 'tax_lines', 'shipping_lines', 'fee_lines', 'coupon_lines', 'refunds', 'payment_url', 'is_editable', 'needs_payment', 'needs_processing', '_links' ] ) {
			expect( order ).toHaveProperty( key );
		}
		expect( ( order.line_items as Array< Record< string, unknown > > )[ 0 ] ).toEqual(
			expect.objectContaining( { product_id: expect.any( Number ), sku: expect.any( String ), taxes: expect.any( Array ), meta_data: expect.any( Array ), image: expect.any( Object ) } )
		);
	} );
} );

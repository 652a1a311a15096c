import { commerce, iso, nextSecond, type Product } from '../support/commerce';
import { expectRefused } from '../support/expectations';
import { listPaid, type PaidOrder } from '../support/paid-orders';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

/**
 * Section 4, rules 3 and 4: the automation reads paid orders and makes manufacturing
 * orders from them through the commande_fabrication type; the commerce order itself is
 * never written, neither by the endpoint nor by anything the service account can do.
 */
describe( 'paid-orders endpoint: read-only', () => {
	const driver = commerce();
	let account: ServiceAccount;
	let product: Product;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'paid-orders-read-only' );
		[ product ] = ( await driver.createProducts( [
			{ name: 'Bench', sku: `BENCH-${ Date.now().toString( 36 ) }`, price: '120.00' },
		] ) ) as [ Product ];
	} );

	/** A paid order for one test alone: what it checks is that nothing wrote to it. */
	async function paidOrder(): Promise< number > {
		const [ id ] = ( await driver.createOrders( [
			{
				status: 'processing',
				billing: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
				line_items: [ { product_id: product.id, quantity: 2 } ],
			},
		] ) ) as [ number ];
		// A second boundary, so a write would show in date_modified.
		await nextSecond();
		return id;
	}

	it( 'creating a manufacturing order from a paid order leaves the commerce order untouched', async () => {
		const orderId = await paidOrder();
		const before = await driver.getOrder( orderId );

		const listed = await listPaid( account.client, {
			modified_after: before.date_modified_gmt + 'Z',
			per_page: 100,
		} );
		const order = listed.body.find( ( o ) => o.id === orderId ) as PaidOrder;
		expect( order ).toBeDefined();

		const created = await account.client.post< { id: number; meta: Record< string, unknown > } >(
			'/wp/v2/commandes-fabrication',
			{
				title: `Order ${ order.number }`,
				status: 'publish',
				meta: {
					source_order_id: order.id,
					source_order_number: order.number,
					items: order.line_items.map( ( item ) => ( {
						product_id: item.product_id,
						sku: item.sku ?? '',
						name: item.name,
						quantity: item.quantity,
					} ) ),
				},
			}
		);
		expect( created.status ).toBe( 201 );
		expect( created.body.meta.source_order_id ).toBe( orderId );

		const after = await driver.getOrder( orderId );
		expect( after ).toEqual( before );
		const again = await listPaid( account.client, {
			modified_after: iso( new Date( Date.parse( before.date_modified_gmt + 'Z' ) ) ),
			_fields: 'id,date_modified,status',
		} );
		expect( again.body.find( ( o ) => o.id === orderId ) ).toEqual( {
			id: orderId,
			status: 'processing',
			date_modified: before.date_modified_gmt + 'Z',
		} );
	} );

	it( 'gives the service account no way to change the order through the commerce routes', async () => {
		const orderId = await paidOrder();
		const before = await driver.getOrder( orderId );
		// rest_forbidden: the plugin's route allow-list for service accounts
		// (Capability_Clamp::restrict_routes, on rest_pre_dispatch) refuses any commerce route
		// before WordPress runs the route's own permission check, so WooCommerce's
		// woocommerce_rest_cannot_edit (PUT /wc/v3/orders/<id>) is never reached.
		expectRefused( await driver.attemptStatusChange( account.client, orderId, 'cancelled' ), 'rest_forbidden' );
		expect( await driver.getOrder( orderId ) ).toEqual( before );
	} );
} );

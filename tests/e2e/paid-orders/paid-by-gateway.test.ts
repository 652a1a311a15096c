import { startReceiver, type Receiver } from '../../sidecar/support/receiver';
import { adminClient } from '../support/clients';
import { commerce, iso, nextSecond, type CommerceOrder, type OfflineGateway, type Product } from '../support/commerce';
import { listPaid, untilSettled, type PaidOrder } from '../support/paid-orders';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import { allDelivered, createEndpoint, deleteEndpoint, verified, type Endpoint } from '../support/webhooks';
import { expectedFromStore } from '../../support/paid-order-shape';

/**
 * "Paid" is one moment per order, whatever the gateway: when the order first enters a status
 * WooCommerce counts as paid (processing, completed), recorded once as `paid_at`. The plain
 * listing, the sync cursor (`orderby=paid_at`) and `order.paid` all follow it, on real WooCommerce
 * with its own offline gateways, orders placed by a guest through the Store API's checkout and
 * moved by the owner through /wc/v3:
 *
 * - cash on delivery: processing at checkout, with no date_paid until the owner completes it;
 * - bank transfer and cheque: on-hold (not paid) until the owner marks them processing, which
 *   stamps date_paid;
 * - a gateway's payment_complete() (what card gateways call; the REST API's set_paid);
 * - and orders that leave the paid statuses after payment: cancelled, refunded, or back to
 *   on-hold and then processing again.
 *
 * For each: exactly one `order.paid`, delivered to a real receiver, equal to what /wc/v3 said of
 * the order once it was paid; the listing and the cursor agree with the store; the cursor returns
 * the order exactly once, at its paid moment, however it changes afterwards.
 */
describe( 'paid orders on WooCommerce’s gateways: one paid moment for the listing, the cursor and order.paid', () => {
	const driver = commerce();
	const run = Date.now().toString( 36 );
	const PROBE = 'paid-index-probe/paid-index-probe';
	const ITEMS_FILTER = 'order-items-filter/order-items-filter';
	let account: ServiceAccount;
	let product: Product;
	let receiver: Receiver;
	let endpoint: Endpoint;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'paid-by-gateway' );
		[ product ] = ( await driver.createProducts( [
			{ name: 'Cedar shelf', sku: `SHELF-${ run }`, price: '45.00' },
		] ) ) as [ Product ];
		await driver.enableGateways( [ 'cod', 'bacs', 'cheque' ] );
		receiver = await startReceiver();
		endpoint = await createEndpoint( `${ receiver.url }/paid` );
	} );

	afterAll( async () => {
		await deleteEndpoint( endpoint.id );
		await receiver.close();
	} );

	/** One automation over a test's own window: its cursor starts before the window and moves with every page. */
	function automation( since: string ): { poll: () => Promise< PaidOrder[] >; received: PaidOrder[] } {
		let cursor: { paid_after: string; after_id?: number } = {
			paid_after: iso( new Date( Date.parse( since ) - 10 * 60_000 ) ),
		};
		const received: PaidOrder[] = [];
		async function poll(): Promise< PaidOrder[] > {
			const got: PaidOrder[] = [];
			for ( let guard = 0; guard < 20; guard++ ) {
				const page = await listPaid( account.client, {
					orderby: 'paid_at',
					per_page: 2,
					...cursor,
					// Isolation from the other tests only.
					modified_after: since,
				} );
				expect( page.status ).toBe( 200 );
				if ( page.body.length === 0 ) {
					received.push( ...got );
					return got;
				}
				got.push( ...page.body );
				const last = page.body[ page.body.length - 1 ] as PaidOrder;
				cursor = { paid_after: last.paid_at as string, after_id: last.id };
			}
			throw new Error( 'The poll did not end' );
		}
		return { poll, received };
	}

	/** The order as the plain listing shows it now, or undefined when it is not listed. */
	async function listed( id: number, since: string ): Promise< PaidOrder | undefined > {
		const page = await listPaid( account.client, {
			orderby: 'id',
			order: 'asc',
			per_page: 100,
			modified_after: since,
		} );
		expect( page.status ).toBe( 200 );
		return page.body.find( ( order ) => order.id === id );
	}

	/** The order.paid events delivered for this order once everything written so far was delivered. */
	async function paidEvents( id: number ): Promise< PaidOrder[] > {
		await allDelivered( endpoint.id );
		return verified( receiver, endpoint.secret, [ id ] )
			.filter( ( event ) => event.type === 'order.paid' && event.data.order.id === id )
			.map( ( event ) => event.data.order );
	}

	async function checkout( method: OfflineGateway ): Promise< number > {
		return driver.checkout( {
			payment_method: method,
			line_items: [ { product_id: product.id, quantity: 2 } ],
			billing: { email: `${ method }-${ run }@example.com` },
		} );
	}

	/**
	 * The order has just been paid (`store` is /wc/v3's view of it right after the request that
	 * paid it): the listing shows it as the store does, the cursor returns it once settled, the
	 * same, and it is announced once, as the store said.
	 */
	async function expectPaidOnce(
		id: number,
		store: CommerceOrder,
		since: string,
		sync: ReturnType< typeof automation >
	): Promise< PaidOrder > {
		const expected = expectedFromStore( store );
		const shown = await listed( id, since );
		expect( shown ).toEqual( expected );
		expect( shown?.paid_at ).not.toBeNull();
		await untilSettled( [ expected ] );
		expect( await sync.poll() ).toEqual( [ expected ] );
		expect( await paidEvents( id ) ).toEqual( [ expected ] );
		return expected;
	}

	/** What follows a payment changes nothing in the cursor nor in order.paid. */
	async function expectNothingNew( id: number, sync: ReturnType< typeof automation > ): Promise< void > {
		await untilSettled( [ { paid_at: iso( new Date() ) } ] );
		expect( await sync.poll() ).toEqual( [] );
		expect( sync.received.filter( ( order ) => order.id === id ) ).toHaveLength( 1 );
		expect( await paidEvents( id ) ).toHaveLength( 1 );
	}

	/** An order placed and not paid yet: in neither the listing nor the cursor, not announced. */
	async function expectUnpaid( id: number, since: string, sync: ReturnType< typeof automation > ): Promise< void > {
		expect( await listed( id, since ) ).toBeUndefined();
		await untilSettled( [ { paid_at: iso( new Date() ) } ] );
		expect( await sync.poll() ).toEqual( [] );
		expect( await paidEvents( id ) ).toEqual( [] );
	}

	it( 'cash on delivery: paid when the checkout puts it in processing without a date_paid; completing it stamps date_paid and moves nothing', async () => {
		const since = iso( await nextSecond() );
		const sync = automation( since );
		const before = Math.floor( Date.now() / 1000 ) * 1000;
		const id = await checkout( 'cod' );
		const after = Date.now();
		const atCheckout = await driver.getOrder( id );
		expect( atCheckout ).toMatchObject( { status: 'processing', date_paid_gmt: null } );
		const paid = await expectPaidOnce( id, atCheckout, since, sync );
		expect( paid.date_paid ).toBeNull();
		expect( Date.parse( paid.paid_at as string ) ).toBeGreaterThanOrEqual( before );
		expect( Date.parse( paid.paid_at as string ) ).toBeLessThanOrEqual( after );

		await driver.setStatus( id, 'completed' );
		const atCompletion = await driver.getOrder( id );
		expect( atCompletion.date_paid_gmt ).not.toBeNull();
		const completed = await listed( id, since );
		expect( completed ).toEqual( expectedFromStore( atCompletion ) );
		expect( completed?.paid_at ).toBe( paid.paid_at );
		expect( Date.parse( completed?.date_paid as string ) ).toBeGreaterThan( Date.parse( paid.paid_at as string ) );
		await expectNothingNew( id, sync );
	} );

	it.each( [ 'bacs', 'cheque' ] as const )(
		'%s: on-hold and unpaid until the owner marks it processing, which stamps date_paid: paid then',
		async ( method ) => {
			const since = iso( await nextSecond() );
			const sync = automation( since );
			const id = await checkout( method );
			expect( await driver.getOrder( id ) ).toMatchObject( { status: 'on-hold', date_paid_gmt: null } );
			await expectUnpaid( id, since, sync );

			await driver.setStatus( id, 'processing' );
			const atPayment = await driver.getOrder( id );
			const paid = await expectPaidOnce( id, atPayment, since, sync );
			expect( paid.paid_at ).toBe( paid.date_paid );

			await driver.setStatus( id, 'completed' );
			expect( ( await listed( id, since ) )?.paid_at ).toBe( paid.paid_at );
			await expectNothingNew( id, sync );
		}
	);

	it( 'a gateway’s payment_complete() (card gateways; the REST API’s set_paid): paid when it stamps date_paid', async () => {
		const since = iso( await nextSecond() );
		const sync = automation( since );
		const [ id ] = ( await driver.createOrders( [
			{ status: 'pending', line_items: [ { product_id: product.id, quantity: 1 } ] },
		] ) ) as [ number ];
		await expectUnpaid( id, since, sync );
		await driver.pay( [ id ] );
		const paid = await expectPaidOnce( id, await driver.getOrder( id ), since, sync );
		expect( paid ).toMatchObject( { status: 'processing', paid_at: paid.date_paid } );
		expect( paid.date_paid ).not.toBeNull();
	} );

	it( 'cancelled after payment: leaves the listing; the cursor and order.paid had it once', async () => {
		const since = iso( await nextSecond() );
		const sync = automation( since );
		const id = await checkout( 'cod' );
		await expectPaidOnce( id, await driver.getOrder( id ), since, sync );

		await driver.setStatus( id, 'cancelled' );
		expect( await listed( id, since ) ).toBeUndefined();
		await expectNothingNew( id, sync );
	} );

	it( 'refunded in full: leaves the listing; the cursor and order.paid had it once', async () => {
		const since = iso( await nextSecond() );
		const sync = automation( since );
		const id = await checkout( 'cod' );
		const paid = await expectPaidOnce( id, await driver.getOrder( id ), since, sync );

		await driver.refund( id, paid.total );
		expect( ( await driver.getOrder( id ) ).status ).toBe( 'refunded' );
		expect( await listed( id, since ) ).toBeUndefined();
		await expectNothingNew( id, sync );
		const refunded = verified( receiver, endpoint.secret, [ id ] ).filter(
			( event ) => event.type === 'order.refunded'
		);
		expect( refunded.map( ( event ) => event.data.order.paid_at ) ).toEqual( [ paid.paid_at ] );
	} );

	it( 'paid, moved back to on-hold, then processing again: one paid moment, delivered once', async () => {
		const since = iso( await nextSecond() );
		const sync = automation( since );
		const id = await checkout( 'bacs' );
		await driver.setStatus( id, 'processing' );
		const paid = await expectPaidOnce( id, await driver.getOrder( id ), since, sync );

		await driver.setStatus( id, 'on-hold' );
		expect( await listed( id, since ) ).toBeUndefined();
		await expectNothingNew( id, sync );

		await driver.setStatus( id, 'processing' );
		const again = await driver.getOrder( id );
		expect( await listed( id, since ) ).toEqual( expectedFromStore( again ) );
		expect( expectedFromStore( again ) ).toMatchObject( { paid_at: paid.paid_at, date_paid: paid.date_paid } );
		await expectNothingNew( id, sync );
	} );

	it( 'reads the same from WooCommerce’s own queries as from the index: a recorded moment, and an order paid before moments were recorded', async () => {
		const since = iso( await nextSecond() );
		const cod = await checkout( 'cod' );
		const [ earlier ] = ( await driver.createOrders( [
			{ status: 'pending', line_items: [ { product_id: product.id, quantity: 1 } ] },
		] ) ) as [ number ];
		await driver.pay( [ earlier ] );
		await withPluginActive( PROBE, async () => {
			const forgot = await adminClient().post( '/paid-index-probe/v1/forget-paid-moment', { ids: [ earlier ] } );
			expect( forgot.status ).toBe( 200 );
		} );
		const store = await Promise.all(
			[ cod, earlier ].map( async ( id ) => expectedFromStore( await driver.getOrder( id ) ) )
		);
		// The order paid "before": no recorded moment, its date_paid is its paid_at.
		expect( store[ 1 ] ).toMatchObject( { id: earlier, paid_at: store[ 1 ]?.date_paid } );
		expect( store[ 0 ] ).toMatchObject( { id: cod, date_paid: null } );
		await untilSettled( store );
		const byPaidAt = [ ...store ].sort(
			( a, b ) => ( a.paid_at as string ).localeCompare( b.paid_at as string ) || a.id - b.id
		);
		const read = async () => ( {
			plain: (
				await listPaid( account.client, {
					orderby: 'id',
					order: 'asc',
					per_page: 100,
					modified_after: since,
					paid_after: since,
				} )
			).body,
			bounded: (
				await listPaid( account.client, {
					orderby: 'id',
					order: 'asc',
					per_page: 1,
					page: 2,
					modified_after: since,
					paid_after: since,
					paid_before: iso( new Date( Date.now() + 3600_000 ) ),
				} )
			).body,
			sync: await automation( since ).poll(),
		} );

		const fromIndex = await read();
		expect( fromIndex ).toEqual( {
			plain: [ ...store ].sort( ( a, b ) => a.id - b.id ),
			bounded: [ store[ 1 ] ],
			sync: byPaidAt,
		} );
		// A site that filters order items: stored snapshots cannot say what WooCommerce's getters
		// would, so WooCommerce's own queries serve, the paid moment asked of its meta and date_paid.
		await withPluginActive( ITEMS_FILTER, async () => {
			expect( await read() ).toEqual( fromIndex );
		} );
	} );
} );

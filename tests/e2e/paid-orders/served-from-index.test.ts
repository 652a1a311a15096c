import { adminClient } from '../support/clients';
import { commerce, iso, nextSecond, type Product } from '../support/commerce';
import { listPaid, type PaidOrder } from '../support/paid-orders';
import { expectedFromStore } from '../../support/paid-order-shape';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

/**
 * Pages are served from the plugin's index of paid orders, which the order hooks keep: every
 * change made through the store shows on the next read, as the store's own REST API shows it.
 * What belongs to the products (a line's SKU) is read when the page is, not when the order was
 * saved. A site that changes which statuses count as paid is served from WooCommerce until the
 * index has been walked again for the new ones.
 */
describe( 'paid-orders endpoint: served from the index, in step with the store', () => {
	const driver = commerce();
	const run = Date.now().toString( 36 );
	const PAID_STATUSES = 'paid-statuses-on-hold/paid-statuses-on-hold';
	const PROBE = 'paid-index-probe/paid-index-probe';
	let account: ServiceAccount;
	let product: Product;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'paid-orders-index' );
		[ product ] = ( await driver.createProducts( [
			{ name: 'Index stool', sku: `STOOL-${ run }`, price: '35.00' },
		] ) ) as [ Product ];
	} );

	/** The endpoint's view of these orders (and only these), in id order. */
	async function served( ids: number[], since: string ): Promise< PaidOrder[] > {
		const result = await listPaid( account.client, {
			orderby: 'id',
			order: 'asc',
			per_page: 100,
			modified_after: since,
		} );
		expect( result.status ).toBe( 200 );
		return result.body.filter( ( order ) => ids.includes( order.id ) );
	}

	/** What the store says of them. */
	async function store( ids: number[] ): Promise< PaidOrder[] > {
		return Promise.all( ids.map( async ( id ) => expectedFromStore( await driver.getOrder( id ) ) ) );
	}

	it( 'shows each change made through the store on the next read: billing, status, a product’s SKU, leaving the paid statuses', async () => {
		const since = iso( await nextSecond() );
		const ids = await driver.createOrders(
			[ 1, 2 ].map( ( quantity ) => ( {
				status: 'processing' as const,
				billing: { first_name: 'Ada', last_name: 'Byron', email: `ada-${ run }-${ quantity }@example.com` },
				line_items: [ { product_id: product.id, quantity } ],
			} ) )
		);
		const [ first, second ] = ids as [ number, number ];
		expect( await served( ids, since ) ).toEqual( await store( ids ) );

		await driver.setBilling( first, {
			first_name: 'Augusta',
			last_name: 'King',
			email: `augusta-${ run }@example.com`,
		} );
		await driver.setStatus( second, 'completed' );
		await driver.setSku( product.id, `STOOL-${ run }-B` );
		const after = await served( ids, since );
		expect( after ).toEqual( await store( ids ) );
		expect( after.map( ( order ) => [ order.customer.email, order.status, order.line_items[ 0 ]?.sku ] ) ).toEqual(
			[
				[ `augusta-${ run }@example.com`, 'processing', `STOOL-${ run }-B` ],
				[ `ada-${ run }-2@example.com`, 'completed', `STOOL-${ run }-B` ],
			]
		);

		await driver.setStatus( first, 'cancelled' );
		expect( ( await served( ids, since ) ).map( ( order ) => order.id ) ).toEqual( [ second ] );
	} );

	it( 'serves the orders of a status a site adds to the paid ones, from WooCommerce until the index holds them', async () => {
		const since = iso( await nextSecond() );
		const [ held, paid ] = ( await driver.createOrders( [
			{ status: 'on-hold', line_items: [ { product_id: product.id, quantity: 1 } ] },
			{ status: 'processing', line_items: [ { product_id: product.id, quantity: 1 } ] },
		] ) ) as [ number, number ];
		expect( ( await served( [ held, paid ], since ) ).map( ( order ) => order.id ) ).toEqual( [ paid ] );
		// A walk is under way for the statuses paid now (as after a rebuild or a change of order
		// storage) when the site adds a status: the walk must start over for the new set, not
		// finish for the former one.
		const rebuilt = await adminClient().post< { statuses: string[] } >(
			'/service-integration/v1/paid-orders/index/rebuild',
			{ keep_serving: false }
		);
		expect( rebuilt.status ).toBe( 202 );
		expect( rebuilt.body.statuses ).toEqual( [ 'completed', 'processing' ] );

		await withPluginActive( PAID_STATUSES, async () => {
			// The first request to see the new statuses is the index's status: it starts the walk
			// for them and says so (never "not serving, not walking", which would read as stuck).
			const status = await adminClient().get< { serving: boolean; walking: boolean; statuses: string[] } >(
				'/service-integration/v1/paid-orders/index'
			);
			expect( status.body.statuses ).toEqual( [ 'completed', 'on-hold', 'processing' ] );
			expect( status.body.serving || status.body.walking ).toBe( true );
			// The index has no row for the on-hold order: this read is WooCommerce's.
			expect( await served( [ held, paid ], since ) ).toEqual( await store( [ held, paid ] ) );
			await withPluginActive( PROBE, async () => {
				const admin = adminClient();
				// The index walks again for the statuses paid now (Action Scheduler may already have
				// run that walk: the answer above is what shows nothing stale was served).
				const before = await admin.get< { state: { statuses: string[] } } >( '/paid-index-probe/v1/state' );
				expect( before.body.state.statuses ).toEqual( [ 'completed', 'on-hold', 'processing' ] );
				const walked = await admin.post< { state: { ready: boolean; walk: number | null } } >(
					'/paid-index-probe/v1/walk',
					{}
				);
				expect( walked.body.state ).toEqual( expect.objectContaining( { ready: true, walk: null } ) );
				const rows = await admin.get< Array< { order_id: number } > >(
					`/paid-index-probe/v1/rows?ids[]=${ held }&ids[]=${ paid }`
				);
				expect( rows.body.map( ( row ) => row.order_id ) ).toEqual( [ held, paid ] );
			} );
			// From the index now, the same answer.
			expect( await served( [ held, paid ], since ) ).toEqual( await store( [ held, paid ] ) );
		} );

		// Back to processing and completed: WooCommerce again until walked, and never the on-hold
		// order, whose row the walk's sweep then removes.
		expect( ( await served( [ held, paid ], since ) ).map( ( order ) => order.id ) ).toEqual( [ paid ] );
		await withPluginActive( PROBE, async () => {
			const walked = await adminClient().post< { state: { ready: boolean } } >( '/paid-index-probe/v1/walk', {} );
			expect( walked.body.state.ready ).toBe( true );
			const rows = await adminClient().get< Array< { order_id: number } > >(
				`/paid-index-probe/v1/rows?ids[]=${ held }&ids[]=${ paid }`
			);
			expect( rows.body.map( ( row ) => row.order_id ) ).toEqual( [ paid ] );
		} );
		expect( ( await served( [ held, paid ], since ) ).map( ( order ) => order.id ) ).toEqual( [ paid ] );
	} );

	it( 'leaves a walk for other paid statuses than a run sees to a run that sees them', async () => {
		const since = iso( await nextSecond() );
		const [ held ] = ( await driver.createOrders( [
			{ status: 'on-hold', line_items: [ { product_id: product.id, quantity: 1 } ] },
		] ) ) as [ number ];
		await withPluginActive( PAID_STATUSES, async () => {
			await withPluginActive( PROBE, async () => {
				const admin = adminClient();
				// A walk for the statuses paid now, left unqueued so that only this test runs it.
				const reset = await admin.post< {
					state: { walk: number | null; statuses: string[] };
					walk_scheduled: boolean;
				} >( '/paid-index-probe/v1/reset', { queue: false } );
				expect( reset.body.state ).toEqual(
					expect.objectContaining( { walk: 0, statuses: [ 'completed', 'on-hold', 'processing' ] } )
				);
				expect( reset.body.walk_scheduled ).toBe( false );
				// A queue runner loaded before on-hold counted as paid runs the walk: it must not
				// step it (its batches would skip the on-hold orders and end the walk without them),
				// and hands it over to a later run.
				const stale = await admin.post< { state: unknown; rows: number; walk_scheduled: boolean } >(
					'/paid-index-probe/v1/walk',
					{ statuses: [ 'processing', 'completed' ], runs: 1 }
				);
				expect( stale.body.state ).toEqual( reset.body.state );
				expect( stale.body.rows ).toBe( 0 );
				expect( stale.body.walk_scheduled ).toBe( true );
				// Meanwhile the pages are WooCommerce's, and answer as the index's do: not counted
				// when the client does not ask for the count.
				const uncounted = await listPaid( account.client, { modified_after: since, with_total: 'false' } );
				expect( uncounted.status ).toBe( 200 );
				expect( [ uncounted.headers.get( 'x-wp-total' ), uncounted.headers.get( 'x-wp-totalpages' ) ] ).toEqual(
					[ null, null ]
				);
				expect( uncounted.body.map( ( order ) => order.id ) ).toEqual( [ held ] );
				// A WP-Cron run begun before on-hold counted as paid reconciles: it must not start a
				// walk for its statuses in place of this one.
				const staleReconcile = await admin.post< { state: unknown } >( '/paid-index-probe/v1/reconcile', {
					statuses: [ 'processing', 'completed' ],
					began_before_walk: true,
				} );
				expect( staleReconcile.body.state ).toEqual( reset.body.state );
				// A run that sees the walk's statuses walks it, on-hold order included.
				const walked = await admin.post< { state: { ready: boolean; walk: number | null } } >(
					'/paid-index-probe/v1/walk',
					{}
				);
				expect( walked.body.state ).toEqual( expect.objectContaining( { ready: true, walk: null } ) );
				const rows = await admin.get< Array< { order_id: number } > >(
					`/paid-index-probe/v1/rows?ids[]=${ held }`
				);
				expect( rows.body.map( ( row ) => row.order_id ) ).toEqual( [ held ] );
				// A request begun after the walk started that counts other statuses as paid does
				// start a walk for them (as WP-Cron's reconcile after a plugin is deactivated).
				const reconciled = await admin.post< { state: { walk: number | null; statuses: string[] } } >(
					'/paid-index-probe/v1/reconcile',
					{ statuses: [ 'processing', 'completed' ] }
				);
				expect( reconciled.body.state ).toEqual(
					expect.objectContaining( { walk: 0, statuses: [ 'completed', 'processing' ] } )
				);
			} );
			expect( await served( [ held ], since ) ).toEqual( await store( [ held ] ) );
		} );
	} );
} );

import { adminClient } from '../support/clients';
import { commerce, iso, nextSecond, type Product } from '../support/commerce';
import { listPaid, untilSettled, type PaidOrder } from '../support/paid-orders';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

/**
 * The sync order over a backlog of a few thousand orders, where pages end inside seconds that
 * hold more orders than a page, read from the plugin's index of paid orders and, before the
 * index is complete, from WooCommerce's own queries. What is expected always comes from the
 * store's plain listing (orderby=id, WooCommerce's query alone), sorted by (paid_at, id).
 *
 * The orders are paid 100 at a time through WooCommerce's REST batch route, so each second holds
 * as many orders as the store paid in it (tens), and pages of 90 end inside such seconds: inside a
 * batch, not between two (pages of 100 would end where a batch does, and the end of one request
 * and the start of the next can put a second between them).
 *
 * The backlog is set up once and no test changes its orders. Tests that count it read exactly
 * the backlog (`modified_after` / `modified_before` around its creation); tests that compare the
 * walk with the store's listing read everything changed since the backlog began, as both sides
 * see the orders other tests added; a test that changes or adds orders makes its own.
 */
const ORDERS = 2000;
const PAID = 1200;
const PAGE = 90;
const PROBE = 'paid-index-probe/paid-index-probe';
const COUNTER = 'query-counter/query-counter';
const ITEMS_FILTER = 'order-items-filter/order-items-filter';

/** Which orders a test reads: by modification time, so it reads only its own data. */
interface Window {
	modified_after: string;
	modified_before?: string;
}

interface IndexState {
	state: { ready: boolean; walk: number | null; walked_at: number };
	rows: number;
	walk_scheduled: boolean;
	check_scheduled: boolean;
}

describe( 'paid-orders endpoint: the sync order over a backlog of thousands of orders', () => {
	const driver = commerce();
	const admin = adminClient();
	let account: ServiceAccount;
	let bench: Product;
	/** Exactly the backlog: changed at or after its first second, before the second after it was paid. */
	let backlog: Window;
	/** The backlog and whatever later tests add: for comparing the walk with the store at one moment. */
	let sinceBacklog: Window;
	let paid: number[];
	let pending: number[];

	async function probe< T = IndexState >( path: string, data?: unknown ): Promise< T > {
		const result =
			data === undefined
				? await admin.get< T >( `/paid-index-probe/v1${ path }` )
				: await admin.post< T >( `/paid-index-probe/v1${ path }`, data );
		if ( result.status !== 200 ) {
			throw new Error(
				`The index probe answered HTTP ${ result.status } to ${ path }: ${ JSON.stringify( result.body ) }`
			);
		}
		return result.body;
	}

	/** What the store says: every paid order of the window, sorted by (paid_at, id). */
	async function expected( window: Window ): Promise< PaidOrder[] > {
		const all: PaidOrder[] = [];
		for ( let page = 1, pages = 1; page <= pages; page++ ) {
			const result = await listPaid( account.client, {
				orderby: 'id',
				order: 'asc',
				per_page: 100,
				page,
				...window,
				_fields: 'id,paid_at',
			} );
			expect( result.status ).toBe( 200 );
			all.push( ...result.body );
			pages = Number( result.headers.get( 'x-wp-totalpages' ) );
		}
		return all.sort( ( a, b ) => ( a.paid_at ?? '' ).localeCompare( b.paid_at ?? '' ) || a.id - b.id );
	}

	/** An automation's poll from the start: follows its cursor until a page comes back empty. */
	async function walk( window: Window, perPage = PAGE ): Promise< { orders: PaidOrder[]; splitSeconds: number } > {
		const orders: PaidOrder[] = [];
		let cursor: { paid_after?: string; after_id?: number } = {};
		let splitSeconds = 0;
		for ( let guard = 0; guard < 200; guard++ ) {
			const page = await listPaid( account.client, {
				orderby: 'paid_at',
				per_page: perPage,
				...cursor,
				...window,
				_fields: 'id,paid_at',
			} );
			expect( page.status ).toBe( 200 );
			if ( page.body.length === 0 ) {
				return { orders, splitSeconds };
			}
			const last = page.body[ page.body.length - 1 ] as PaidOrder;
			if ( orders.length > 0 && orders[ orders.length - 1 ]?.paid_at === page.body[ 0 ]?.paid_at ) {
				splitSeconds++;
			}
			orders.push( ...page.body );
			cursor = { paid_after: last.paid_at as string, after_id: last.id };
		}
		throw new Error( 'The poll did not end' );
	}

	function ids( orders: PaidOrder[] ): number[] {
		return orders.map( ( o ) => o.id );
	}

	beforeAll( async () => {
		account = await provisionServiceAccount( 'paid-orders-scale' );
		[ bench ] = ( await driver.createProducts( [
			{ name: 'Bench', sku: `BENCH-${ Date.now().toString( 36 ) }`, price: '80.00' },
		] ) ) as [ Product ];
		const since = iso( await nextSecond() );
		// Created unpaid, then paid through the store, whose hooks the index follows.
		const created: number[] = [];
		for ( let i = 0; i < ORDERS; i += 500 ) {
			const count = Math.min( 500, ORDERS - i );
			created.push(
				...( await driver.createOrders(
					Array.from( { length: count }, () => ( {
						status: 'pending' as const,
						line_items: [ { product_id: bench.id, quantity: 1 } ],
					} ) )
				) )
			);
		}
		// Every other order among the first ones stays unpaid, so paid ids are not contiguous.
		paid = created.filter( ( _, i ) => i % 10 < 7 ).slice( 0, PAID );
		pending = created.filter( ( id ) => ! paid.includes( id ) );
		await driver.pay( paid );
		await untilSettled( [ { paid_at: iso( new Date() ) } ] );
		backlog = { modified_after: since, modified_before: iso( await nextSecond() ) };
		sinceBacklog = { modified_after: since };
	}, 1_800_000 );

	it( 'serves every paid order exactly once, in (paid_at, id) order, across page boundaries inside seconds', async () => {
		const store = await expected( backlog );
		expect( store ).toHaveLength( PAID );
		expect( new Set( ids( store ) ) ).toEqual( new Set( paid ) );

		const { orders, splitSeconds } = await walk( backlog );
		expect( ids( orders ) ).toEqual( ids( store ) );
		expect( orders.map( ( o ) => o.paid_at ) ).toEqual( store.map( ( o ) => o.paid_at ) );
		// Tens of orders a second against pages of 90: some page ended inside a second.
		expect( splitSeconds ).toBeGreaterThan( 0 );
		expect( ids( orders ).filter( ( id ) => pending.includes( id ) ) ).toEqual( [] );
	} );

	it( 'counts the set and pages it by number with the same order', async () => {
		const store = await expected( backlog );
		const params = { orderby: 'paid_at', per_page: PAGE, ...backlog, _fields: 'id' };
		const last = Math.ceil( PAID / PAGE );
		const pages = await Promise.all(
			[ 1, 7, last ].map( ( page ) => listPaid( account.client, { ...params, page } ) )
		);
		expect( pages.map( ( p ) => p.headers.get( 'x-wp-total' ) ) ).toEqual( [
			String( PAID ),
			String( PAID ),
			String( PAID ),
		] );
		expect( pages.map( ( p ) => ids( p.body ) ) ).toEqual(
			[ 1, 7, last ].map( ( n ) => ids( store.slice( ( n - 1 ) * PAGE, n * PAGE ) ) )
		);
		expect( ( await listPaid( account.client, { ...params, page: last + 1 } ) ).status ).toBe( 400 );
	} );

	it( 'drops an order that leaves the paid statuses, and serves it again once paid again', async () => {
		// An order of its own, so the backlog the other tests count stays as it was.
		const own = { modified_after: iso( await nextSecond() ) };
		const [ leaving ] = ( await driver.createOrders( [
			{ status: 'processing', line_items: [ { product_id: bench.id, quantity: 1 } ] },
		] ) ) as [ number ];
		await untilSettled( [ { paid_at: iso( new Date() ) } ] );
		expect( ids( ( await walk( own ) ).orders ) ).toEqual( [ leaving ] );

		await driver.setStatus( leaving, 'cancelled' );
		await withPluginActive( PROBE, async () => {
			expect( await probe< unknown[] >( `/rows?ids[]=${ leaving }` ) ).toEqual( [] );
		} );
		expect( ids( ( await walk( own ) ).orders ) ).not.toContain( leaving );

		await driver.setStatus( leaving, 'processing' );
		await withPluginActive( PROBE, async () => {
			expect( await probe< Array< { order_id: number } > >( `/rows?ids[]=${ leaving }` ) ).toEqual( [
				expect.objectContaining( { order_id: leaving } ),
			] );
		} );
		await untilSettled( [ { paid_at: iso( new Date() ) } ] );
		const store = ids( await expected( own ) );
		expect( store ).toEqual( [ leaving ] );
		expect( ids( ( await walk( own ) ).orders ) ).toEqual( store );
	} );

	it( 'on a store that had orders before the plugin: serves the same order while the index is filled, then from the index', async () => {
		const store = ids( await expected( sinceBacklog ) );
		await withPluginActive( PROBE, async () => {
			const reset = await probe( '/reset', {} );
			expect( reset.state.ready ).toBe( false );
			expect( reset.rows ).toBe( 0 );
			expect( reset.walk_scheduled ).toBe( true );

			// Not ready: read from WooCommerce's queries, same answer.
			expect( ids( ( await walk( sinceBacklog ) ).orders ) ).toEqual( store );

			const walked = await probe( '/walk', {} );
			expect( walked.state ).toEqual( expect.objectContaining( { ready: true, walk: null } ) );
			expect( walked.rows ).toBeGreaterThanOrEqual( PAID );
			expect( walked.check_scheduled ).toBe( true );
		} );
		expect( ids( ( await walk( sinceBacklog ) ).orders ) ).toEqual( store );
	} );

	it( 'serves the rows it holds, and the daily check brings rows written behind its back in step with the store', async () => {
		const store = await expected( sinceBacklog );
		const [ moved, altered, missing ] = store.slice( 500 ) as [ PaidOrder, PaidOrder, PaidOrder ];
		const [ unpaid ] = pending as [ number ];
		const truePaidAt = Date.parse( moved.paid_at as string ) / 1000;
		const now = Math.floor( Date.now() / 1000 );
		type Row = { order_id: number; paid_at: number; modified_at: number; snapshot: { total: string } };
		await withPluginActive( PROBE, async () => {
			const [ alteredRow ] = await probe< Row[] >( `/rows?ids[]=${ altered.id }` );
			// Paid an hour earlier than the store says, a row for an unpaid order, a wrong total, a row lost.
			await probe( '/tamper', {
				set: [
					{ order_id: moved.id, paid_at: truePaidAt - 3600, modified_at: now },
					{ order_id: unpaid, paid_at: truePaidAt, modified_at: now },
					{
						order_id: altered.id,
						paid_at: alteredRow?.paid_at,
						modified_at: alteredRow?.modified_at,
						total: '0.01',
					},
				],
				delete: [ missing.id ],
			} );

			// The index decides what a page holds: the rows as they were written are served.
			const served = ( await walk( sinceBacklog ) ).orders;
			expect( ids( served ) ).toContain( unpaid );
			expect( ids( served ) ).not.toContain( missing.id );
			expect( ids( served ).indexOf( moved.id ) ).toBeLessThan( ids( store ).indexOf( moved.id ) );

			const checked = await probe( '/walk', { check: true } );
			expect( checked.state ).toEqual( expect.objectContaining( { ready: true, walk: null } ) );
			const rows = await probe< Row[] >(
				`/rows?ids[]=${ moved.id }&ids[]=${ unpaid }&ids[]=${ altered.id }&ids[]=${ missing.id }`
			);
			expect( rows.map( ( row ) => [ row.order_id, row.paid_at ] ) ).toEqual(
				[ moved, altered, missing ]
					.map( ( order ): [ number, number ] => [ order.id, Date.parse( order.paid_at as string ) / 1000 ] )
					.sort( ( a, b ) => a[ 0 ] - b[ 0 ] )
			);
			expect( rows.find( ( row ) => row.order_id === altered.id )?.snapshot.total ).toBe(
				alteredRow?.snapshot.total
			);
			expect( alteredRow?.snapshot.total ).not.toBe( '0.01' );
		} );
		expect( ids( ( await walk( sinceBacklog ) ).orders ) ).toEqual( ids( store ) );
	} );

	it( 'reads a page of 50 orders of three lines each in about the queries of a page of 5: orders, items, item meta and products in bulk', async () => {
		const products = await driver.createProducts(
			[ 1, 2, 3 ].map( ( n ) => ( {
				name: `Part ${ n }`,
				sku: `PART-${ n }-${ Date.now().toString( 36 ) }`,
				price: '10.00',
			} ) )
		);
		const from = iso( await nextSecond() );
		await driver.createOrders(
			Array.from( { length: 50 }, () => ( {
				status: 'processing' as const,
				line_items: products.map( ( product ) => ( { product_id: product.id, quantity: 2 } ) ),
			} ) )
		);
		const queriesFor = async ( perPage: number ): Promise< number > => {
			const result = await account.client.request< string >( {
				path: `/service-integration/v1/commandes-payees?per_page=${ perPage }&orderby=id&modified_after=${ encodeURIComponent( from ) }`,
				headers: { 'x-service-integration-query-probe': '1' },
			} );
			expect( result.status ).toBe( 200 );
			const report = /<!-- query-counter (\{.*\}) -->/s.exec( String( result.body ) );
			if ( ! report ) {
				throw new Error( 'No query-counter report in the response (is the test plugin active?)' );
			}
			return ( JSON.parse( report[ 1 ] as string ) as { num_queries: number } ).num_queries;
		};
		// The fewest of three: a request can also run WordPress's own occasional work (a cron
		// check, a transient refresh), which only ever adds queries.
		const fewest = async ( perPage: number ): Promise< number > =>
			Math.min( await queriesFor( perPage ), await queriesFor( perPage ), await queriesFor( perPage ) );
		await withPluginActive( COUNTER, async () => {
			const five = await fewest( 5 );
			const fifty = await fewest( 50 );
			// 45 more orders and 135 more lines add no query of their own: no items query per order,
			// no meta query per line (the lines are read from the primed rows, Commerce\Line_Items,
			// not built one by one), no product query per line. A little slack for WordPress's own
			// occasional work, far below one query per order.
			expect( fifty - five ).toBeLessThan( 10 );
		} );
	} );

	it( 'shows the lines WooCommerce shows when a site filters order items (woocommerce_order_get_items)', async () => {
		const tag = Date.now().toString( 36 );
		const products = await driver.createProducts( [
			{ name: 'Oak chair', sku: `OAK-${ tag }`, price: '10.00' },
			{ name: 'Gift wrap', sku: `WRAP-${ tag }`, price: '2.00' },
		] );
		const from = iso( await nextSecond() );
		const orderIds = await driver.createOrders(
			[ 1, 2 ].map( ( quantity ) => ( {
				status: 'processing' as const,
				line_items: products.map( ( product ) => ( { product_id: product.id, quantity } ) ),
			} ) )
		);
		const endpoint = async (): Promise< string[] > => {
			const result = await listPaid( account.client, {
				orderby: 'id',
				order: 'asc',
				per_page: 50,
				modified_after: from,
			} );
			expect( result.status ).toBe( 200 );
			return result.body.flatMap( ( order ) => order.line_items.map( ( line ) => line.name ) );
		};
		const store = async (): Promise< string[] > =>
			( await Promise.all( orderIds.map( ( id ) => driver.getOrder( id ) ) ) ).flatMap( ( order ) =>
				( order.line_items as Array< { name: string } > ).map( ( line ) => line.name )
			);
		expect( await endpoint() ).toEqual( [ 'Oak chair', 'Gift wrap', 'Oak chair', 'Gift wrap' ] );
		await withPluginActive( ITEMS_FILTER, async () => {
			expect( await store() ).toEqual( [ 'Oak chair', 'Oak chair' ] );
			expect( await endpoint() ).toEqual( await store() );
		} );
	} );
} );

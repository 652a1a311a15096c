import { commerce, iso, nextSecond, type Product } from '../support/commerce';
import { links, listPaid, query, restPath, untilSettled, type PaidOrder } from '../support/paid-orders';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import { sleep } from '../../support/wait-until';

/**
 * How an automation polls every minute without missing or repeating an order: it reads in
 * the order (paid_at, id) and keeps the last order it received as its cursor,
 * `paid_after=<paid_at>&after_id=<id>`. Orders paid in the same second are ordered by id,
 * so a page boundary inside that second loses nothing. Only orders paid at least the settle
 * delay (5 s) ago are served, so a payment still being saved cannot land behind the cursor.
 *
 * Orders are paid in one batch through WooCommerce's REST API, which stamps them within a second
 * or two, so pages of three cut through seconds shared by several orders; the test then waits
 * for the settle delay.
 *
 * Each test is one automation with its own cursor over its own orders: it opens a window at a
 * fresh second (`modified_after`), so orders written by the tests before it, in any order, are
 * not in what it reads.
 */
const SETTLE_MS = 6000;
const PAGE = 3;

interface Cursor {
	paid_after: string;
	after_id?: number;
}

describe( 'paid-orders endpoint: incremental sync', () => {
	const driver = commerce();
	const run = Date.now().toString( 36 );
	let account: ServiceAccount;
	let product: Product;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'paid-orders-sync' );
		[ product ] = ( await driver.createProducts( [
			{ name: 'Stool', sku: `STOOL-${ run }`, price: '25.00' },
		] ) ) as [ Product ];
	} );

	/**
	 * The start of a test's own window: a fresh second, so every order written before it (by
	 * an earlier test or file) was changed before it and `modified_after` leaves it out.
	 */
	async function ownWindow(): Promise< string > {
		return iso( await nextSecond() );
	}

	/** Ten minutes before the window: where an automation that starts before its orders begins. */
	function startOf( since: string ): string {
		return iso( new Date( Date.parse( since ) - 10 * 60_000 ) );
	}

	/**
	 * An automation polling the test's window; its cursor starts before the window's orders and
	 * moves with every page it receives.
	 */
	function automation( since: string ): { poll: () => Promise< PaidOrder[] >; cursor: () => Cursor } {
		let cursor: Cursor = { paid_after: startOf( since ) };

		/** One poll: follows the cursor page by page until a page comes back empty. */
		async function poll(): Promise< PaidOrder[] > {
			const received: PaidOrder[] = [];
			for ( let guard = 0; guard < 50; guard++ ) {
				const page = await listPaid( account.client, {
					orderby: 'paid_at',
					per_page: PAGE,
					paid_after: cursor.paid_after,
					after_id: cursor.after_id,
					// Isolation from other tests only; an automation does not need it.
					modified_after: since,
					_fields: 'id,paid_at,status',
				} );
				expect( page.status ).toBe( 200 );
				if ( page.body.length === 0 ) {
					return received;
				}
				received.push( ...page.body );
				const last = page.body[ page.body.length - 1 ] as PaidOrder;
				cursor = { paid_after: last.paid_at as string, after_id: last.id };
			}
			throw new Error( 'The poll did not end' );
		}

		return { poll, cursor: () => cursor };
	}

	async function createPending( count: number ): Promise< number[] > {
		return driver.createOrders(
			Array.from( { length: count }, () => ( {
				status: 'pending' as const,
				line_items: [ { product_id: product.id, quantity: 1 } ],
			} ) )
		);
	}

	/** Pays orders in one batch (WooCommerce stamps them within a second or two), then waits out the settle delay. */
	async function payTogether( ids: number[] ): Promise< void > {
		await driver.pay( ids );
		await sleep( SETTLE_MS );
	}

	/** Twelve settled paid orders in the window, paid in one batch, for the tests that walk a whole set. */
	async function twelvePaid(): Promise< number[] > {
		const ids = await createPending( 12 );
		await payTogether( ids );
		return ids;
	}

	it( 'delivers orders paid in the same second exactly once, in (paid_at, id) order, across page boundaries', async () => {
		const since = await ownWindow();
		const { poll } = automation( since );
		const batch = await createPending( 7 );
		await payTogether( batch );

		const received = await poll();
		expect( received.map( ( o ) => o.id ) ).toEqual( [ ...batch ].sort( ( a, b ) => a - b ) );
		const keys = received.map( ( o ) => `${ o.paid_at }#${ String( o.id ).padStart( 10, '0' ) }` );
		expect( keys ).toEqual( [ ...keys ].sort() );
	} );

	it( 'resumes from the saved cursor: only orders paid since, none repeated', async () => {
		const since = await ownWindow();
		const { poll } = automation( since );
		// A first poll receives the orders paid so far and saves its cursor after them.
		const firstBatch = await createPending( 7 );
		await payTogether( firstBatch );
		expect( ( await poll() ).map( ( o ) => o.id ) ).toEqual( [ ...firstBatch ].sort( ( a, b ) => a - b ) );

		const secondBatch = await createPending( 4 );
		await payTogether( secondBatch );

		const received = await poll();
		expect( received.map( ( o ) => o.id ) ).toEqual( [ ...secondBatch ].sort( ( a, b ) => a - b ) );
		expect( await poll() ).toEqual( [] );
	} );

	it( 'does not deliver an order again when it changes after payment (e.g. completed)', async () => {
		const since = await ownWindow();
		const { poll } = automation( since );
		const batch = await createPending( 2 );
		await payTogether( batch );
		expect( ( await poll() ).map( ( o ) => o.id ) ).toEqual( [ ...batch ].sort( ( a, b ) => a - b ) );

		await driver.setStatus( batch[ 0 ] as number, 'completed' );
		expect( await poll() ).toEqual( [] );
	} );

	// Under a busy Playground a REST call can take longer than the 5 s default, so "just paid" cannot be arranged by timing: a test plugin sets a longer settle
	// delay for one request (X-Test-Settle-Seconds), and the default one is checked by its bound.
	it( 'holds back a payment younger than the settle delay, then delivers it', async () => {
		const since = await ownWindow();
		const { poll, cursor } = automation( since );
		// The automation is up to date: its cursor is past the orders paid earlier.
		const earlier = await createPending( 2 );
		await payTogether( earlier );
		expect( ( await poll() ).map( ( o ) => o.id ) ).toEqual( [ ...earlier ].sort( ( a, b ) => a - b ) );

		const [ late ] = ( await createPending( 1 ) ) as [ number ];
		await driver.pay( [ late ] );
		const paidAt = (
			await listPaid( account.client, { modified_after: since, per_page: 100, _fields: 'id,paid_at' } )
		).body.find( ( o ) => o.id === late ) as PaidOrder;
		const sync = {
			orderby: 'paid_at',
			paid_after: cursor().paid_after,
			after_id: cursor().after_id,
			modified_after: since,
			_fields: 'id',
		};

		await withPluginActive( 'paid-orders-settle-delay/paid-orders-settle-delay', async () => {
			const held = await account.client.request< PaidOrder[] >( {
				path: query( sync ),
				headers: { 'x-test-settle-seconds': '3600' },
			} );
			expect( held.status ).toBe( 200 );
			expect( held.body.map( ( o ) => o.id ) ).not.toContain( late );
			expect( Date.parse( held.headers.get( 'x-paid-before' ) ?? '' ) ).toBeLessThanOrEqual(
				Date.parse( paidAt.paid_at as string )
			);
		} );

		// The default delay: the bound is 5 s before the request, and the order is served exactly
		// when it was paid before that bound.
		const asked = Date.now();
		const early = await listPaid( account.client, sync );
		const bound = Date.parse( early.headers.get( 'x-paid-before' ) ?? '' );
		expect( bound ).toBeGreaterThanOrEqual( Math.floor( asked / 1000 ) * 1000 - 5000 );
		expect( bound ).toBeLessThanOrEqual( Date.now() - 4000 );
		expect( early.body.map( ( o ) => o.id ).includes( late ) ).toBe(
			Date.parse( paidAt.paid_at as string ) < bound
		);

		await untilSettled( [ paidAt ] );
		expect( ( await poll() ).map( ( o ) => o.id ) ).toEqual( [ late ] );
	} );

	it( 'puts the cursor in the next Link, so following links walks the same order', async () => {
		const since = await ownWindow();
		const created = await twelvePaid();
		let page = await listPaid( account.client, {
			orderby: 'paid_at',
			per_page: 4,
			paid_after: startOf( since ),
			modified_after: since,
			_fields: 'id,paid_at',
		} );
		const walked = [ ...page.body ];
		while ( links( page ).next ) {
			const next = new URL( links( page ).next as string );
			const last = page.body[ page.body.length - 1 ] as PaidOrder;
			expect( next.searchParams.get( 'paid_after' ) ).toBe( last.paid_at );
			expect( next.searchParams.get( 'after_id' ) ).toBe( String( last.id ) );
			page = await account.client.get< PaidOrder[] >( restPath( links( page ).next as string ) );
			walked.push( ...page.body );
		}
		const ids = walked.map( ( o ) => o.id );
		expect( ids ).toHaveLength( 12 );
		expect( new Set( ids ).size ).toBe( 12 );
		expect( [ ...ids ].sort( ( a, b ) => a - b ) ).toEqual( [ ...created ].sort( ( a, b ) => a - b ) );
	} );

	it( 'pages the paid_at order by page number too, with the same totals', async () => {
		const since = await ownWindow();
		await twelvePaid();
		const params = {
			orderby: 'paid_at',
			per_page: 5,
			paid_after: startOf( since ),
			modified_after: since,
			_fields: 'id',
		};
		const pages = await Promise.all(
			[ 1, 2, 3 ].map( ( page ) => listPaid( account.client, { ...params, page } ) )
		);
		expect( pages.map( ( p ) => p.headers.get( 'x-wp-total' ) ) ).toEqual( [ '12', '12', '12' ] );
		expect( pages.map( ( p ) => p.body.length ) ).toEqual( [ 5, 5, 2 ] );
		const byPage = pages.flatMap( ( p ) => p.body.map( ( o ) => o.id ) );
		const byCursor = ( await listPaid( account.client, { ...params, per_page: 100 } ) ).body.map( ( o ) => o.id );
		expect( byPage ).toEqual( byCursor );
	} );

	it( 'starts at the beginning when the automation has no cursor yet (no paid_after)', async () => {
		const since = await ownWindow();
		await twelvePaid();
		const plain = await listPaid( account.client, {
			per_page: 100,
			orderby: 'id',
			order: 'asc',
			modified_after: since,
			_fields: 'id,paid_at',
		} );
		const expected = [ ...plain.body ]
			.sort( ( a, b ) => ( a.paid_at ?? '' ).localeCompare( b.paid_at ?? '' ) || a.id - b.id )
			.map( ( o ) => o.id );
		expect( expected ).toHaveLength( 12 );

		let page = await listPaid( account.client, {
			orderby: 'paid_at',
			per_page: 5,
			modified_after: since,
			_fields: 'id,paid_at',
		} );
		expect( page.headers.get( 'x-wp-total' ) ).toBe( '12' );
		const walked = [ ...page.body ];
		while ( page.body.length > 0 ) {
			const last = page.body[ page.body.length - 1 ] as PaidOrder;
			page = await listPaid( account.client, {
				orderby: 'paid_at',
				per_page: 5,
				paid_after: last.paid_at as string,
				after_id: last.id,
				modified_after: since,
				_fields: 'id,paid_at',
			} );
			walked.push( ...page.body );
		}
		expect( walked.map( ( o ) => o.id ) ).toEqual( expected );
	} );
} );

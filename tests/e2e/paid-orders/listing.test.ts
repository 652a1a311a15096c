import { commerce, iso, nextSecond, type OrderStatus, type Product } from '../support/commerce';
import { links, listPaid, restPath, untilSettled, type PaidOrder } from '../support/paid-orders';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import { readState } from '../support/environment';
import { debugLogMark, debugLogSince } from '../support/debug-log';
import { withPluginActive } from '../support/plugins';

/**
 * Only paid orders, filtered on the server, with only the declared fields, paged the
 * WordPress way. The orders set up once for the file are read through their own window
 * (`modified_after` / `modified_before` around their creation), so orders made by other test
 * files, or by a test of this file that runs first, do not count.
 */
describe( 'paid-orders endpoint: what it lists', () => {
	const driver = commerce();
	const run = Date.now().toString( 36 );
	let account: ServiceAccount;
	let products: Product[];
	let since: string;
	/** The shared orders' window: changed at or after `since`, before the second after their creation. */
	let sharedOrders: { modified_after: string; modified_before: string };
	const byStatus: Partial< Record< OrderStatus, number > > = {};
	let paid: number[];

	beforeAll( async () => {
		account = await provisionServiceAccount( 'paid-orders-listing' );
		products = await driver.createProducts( [
			{ name: 'Oak chair', sku: `CHAIR-OAK-${ run }`, price: '49.90' },
			{ name: 'Walnut table', sku: `TABLE-WAL-${ run }`, price: '399.00' },
		] );
		since = iso( await nextSecond() );
		const statuses: OrderStatus[] = [
			'pending',
			'on-hold',
			'cancelled',
			'failed',
			'refunded',
			'processing',
			'completed',
		];
		const ids = await driver.createOrders(
			statuses.map( ( status, i ) => ( {
				status,
				billing: { first_name: 'Ada', last_name: `Lovelace-${ i }`, email: `ada-${ i }@example.com` },
				line_items: [
					{ product_id: products[ 0 ]!.id, quantity: i + 1 },
					{ product_id: products[ 1 ]!.id, quantity: 1 },
				],
			} ) )
		);
		statuses.forEach( ( status, i ) => ( byStatus[ status ] = ids[ i ] ) );
		// Four more paid orders for paging; one will be partly refunded, one fully.
		const more = await driver.createOrders(
			[ 1, 2, 3, 4 ].map( ( n ) => ( {
				status: 'processing' as const,
				billing: { email: `more-${ n }@example.com` },
				line_items: [ { product_id: products[ 0 ]!.id, quantity: n } ],
			} ) )
		);
		await driver.refund( more[ 2 ]!, '10.00' );
		await driver.refund( more[ 3 ]!, ( 49.9 * 4 ).toFixed( 2 ) );
		paid = [ byStatus.processing!, byStatus.completed!, more[ 0 ]!, more[ 1 ]!, more[ 2 ]! ].sort(
			( a, b ) => a - b
		);
		sharedOrders = { modified_after: since, modified_before: iso( await nextSecond() ) };
	} );

	it( 'returns processing and completed orders only; pending, on-hold, cancelled, failed and refunded ones never', async () => {
		const result = await listPaid( account.client, { ...sharedOrders, per_page: 100 } );
		expect( result.status ).toBe( 200 );
		expect( result.body.map( ( order ) => order.id ).sort( ( a, b ) => a - b ) ).toEqual( paid );
		expect( new Set( result.body.map( ( order ) => order.status ) ) ).toEqual(
			new Set( [ 'processing', 'completed' ] )
		);
		expect( result.headers.get( 'x-wp-total' ) ).toBe( String( paid.length ) );
	} );

	it( 'keeps a partly refunded order and drops a fully refunded one', async () => {
		const result = await listPaid( account.client, { ...sharedOrders, per_page: 100, _fields: 'id' } );
		const ids = result.body.map( ( order ) => order.id );
		expect( ids ).toContain( paid[ 4 ] );
		expect( ids ).toHaveLength( paid.length );
	} );

	it( 'returns exactly the declared fields, in the declared types', async () => {
		const result = await listPaid( account.client, { ...sharedOrders, per_page: 100 } );
		const order = result.body.find( ( o ) => o.id === byStatus.processing ) as PaidOrder;
		expect( Object.keys( order ).sort() ).toEqual( [
			'currency',
			'customer',
			'date_modified',
			'date_paid',
			'id',
			'line_items',
			'number',
			'paid_at',
			'status',
			'total',
		] );
		expect( order ).toEqual( {
			id: byStatus.processing,
			number: expect.any( String ),
			status: 'processing',
			date_paid: expect.stringMatching( /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/ ),
			// Paid through the REST API's set_paid (payment_complete()): paid when date_paid was stamped.
			paid_at: order.date_paid,
			date_modified: expect.stringMatching( /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/ ),
			currency: expect.stringMatching( /^[A-Z]{3}$/ ),
			total: ( 49.9 * 6 + 399 ).toFixed( 2 ),
			customer: { first_name: 'Ada', last_name: 'Lovelace-5', email: 'ada-5@example.com' },
			line_items: [
				{
					product_id: products[ 0 ]!.id,
					variation_id: 0,
					sku: products[ 0 ]!.sku,
					name: 'Oak chair',
					quantity: 6,
				},
				{
					product_id: products[ 1 ]!.id,
					variation_id: 0,
					sku: products[ 1 ]!.sku,
					name: 'Walnut table',
					quantity: 1,
				},
			],
		} );
		expect( Date.parse( order.date_paid as string ) ).toBeGreaterThanOrEqual( Date.parse( since ) );
	} );

	it( 'narrows the fields with _fields, nested ones included', async () => {
		const result = await listPaid( account.client, { ...sharedOrders, _fields: 'id,customer.email' } );
		expect( result.body.length ).toBe( paid.length );
		for ( const order of result.body ) {
			expect( Object.keys( order ).sort() ).toEqual( [ 'customer', 'id' ] );
			expect( Object.keys( order.customer ) ).toEqual( [ 'email' ] );
		}
	} );

	it( 'pages with page/per_page, X-WP-Total, X-WP-TotalPages and Link, without overlap', async () => {
		const first = await listPaid( account.client, {
			...sharedOrders,
			per_page: 2,
			orderby: 'id',
			order: 'asc',
			_fields: 'id',
		} );
		expect( first.headers.get( 'x-wp-total' ) ).toBe( '5' );
		expect( first.headers.get( 'x-wp-totalpages' ) ).toBe( '3' );
		expect( links( first ) ).not.toHaveProperty( 'prev' );
		expect( links( first ).next ).toContain( 'page=2' );

		const second = await account.client.get< PaidOrder[] >( restPath( links( first ).next as string ) );
		expect( links( second ).prev ).toContain( 'page=1' );
		const third = await account.client.get< PaidOrder[] >( restPath( links( second ).next as string ) );
		expect( links( third ) ).not.toHaveProperty( 'next' );

		const seen = [ ...first.body, ...second.body, ...third.body ].map( ( o ) => o.id );
		expect( [ first.body.length, second.body.length, third.body.length ] ).toEqual( [ 2, 2, 1 ] );
		expect( seen ).toEqual( paid );
	} );

	// On a large store the count behind X-WP-Total is most of what a page costs (bench/README.md):
	// with_total=false skips it, and the next link still says whether orders follow.
	it( 'with with_total=false, serves the same pages without X-WP-Total, the next link still given, in either order', async () => {
		await untilSettled(
			( await listPaid( account.client, { ...sharedOrders, per_page: 100, _fields: 'id,date_paid' } ) ).body
		);
		const plain = { ...sharedOrders, per_page: 2, orderby: 'id', order: 'asc', _fields: 'id', with_total: 'false' };
		const pages: PaidOrder[][] = [];
		let result = await listPaid( account.client, plain );
		for ( let guard = 0; guard < 5; guard++ ) {
			expect( result.status ).toBe( 200 );
			expect( [ result.headers.get( 'x-wp-total' ), result.headers.get( 'x-wp-totalpages' ) ] ).toEqual( [
				null,
				null,
			] );
			pages.push( result.body );
			if ( ! links( result ).next ) {
				break;
			}
			expect( links( result ).next ).toContain( 'with_total=false' );
			result = await account.client.get< PaidOrder[] >( restPath( links( result ).next as string ) );
		}
		expect( pages.map( ( page ) => page.length ) ).toEqual( [ 2, 2, 1 ] );
		expect( pages.flat().map( ( o ) => o.id ) ).toEqual( paid );
		// Past the last page: nothing counted, so an empty page rather than 400.
		const beyond = await listPaid( account.client, { ...plain, page: 4 } );
		expect( { status: beyond.status, body: beyond.body, next: links( beyond ).next } ).toEqual( {
			status: 200,
			body: [],
			next: undefined,
		} );

		const sync = { orderby: 'paid_at', ...sharedOrders, per_page: 2, _fields: 'id,paid_at', with_total: 'false' };
		const counted = await listPaid( account.client, { ...sync, per_page: 100, with_total: undefined } );
		const walked: number[] = [];
		result = await listPaid( account.client, sync );
		for ( let guard = 0; guard < 5; guard++ ) {
			expect( result.status ).toBe( 200 );
			expect( result.headers.get( 'x-wp-total' ) ).toBeNull();
			walked.push( ...result.body.map( ( o ) => o.id ) );
			if ( ! links( result ).next ) {
				break;
			}
			result = await account.client.get< PaidOrder[] >( restPath( links( result ).next as string ) );
		}
		expect( walked ).toEqual( counted.body.map( ( o ) => o.id ) );
		expect( walked ).toHaveLength( paid.length );
	} );

	// WooCommerce does not count when a page comes back empty (HPOS: OrdersTableQuery::run_query()
	// returns before its count query; legacy: WP_Query::set_found_posts() bails out), so its
	// total there is 0: the endpoint must count by itself to tell "beyond the last page" apart
	// from "nothing at all".
	it( 'refuses a page beyond the last one with 400, like core, in either order', async () => {
		// The sync order serves only payments older than the settle delay.
		await untilSettled(
			( await listPaid( account.client, { ...sharedOrders, per_page: 100, _fields: 'id,date_paid' } ) ).body
		);
		for ( const params of [
			{ per_page: 2, page: 4 },
			{ per_page: 2, page: 40 },
			{ per_page: 2, page: 4, orderby: 'date_paid', paid_after: since },
		] ) {
			const result = await listPaid( account.client, { ...sharedOrders, ...params } );
			expect( {
				params,
				status: result.status,
				code: ( result.body as unknown as { code: string } ).code,
			} ).toEqual( { params, status: 400, code: 'rest_paid_orders_invalid_page_number' } );
		}
		// Page 1 of nothing is an empty page, not an error.
		const none = await listPaid( account.client, { ...sharedOrders, paid_before: since, page: 1 } );
		expect( { status: none.status, body: none.body, total: none.headers.get( 'x-wp-total' ) } ).toEqual( {
			status: 200,
			body: [],
			total: '0',
		} );
	} );

	// The documented polling recipe. WooCommerce's HPOS query turns `limit => -1` into
	// `LIMIT 0, 18446744073709551615`, which the SQLite integration (Playground's database)
	// refuses: the endpoint used to answer `[]` with X-WP-Total 5 there.
	it( 'lists every paid order in the sync order (date_paid, id) once settled, by one page or by the cursor', async () => {
		const all = await listPaid( account.client, { ...sharedOrders, per_page: 100, _fields: 'id,date_paid' } );
		await untilSettled( all.body );
		const expected = [ ...all.body ]
			.sort( ( a, b ) => ( a.date_paid as string ).localeCompare( b.date_paid as string ) || a.id - b.id )
			.map( ( o ) => o.id );
		expect( expected ).toHaveLength( paid.length );

		const whole = await listPaid( account.client, {
			orderby: 'date_paid',
			...sharedOrders,
			per_page: 100,
			_fields: 'id,date_paid',
		} );
		expect( whole.status ).toBe( 200 );
		expect( { total: whole.headers.get( 'x-wp-total' ), ids: whole.body.map( ( o ) => o.id ) } ).toEqual( {
			total: String( paid.length ),
			ids: expected,
		} );

		// Two at a time, by the cursor: the reads inside one payment second, and the ranges between.
		const walked: number[] = [];
		let page = await listPaid( account.client, {
			orderby: 'date_paid',
			...sharedOrders,
			per_page: 2,
			_fields: 'id,date_paid',
		} );
		for ( let guard = 0; page.body.length > 0 && guard < 10; guard++ ) {
			expect( page.status ).toBe( 200 );
			walked.push( ...page.body.map( ( o ) => o.id ) );
			const last = page.body[ page.body.length - 1 ] as PaidOrder;
			page = await listPaid( account.client, {
				orderby: 'date_paid',
				...sharedOrders,
				per_page: 2,
				paid_after: last.date_paid as string,
				after_id: last.id,
				_fields: 'id,date_paid',
			} );
		}
		expect( walked ).toEqual( expected );
	} );

	// WooCommerce answers a failed order query with an empty list and a total of 0; served as
	// such, a poller would take it for "nothing new" and never hear of the failure. A test
	// plugin makes the order queries of one request fail (a SELECT from a missing table).
	it( 'answers a database error during the order queries with 500 rest_paid_orders_database_error, never an empty page', async () => {
		const faulty = { 'x-test-order-query-fault': '1' };
		await withPluginActive( 'order-query-fault/order-query-fault', async () => {
			for ( const params of [
				{ per_page: 100 },
				{ per_page: 100, orderby: 'date_paid' },
				{ per_page: 2, orderby: 'date_paid', paid_after: since },
			] ) {
				const mark = debugLogMark();
				const search = new URLSearchParams(
					Object.entries( { ...sharedOrders, ...params } ).map( ( [ k, v ] ) => [ k, String( v ) ] )
				);
				const result = await account.client.request< {
					code: string;
					message: string;
					data: { status: number };
				} >( {
					path: `/service-integration/v1/commandes-payees?${ search.toString() }`,
					headers: faulty,
				} );
				expect( { params, status: result.status, code: result.body.code, data: result.body.data } ).toEqual( {
					params,
					status: 500,
					code: 'rest_paid_orders_database_error',
					data: { status: 500 },
				} );
				// No SQL, table name or database message reaches the client.
				expect( result.body.message ).not.toMatch(
					/\bselect\b|\bfrom wp|sqlite|mysql|sqlstate|missing_table|wp_|syntax|no such|datatype/i
				);
				// The log says why, with the database's own message: on the route's line for a
				// WooCommerce query, on the line before it (Database_Error's) for the plugin's index.
				const log = debugLogSince( mark );
				expect( log ).toMatch(
					/Service Integration: paid orders could not be read: a database error \(answered 500 rest_paid_orders_database_error\): /
				);
				expect( log ).toMatch(
					/(?:Service Integration: paid orders could not be read: .*|service-integration: paid-orders index: read a page failed: .*)order_query_fault_missing_table/
				);
			}
			// The same requests without the fault are served.
			const healthy = await listPaid( account.client, { ...sharedOrders, per_page: 100, _fields: 'id' } );
			expect( { status: healthy.status, count: healthy.body.length } ).toEqual( {
				status: 200,
				count: paid.length,
			} );
		} );
	} );

	it( 'sorts newest first by default and honours orderby/order', async () => {
		const byDefault = await listPaid( account.client, { ...sharedOrders, _fields: 'id' } );
		const byIdDesc = await listPaid( account.client, {
			...sharedOrders,
			orderby: 'id',
			order: 'desc',
			_fields: 'id',
		} );
		expect( byIdDesc.body.map( ( o ) => o.id ) ).toEqual( [ ...paid ].reverse() );
		// Same creation second for several orders: the id breaks the tie, descending.
		expect( byDefault.body.map( ( o ) => o.id ) ).toEqual( [ ...paid ].reverse() );
	} );

	it( 'filters on payment time with paid_after / paid_before', async () => {
		const all = await listPaid( account.client, { ...sharedOrders, per_page: 100 } );
		const latest = Math.max( ...all.body.map( ( o ) => Date.parse( o.date_paid as string ) ) );
		const before = await listPaid( account.client, {
			...sharedOrders,
			paid_before: iso( new Date( latest ) ),
			_fields: 'id,date_paid',
		} );
		const after = await listPaid( account.client, {
			...sharedOrders,
			paid_after: iso( new Date( latest ) ),
			_fields: 'id,date_paid',
		} );
		expect( before.body.length + after.body.length ).toBe( paid.length );
		expect( after.body.every( ( o ) => Date.parse( o.date_paid as string ) === latest ) ).toBe( true );
		expect( before.body.every( ( o ) => Date.parse( o.date_paid as string ) < latest ) ).toBe( true );

		// Bounds far from today: WooCommerce's legacy storage compares the payment time (post meta)
		// as text, where a nine-digit timestamp (1990) sorts after today's ten-digit ones.
		const wide = await listPaid( account.client, {
			...sharedOrders,
			paid_after: '1990-01-01T00:00:00Z',
			paid_before: '2300-01-01T00:00:00Z',
			per_page: 100,
			_fields: 'id',
		} );
		expect( wide.body.map( ( o ) => o.id ).sort( ( a, b ) => a - b ) ).toEqual( paid );
		const ancient = await listPaid( account.client, {
			...sharedOrders,
			paid_before: '1990-01-01T00:00:00Z',
			_fields: 'id',
		} );
		expect( { status: ancient.status, body: ancient.body } ).toEqual( { status: 200, body: [] } );
	} );

	it( 'sends names as UTF-8, not \\u escapes (smaller pages, same JSON)', async () => {
		// Its own window: the order it adds is not among the shared ones, and nothing before it is read.
		const mineSince = iso( await nextSecond() );
		const [ shelf ] = await driver.createProducts( [
			{ name: 'Étagère chêne 1/2', sku: `SHELF-${ run }`, price: '80.00' },
		] );
		const [ order ] = await driver.createOrders( [
			{
				status: 'processing',
				billing: { first_name: 'Zoë', last_name: 'Brontë', email: `zoe-${ run }@example.com` },
				line_items: [ { product_id: shelf!.id, quantity: 1 } ],
			},
		] );

		const response = await fetch(
			`${ readState().siteUrl }/wp-json/service-integration/v1/commandes-payees?modified_after=${ encodeURIComponent( mineSince ) }&per_page=100`,
			{
				headers: {
					authorization:
						'Basic ' + Buffer.from( `${ account.username }:${ account.password }` ).toString( 'base64' ),
				},
			}
		);
		expect( response.status ).toBe( 200 );
		const raw = await response.text();
		expect( raw ).toContain( '"name":"Étagère chêne 1/2"' );
		expect( raw ).toContain( '"first_name":"Zoë"' );
		expect( raw ).not.toMatch( /\\u00|\\\// );
		const mine = ( JSON.parse( raw ) as PaidOrder[] ).find( ( o ) => o.id === order );
		expect( mine?.line_items[ 0 ] ).toMatchObject( { name: 'Étagère chêne 1/2', sku: `SHELF-${ run }` } );
	} );
} );

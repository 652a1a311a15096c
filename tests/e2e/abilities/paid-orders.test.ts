import { commerce, iso, nextSecond } from '../support/commerce';
import { links, listPaid, restPath, untilSettled, type PaidOrder } from '../support/paid-orders';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import type { RestError } from '../../../scripts/lib/rest-client';
import { LIST_PAID_ORDERS, runAbility } from './abilities';

interface Listing {
	orders: PaidOrder[];
	total: number;
	total_pages: number;
	next: Record< string, string | number > | null;
	paid_before: string | null;
}

/**
 * service-integration/list-paid-orders gives what GET /service-integration/v1/commandes-payees
 * gives for the same parameters: the same orders with the same fields, the paging headers as
 * fields, and the route's next link as the input of the next page. The orders are this file's
 * own, read through their modification window.
 */
describe( 'the list-paid-orders ability', () => {
	const driver = commerce();
	const run = Date.now().toString( 36 );
	let account: ServiceAccount;
	let window: { modified_after: string; modified_before: string };
	let paid: number[];

	beforeAll( async () => {
		account = await provisionServiceAccount( 'abilities-paid-orders' );
		const [ chair ] = await driver.createProducts( [
			{ name: 'Oak chair', sku: `AB-CHAIR-${ run }`, price: '49.90' },
		] );
		const since = iso( await nextSecond() );
		const ids = await driver.createOrders(
			[ 'processing', 'completed', 'processing', 'pending', 'processing' ].map( ( status, i ) => ( {
				status: status as 'processing' | 'completed' | 'pending',
				billing: { first_name: 'Grace', last_name: `Hopper-${ i }`, email: `grace-${ i }@example.com` },
				line_items: [ { product_id: chair!.id, quantity: i + 1 } ],
			} ) )
		);
		paid = ids.filter( ( _id, i ) => i !== 3 ).sort( ( a, b ) => a - b );
		window = { modified_after: since, modified_before: iso( await nextSecond() ) };
	} );

	it( 'returns the REST route’s orders, fields and totals for the same parameters', async () => {
		const params = { ...window, per_page: 100, orderby: 'id', order: 'asc' };
		const rest = await listPaid( account.client, params );
		const ability = await runAbility< Listing >( account.client, LIST_PAID_ORDERS, params );
		expect( ability.status ).toBe( 200 );
		expect( rest.body.map( ( order ) => order.id ) ).toEqual( paid );
		expect( ability.body ).toEqual( {
			orders: rest.body,
			total: paid.length,
			total_pages: 1,
			next: null,
			paid_before: null,
		} );
		expect( ability.body.orders[ 0 ]!.customer ).toEqual( {
			first_name: 'Grace',
			last_name: 'Hopper-0',
			email: 'grace-0@example.com',
		} );
	} );

	it( 'pages as the route does: its next link becomes the next input', async () => {
		const first = await runAbility< Listing >( account.client, LIST_PAID_ORDERS, { ...window, per_page: 2 } );
		const restFirst = await listPaid( account.client, { ...window, per_page: 2 } );
		expect( first.body ).toMatchObject( { total: paid.length, total_pages: 2, orders: restFirst.body } );
		expect( first.body.next ).toEqual( { ...window, per_page: 2, page: 2 } );

		const second = await runAbility< Listing >( account.client, LIST_PAID_ORDERS, first.body.next );
		const restSecond = await account.client.get< PaidOrder[] >( restPath( links( restFirst ).next! ) );
		expect( second.body.orders ).toEqual( restSecond.body );
		expect( second.body.next ).toBeNull();
		expect(
			[ ...first.body.orders, ...second.body.orders ].map( ( o ) => o.id ).sort( ( a, b ) => a - b )
		).toEqual( paid );
	} );

	it( 'follows the sync cursor (orderby=paid_at) as the route does, with its paid_before bound', async () => {
		const start = await listPaid( account.client, { ...window, orderby: 'id', per_page: 100 } );
		await untilSettled( start.body );
		const params = { ...window, orderby: 'paid_at', paid_after: window.modified_after, per_page: 2 };
		const rest = await listPaid( account.client, params );
		const ability = await runAbility< Listing >( account.client, LIST_PAID_ORDERS, params );
		expect( ability.body.orders ).toEqual( rest.body );
		const last = rest.body[ rest.body.length - 1 ]!;
		expect( ability.body.next ).toEqual( { ...params, paid_after: last.paid_at, after_id: last.id } );
		expect( ability.body.paid_before ).toMatch( /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/ );

		const seen: number[] = [];
		let input: Record< string, string | number > | null = params;
		while ( input ) {
			const page: { body: Listing } = await runAbility< Listing >( account.client, LIST_PAID_ORDERS, input );
			seen.push( ...page.body.orders.map( ( order ) => order.id ) );
			input = page.body.next;
		}
		expect( [ ...seen ].sort( ( a, b ) => a - b ) ).toEqual( paid );
		expect( new Set( seen ).size ).toBe( seen.length );
	} );

	it.each( [
		[ 'a page size out of range', { per_page: 0 }, 'input[per_page]' ],
		[ 'a wrong type', { page: 'second' }, 'input[page]' ],
		[ 'an unknown sort key', { orderby: 'total' }, 'input[orderby]' ],
		[ 'an unknown parameter', { status: 'pending' }, 'status' ],
	] )( 'refuses %s with ability_invalid_input naming the field', async ( _label, input, field ) => {
		const result = await runAbility< RestError >( account.client, LIST_PAID_ORDERS, input );
		expect( result.status ).toBe( 400 );
		expect( result.body.code ).toBe( 'ability_invalid_input' );
		expect( result.body.message ).toContain( field );
	} );

	it.each( [
		[ 'a cursor id outside the sync order', { after_id: 5 }, 'after_id', 'orderby=paid_at' ],
		[ 'a date that is not one', { paid_after: 'yesterday' }, 'paid_after', 'date' ],
	] )( 'refuses %s with the route’s own error, naming the field', async ( _label, input, field, reason ) => {
		const rest = await listPaid( account.client, input );
		const ability = await runAbility< RestError >( account.client, LIST_PAID_ORDERS, input );
		expect( ability.status ).toBe( 400 );
		expect( ability.body ).toEqual( rest.body );
		expect( ability.body.code ).toBe( 'rest_invalid_param' );
		expect( ability.body.data ).toMatchObject( { params: { [ field ]: expect.stringContaining( reason ) } } );
	} );

	it( 'is run with GET, as a read-only ability: POST is refused', async () => {
		const result = await runAbility< RestError >( account.client, LIST_PAID_ORDERS, {}, 'POST' );
		expect( result.status ).toBe( 405 );
		expect( result.body.code ).toBe( 'rest_ability_invalid_method' );
	} );
} );

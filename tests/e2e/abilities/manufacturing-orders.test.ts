import { adminClient } from '../support/clients';
import { debugLogMark, phpProblemsSince } from '../support/debug-log';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import type { RestError } from '../../../scripts/lib/rest-client';
import { CREATE_MANUFACTURING_ORDER, GET_MANUFACTURING_ORDER, runAbility } from './abilities';

const ROUTE = '/wp/v2/commandes-fabrication';

interface Record_ {
	id: number;
	status: string;
	author: number;
	title: { raw?: string; rendered: string };
	meta: Record< string, unknown >;
}

/**
 * create-manufacturing-order and get-manufacturing-order run the manufacturing orders' REST
 * route: the same validation before anything is written, the same record in the answer, and
 * the same rule that an automation reads only its own records.
 */
describe( 'the manufacturing-order abilities', () => {
	const run = Date.now().toString( 36 );
	let account: ServiceAccount;

	/** The account's records whose title has this run's marker, as the administrator sees them. */
	async function recordsTitled( marker: string ): Promise< number > {
		const found = await adminClient().get< Record_[] >(
			`${ ROUTE }?search=${ encodeURIComponent( marker ) }&status=any&per_page=100`
		);
		return found.body.length;
	}

	beforeAll( async () => {
		account = await provisionServiceAccount( 'abilities-manufacturing' );
	} );

	it( 'creates a published record with its custom fields, then reads it as the REST route does', async () => {
		const mark = debugLogMark();
		const created = await runAbility< Record_ >( account.client, CREATE_MANUFACTURING_ORDER, {
			title: `Order 1001 ${ run }: two oak chairs`,
			status: 'publish',
			meta: {
				source_order_id: 1001,
				due_date: '2026-12-15',
				priority: 'high',
				items: [ { sku: 'CHAIR-OAK', name: 'Oak chair', quantity: 2 } ],
			},
			idempotency_key: `ability-${ run }-1`,
		} );
		expect( created.status ).toBe( 200 );
		expect( created.body ).toMatchObject( {
			status: 'publish',
			title: { raw: `Order 1001 ${ run }: two oak chairs` },
			meta: {
				source_order_id: 1001,
				due_date: '2026-12-15',
				priority: 'high',
				items: [ { sku: 'CHAIR-OAK', name: 'Oak chair', quantity: 2 } ],
			},
		} );

		const read = await runAbility< Record_ >( account.client, GET_MANUFACTURING_ORDER, { id: created.body.id } );
		const rest = await account.client.get< Record_ & { _links?: unknown } >( `${ ROUTE }/${ created.body.id }` );
		expect( read.status ).toBe( 200 );
		const { _links: _ignored, ...restRecord } = rest.body;
		expect( read.body ).toEqual( restRecord );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );

	it( 'handles a repeated idempotency_key as the route handles a repeated Idempotency-Key: one record', async () => {
		const input = {
			title: `Order 1002 ${ run }: retried`,
			status: 'publish',
			meta: { source_order_id: 1002, items: [ { sku: 'TABLE-OAK', name: 'Oak table', quantity: 1 } ] },
			idempotency_key: `ability-${ run }-retry`,
		};
		const first = await runAbility< Record_ >( account.client, CREATE_MANUFACTURING_ORDER, input );
		const again = await runAbility< Record_ >( account.client, CREATE_MANUFACTURING_ORDER, input );
		expect( first.status ).toBe( 200 );
		expect( again.status ).toBe( 200 );
		expect( again.body.id ).toBe( first.body.id );
		expect( await recordsTitled( `Order 1002 ${ run }` ) ).toBe( 1 );

		// The same key with another body is refused, and writes nothing.
		const changed = await runAbility< RestError >( account.client, CREATE_MANUFACTURING_ORDER, {
			...input,
			title: `Order 1002 ${ run }: changed`,
		} );
		expect( changed.status ).toBe( 422 );
		expect( changed.body.code ).toBe( 'idempotency_key_reused' );
		expect( await recordsTitled( `Order 1002 ${ run }` ) ).toBe( 1 );
	} );

	it.each( [
		[ 'an unknown priority', { meta: { priority: 'urgent' } }, 'ability_invalid_input', 'input[meta][priority]' ],
		[ 'an item without a quantity', { meta: { items: [ { sku: 'X' } ] } }, 'ability_invalid_input', 'quantity' ],
		[ 'a title that is not text', { title: 42 }, 'ability_invalid_input', 'input[title]' ],
		[ 'a field the record does not have', { colour: 'red' }, 'ability_invalid_input', 'colour' ],
		[ 'an unknown status', { status: 'shipped' }, 'ability_invalid_input', 'input[status]' ],
		[
			'a day that does not exist (the route’s own check)',
			{ meta: { due_date: '2026-02-30' } },
			'rest_invalid_date',
			'meta.due_date',
		],
	] )( 'refuses %s, naming the field, and writes nothing', async ( _label, input, code, field ) => {
		const marker = `refused-${ run }-${ code }-${ field.replace( /\W+/g, '-' ) }`;
		const result = await runAbility< RestError >( account.client, CREATE_MANUFACTURING_ORDER, {
			title: marker,
			...input,
		} );
		expect( result.status ).toBe( 400 );
		expect( result.body.code ).toBe( code );
		expect( result.body.message ).toContain( field );
		expect( await recordsTitled( marker ) ).toBe( 0 );
	} );

	it( 'is run with POST, as an ability that writes: GET is refused and writes nothing', async () => {
		const marker = `get-${ run }`;
		const result = await runAbility< RestError >(
			account.client,
			CREATE_MANUFACTURING_ORDER,
			{ title: marker },
			'GET'
		);
		expect( [ result.status, result.body.code ] ).toEqual( [ 405, 'rest_ability_invalid_method' ] );
		expect( await recordsTitled( marker ) ).toBe( 0 );
	} );

	it( 'reads only the account’s own records, and says which id is unknown', async () => {
		const others = await adminClient().post< { id: number } >( ROUTE, {
			title: `Owner’s ${ run }`,
			status: 'publish',
		} );
		const refused = await runAbility< RestError >( account.client, GET_MANUFACTURING_ORDER, {
			id: others.body.id,
		} );
		const rest = await account.client.get< RestError >( `${ ROUTE }/${ others.body.id }` );
		expect( [ refused.status, refused.body.code ] ).toEqual( [ rest.status, rest.body.code ] );
		expect( refused.status ).toBe( 403 );

		const unknown = await runAbility< RestError >( account.client, GET_MANUFACTURING_ORDER, { id: 987654321 } );
		expect( [ unknown.status, unknown.body.code ] ).toEqual( [ 404, 'rest_post_invalid_id' ] );
	} );

	it.each( [
		[ 'without an id', undefined, 'id is a required property' ],
		[ 'with an id that is not a number', { id: 'latest' }, 'input[id]' ],
	] )( 'refuses a read %s, naming the field', async ( _label, input, field ) => {
		const result = await runAbility< RestError >( account.client, GET_MANUFACTURING_ORDER, input );
		expect( [ result.status, result.body.code ] ).toEqual( [ 400, 'ability_invalid_input' ] );
		expect( result.body.message ).toContain( field );
	} );
} );

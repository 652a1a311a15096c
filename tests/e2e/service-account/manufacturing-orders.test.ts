import { adminClient, anonymousClient } from '../support/clients';
import { expectRefused } from '../support/expectations';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

const ROUTE = '/wp/v2/commandes-fabrication';

interface Record_ {
	id: number;
	status: string;
	author: number;
	meta: Record< string, unknown >;
}

describe( 'manufacturing orders (commande_fabrication)', () => {
	let account: ServiceAccount;
	let adminRecord: number;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'manufacturing-test' );
		const created = await adminClient().post< Record_ >( ROUTE, { title: 'Made by the owner', status: 'publish' } );
		expect( created.status ).toBe( 201 );
		adminRecord = created.body.id;
	} );

	it( 'is created and published with its custom fields in one request', async () => {
		const meta = {
			source_order_id: 1234,
			source_order_number: 'WC-1234',
			items: [ { product_id: 7, sku: 'CHAIR-OAK', name: 'Oak chair', quantity: 4 } ],
			due_date: '2026-12-24',
			priority: 'high',
			notes: 'Gift wrap',
		};
		const created = await account.client.post< Record_ >( ROUTE, { title: 'Order 1234', status: 'publish', meta } );
		expect( created.status ).toBe( 201 );
		expect( created.body.status ).toBe( 'publish' );
		expect( created.body.meta ).toEqual( meta );

		const read = await account.client.get< Record_ >( `${ ROUTE }/${ created.body.id }` );
		expect( read.body.meta ).toEqual( meta );
	} );

	it( 'lets the automation edit its own published record', async () => {
		const created = await account.client.post< Record_ >( ROUTE, {
			title: 'Editable',
			status: 'publish',
			meta: { priority: 'low' },
		} );
		const edited = await account.client.post< Record_ >( `${ ROUTE }/${ created.body.id }`, {
			meta: { priority: 'normal' },
		} );
		expect( edited.status ).toBe( 200 );
		expect( edited.body.meta.priority ).toBe( 'normal' );
	} );

	it( 'never lets it edit, read or see records of other authors', async () => {
		// One record of its own, so the listing below has something it must show.
		const own = await account.client.post< Record_ >( ROUTE, { title: 'Listed', status: 'publish' } );
		expect( own.status ).toBe( 201 );
		expectRefused(
			await account.client.post( `${ ROUTE }/${ adminRecord }`, { title: 'hijacked' } ),
			'rest_cannot_edit'
		);
		expectRefused( await account.client.get( `${ ROUTE }/${ adminRecord }` ) );
		const listed = await account.client.get< Record_[] >( `${ ROUTE }?per_page=100` );
		expect( listed.status ).toBe( 200 );
		expect( listed.body.map( ( record ) => record.id ) ).not.toContain( adminRecord );
		expect( listed.body.map( ( record ) => record.id ) ).toContain( own.body.id );
		expect( listed.body.every( ( record ) => record.author === listed.body[ 0 ]?.author ) ).toBe( true );
		expect( Number( listed.headers.get( 'x-wp-total' ) ) ).toBe( listed.body.length );
	} );

	it( 'cannot delete, not even its own records', async () => {
		const created = await account.client.post< Record_ >( ROUTE, { title: 'Keep me', status: 'publish' } );
		expectRefused(
			await account.client.request( { method: 'DELETE', path: `${ ROUTE }/${ created.body.id }?force=true` } ),
			'rest_cannot_delete'
		);
		expect( ( await account.client.get( `${ ROUTE }/${ created.body.id }` ) ).status ).toBe( 200 );
	} );

	it( 'is not public: anonymous visitors can neither list nor read published records', async () => {
		expectRefused( await anonymousClient().get( ROUTE ), 'rest_forbidden', [ 401 ] );
		expectRefused( await anonymousClient().get( `${ ROUTE }/${ adminRecord }` ), 'rest_forbidden', [ 401 ] );
	} );

	it( 'administrators see every record', async () => {
		const own = await account.client.post< Record_ >( ROUTE, { title: 'Seen by the owner', status: 'publish' } );
		expect( own.status ).toBe( 201 );
		// The listing, narrowed to this test's two records (one per author) whatever other tests left.
		const listed = await adminClient().get< Record_[] >(
			`${ ROUTE }?per_page=100&include=${ adminRecord },${ own.body.id }`
		);
		expect( listed.body.map( ( record ) => record.id ).sort() ).toEqual( [ adminRecord, own.body.id ].sort() );
		expect( new Set( listed.body.map( ( record ) => record.author ) ).size ).toBe( 2 );
	} );

	// Core validates meta against each field's schema and answers with the schema keyword's code.
	it.each( [
		[ 'a malformed due date', { due_date: '24/12/2026' }, 'rest_invalid_pattern', 'meta.due_date' ],
		// The pattern takes any digits: a day that does not exist is refused as core refuses a bad date-time.
		[ 'a due date that does not exist', { due_date: '2026-02-30' }, 'rest_invalid_date', 'meta.due_date' ],
		[ 'a leap day of a common year', { due_date: '2027-02-29' }, 'rest_invalid_date', 'meta.due_date' ],
		[ 'month 13', { due_date: '2026-13-01' }, 'rest_invalid_date', 'meta.due_date' ],
		[ 'a zero quantity', { items: [ { quantity: 0 } ] }, 'rest_out_of_bounds', 'meta.items[0][quantity]' ],
		[ 'an unknown priority', { priority: 'urgent!!' }, 'rest_not_in_enum', 'meta.priority' ],
		[ 'a negative source order', { source_order_id: -5 }, 'rest_out_of_bounds', 'meta.source_order_id' ],
		[
			'an unknown item property, named with its path',
			{ items: [ { quantity: 1 }, { quantity: 1, colour: 'red' } ] },
			'rest_additional_properties_forbidden',
			'meta.items[1][colour] is not a known property: an entry has only product_id, sku, name, quantity.',
		],
		[
			'items given as text',
			{ items: 'CHAIR x2' },
			'rest_invalid_type',
			'meta.items must be an array (a JSON list), not text or a single value.',
		],
	] )( 'refuses %s with 400 and the field named, storing nothing', async ( _label, meta, code, field ) => {
		const before = await account.client.get< Record_[] >( `${ ROUTE }?per_page=100&status=publish,draft` );
		const created = await account.client.post< { code: string; message: string } >( ROUTE, {
			title: 'Invalid',
			status: 'publish',
			meta,
		} );
		expect( created.status ).toBe( 400 );
		expect( created.body.code ).toBe( code );
		expect( created.body.message ).toContain( field );
		const after = await account.client.get< Record_[] >( `${ ROUTE }?per_page=100&status=publish,draft` );
		expect( after.headers.get( 'x-wp-total' ) ).toBe( before.headers.get( 'x-wp-total' ) );
	} );

	it( 'refuses a title the database column cannot hold with 400 naming it, and takes one that fills it', async () => {
		const before = await account.client.get< Record_[] >( `${ ROUTE }?per_page=100&status=publish,draft` );
		// post_title is a TEXT column: 65,535 bytes. One more used to be core's 500 db_insert_error.
		const tooLong = await account.client.post< {
			code: string;
			data: { status: number; params: Record< string, string > };
		} >( ROUTE, { title: 'x'.repeat( 65_536 ), status: 'publish' } );
		expect( [ tooLong.status, tooLong.body.code ] ).toEqual( [ 400, 'rest_invalid_param' ] );
		expect( tooLong.body.data.params.title ).toBe(
			"title is too long: a manufacturing order's title holds at most 65,535 bytes of UTF-8 text."
		);
		// In bytes: 32,768 "é" are 65,536 bytes.
		const tooManyBytes = await account.client.post< { code: string } >( ROUTE, { title: 'é'.repeat( 32_768 ) } );
		expect( [ tooManyBytes.status, tooManyBytes.body.code ] ).toEqual( [ 400, 'rest_invalid_param' ] );
		const after = await account.client.get< Record_[] >( `${ ROUTE }?per_page=100&status=publish,draft` );
		expect( after.headers.get( 'x-wp-total' ) ).toBe( before.headers.get( 'x-wp-total' ) );

		const full = await account.client.post< Record_ >( ROUTE, { title: 'x'.repeat( 65_535 ), status: 'draft' } );
		expect( full.status ).toBe( 201 );
		const updated = await account.client.post< { code: string } >( `${ ROUTE }/${ full.body.id }`, {
			title: 'x'.repeat( 65_536 ),
		} );
		expect( [ updated.status, updated.body.code ] ).toEqual( [ 400, 'rest_invalid_param' ] );
	} );

	it( 'takes a leap day, and refuses a day that does not exist in an update, keeping the stored date', async () => {
		const created = await account.client.post< Record_ >( ROUTE, {
			title: 'Due on a leap day',
			status: 'publish',
			meta: { due_date: '2028-02-29' },
		} );
		expect( [ created.status, created.body.meta.due_date ] ).toEqual( [ 201, '2028-02-29' ] );

		const updated = await account.client.post< { code: string; message: string; data: { status: number } } >(
			`${ ROUTE }/${ created.body.id }`,
			{ meta: { due_date: '2026-04-31', priority: 'high' } }
		);
		expect( updated.status ).toBe( 400 );
		expect( updated.body.code ).toBe( 'rest_invalid_date' );
		expect( updated.body.message ).toContain( 'meta.due_date' );
		expect( updated.body.data.status ).toBe( 400 );
		// Nothing of the request was written, the other field included.
		const read = await account.client.get< Record_ >( `${ ROUTE }/${ created.body.id }` );
		expect( read.body.meta ).toMatchObject( { due_date: '2028-02-29', priority: 'normal' } );
	} );
} );

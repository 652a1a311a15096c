import { adminClient } from '../support/clients';
import { readState } from '../support/environment';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import { loginCookies } from '../../../scripts/lib/wp-login';
import type { RestError } from '../../../scripts/lib/rest-client';
import { wp } from '../cli/run-wp';
import { ABILITIES, CREATE_MANUFACTURING_ORDER, runAbility, type AbilityInfo } from './abilities';

const ROUTE = '/wp/v2/commandes-fabrication';
const STATUSES = [ 'draft', 'pending', 'future', 'publish', 'private' ];

interface ManufacturingRecord {
	id: number;
	status: string;
	title: { raw?: string; rendered: string };
}

type InvalidParam = RestError & { data: { status: number; params: Record< string, string > } };

/**
 * A manufacturing order has a title and one of the statuses a manufacturing order can have
 * (draft, pending, future, publish, private): the REST route, the create ability and the admin
 * screens hold the same rules, and the list screen's views count only what it lists.
 */
describe( 'the inputs a manufacturing order takes', () => {
	const run = Date.now().toString( 36 );
	let account: ServiceAccount;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'manufacturing-input' );
	} );

	/** Records whose title has a marker, in any status, as the administrator sees them. */
	async function recordsWith( marker: string ): Promise< number > {
		const found = await adminClient().get< ManufacturingRecord[] >(
			`${ ROUTE }?search=${ encodeURIComponent( marker ) }&status=any&per_page=100`
		);
		return found.body.length;
	}

	it( 'documents the statuses a manufacturing order can have, on the route and the ability', async () => {
		const options = await account.client.request< { schema: { properties: { status: { enum: string[] } } } } >( {
			method: 'OPTIONS',
			path: ROUTE,
		} );
		expect( options.body.schema.properties.status.enum ).toEqual( STATUSES );
		const ability = await account.client.get< AbilityInfo >( `${ ABILITIES }/${ CREATE_MANUFACTURING_ORDER }` );
		expect( ability.body.input_schema.properties!.status!.enum ).toEqual( STATUSES );
		expect( ability.body.input_schema.required ).toEqual( [ 'title' ] );
	} );

	it.each( [
		[ 'no title', { status: 'publish' }, 'title' ],
		[ 'an empty title', { title: '', status: 'publish' }, 'title' ],
		[ 'a title of spaces', { title: '   ', status: 'draft' }, 'title' ],
		[ 'an empty raw title', { title: { raw: '' }, status: 'draft' }, 'title' ],
		[ 'nothing at all', {}, 'title' ],
		[ 'WooCommerce’s refunded status', { title: 'R', status: 'wc-refunded' }, 'status' ],
		[ 'WooCommerce’s processing status', { title: 'P', status: 'wc-processing' }, 'status' ],
		[ 'an unknown status', { title: 'U', status: 'shipped' }, 'status' ],
	] )( 'refuses %s on the REST route with rest_invalid_param naming the field', async ( _label, body, field ) => {
		const marker = `MI-${ run }-${ field }-${ _label.length }`;
		const input =
			typeof ( body as { title?: unknown } ).title === 'string' && ( body as { title: string } ).title.trim()
				? { ...body, title: `${ ( body as { title: string } ).title } ${ marker }` }
				: body;
		const before = await adminClient().get< ManufacturingRecord[] >( `${ ROUTE }?status=any&per_page=1` );
		const result = await account.client.post< InvalidParam >( ROUTE, input );
		expect( [ result.status, result.body.code ] ).toEqual( [ 400, 'rest_invalid_param' ] );
		expect( Object.keys( result.body.data.params ) ).toEqual( [ field ] );
		expect( await recordsWith( marker ) ).toBe( 0 );
		const after = await adminClient().get< ManufacturingRecord[] >( `${ ROUTE }?status=any&per_page=1` );
		expect( after.headers.get( 'x-wp-total' ) ).toBe( before.headers.get( 'x-wp-total' ) );
	} );

	it.each( [ 'draft', 'pending', 'publish', 'private' ] )( 'creates a record in status %s', async ( status ) => {
		const created = await adminClient().post< ManufacturingRecord >( ROUTE, {
			title: `MI ${ run } ${ status }`,
			status,
		} );
		expect( [ created.status, created.body.status ] ).toEqual( [ 201, status ] );
	} );

	it( 'refuses to empty a record’s title or move it to another plugin’s status', async () => {
		const created = await account.client.post< ManufacturingRecord >( ROUTE, {
			title: `MI ${ run } kept`,
			status: 'publish',
		} );
		expect( created.status ).toBe( 201 );
		const emptied = await account.client.post< InvalidParam >( `${ ROUTE }/${ created.body.id }`, { title: ' ' } );
		expect( [ emptied.status, emptied.body.code, Object.keys( emptied.body.data.params ) ] ).toEqual( [
			400,
			'rest_invalid_param',
			[ 'title' ],
		] );
		const moved = await account.client.post< InvalidParam >( `${ ROUTE }/${ created.body.id }`, {
			status: 'wc-refunded',
		} );
		expect( [ moved.status, moved.body.code, Object.keys( moved.body.data.params ) ] ).toEqual( [
			400,
			'rest_invalid_param',
			[ 'status' ],
		] );
		const read = await account.client.get< ManufacturingRecord >( `${ ROUTE }/${ created.body.id }?context=edit` );
		expect( [ read.body.status, read.body.title.raw ] ).toEqual( [ 'publish', `MI ${ run } kept` ] );
	} );

	it.each( [
		[ 'no title', { status: 'draft' }, 'ability_invalid_input', 'title' ],
		[ 'an empty title', { title: '' }, 'ability_invalid_input', 'title' ],
		[ 'nothing at all', {}, 'ability_invalid_input', 'title' ],
		[ 'WooCommerce’s refunded status', { title: 'R', status: 'wc-refunded' }, 'ability_invalid_input', 'status' ],
		[ 'a title of spaces', { title: '   ' }, 'rest_invalid_param', 'title' ],
	] )( 'refuses %s through the create ability, naming the field', async ( _label, input, code, field ) => {
		const before = await adminClient().get< ManufacturingRecord[] >( `${ ROUTE }?status=any&per_page=1` );
		const result = await runAbility< InvalidParam >( account.client, CREATE_MANUFACTURING_ORDER, input );
		expect( [ result.status, result.body.code ] ).toEqual( [ 400, code ] );
		if ( code === 'rest_invalid_param' ) {
			expect( Object.keys( result.body.data.params ) ).toEqual( [ field ] );
		} else {
			expect( result.body.message ).toContain( field );
		}
		const after = await adminClient().get< ManufacturingRecord[] >( `${ ROUTE }?status=any&per_page=1` );
		expect( after.headers.get( 'x-wp-total' ) ).toBe( before.headers.get( 'x-wp-total' ) );
	} );

	it( 'counts in the list screen’s views only the records it lists', async () => {
		const created = await adminClient().post< ManufacturingRecord >( ROUTE, {
			title: `MI ${ run } left in a shop status`,
			status: 'publish',
		} );
		expect( created.status ).toBe( 201 );
		// A record another plugin's code moved into WooCommerce's refunded status, behind the route's back.
		const moved = await wp(
			'eval',
			`global $wpdb; $wpdb->update( $wpdb->posts, array( 'post_status' => 'wc-refunded' ), array( 'ID' => ${ created.body.id } ) ); clean_post_cache( ${ created.body.id } ); wp_cache_flush();`
		);
		expect( moved.status ).toBe( 0 );
		const { siteUrl } = readState();
		const cookie = await loginCookies( siteUrl, 'admin', 'password' );
		const page = await fetch(
			`${ siteUrl.replace( /\/$/, '' ) }/wp-admin/edit.php?post_type=commande_fabrication`,
			{
				headers: { cookie },
			}
		);
		const html = await page.text();
		expect( page.status ).toBe( 200 );
		const all =
			/class="all"[^>]*>[^<]*<span class="count">\((\d+)\)<\/span>/.exec( html ) ??
			/>All <span class="count">\((\d+)\)<\/span>/.exec( html );
		const listed = /<span class="displaying-num">(\d+) /.exec( html );
		expect( all ).not.toBeNull();
		expect( listed ).not.toBeNull();
		expect( Number( all![ 1 ] ) ).toBe( Number( listed![ 1 ] ) );
		expect( html ).not.toMatch( /post_status=wc-/ );
		await wp( 'post', 'delete', String( created.body.id ), '--force' );
	} );
} );

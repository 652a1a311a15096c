import { adminClient, anonymousClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { expectRefused } from '../support/expectations';
import { PAID_ORDERS, listPaid, userWithRole } from '../support/paid-orders';
import { setPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

/**
 * Section 4: the paid-orders route needs lire_commandes_payees, writes nothing, and says
 * clearly what is wrong with a request.
 */
describe( 'paid-orders endpoint: access, method, parameters', () => {
	let account: ServiceAccount;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'paid-orders-access' );
	} );

	it( 'answers the service account (which holds lire_commandes_payees) with a JSON list', async () => {
		const result = await listPaid( account.client );
		expect( result.status ).toBe( 200 );
		expect( Array.isArray( result.body ) ).toBe( true );
		expect( result.headers.get( 'x-wp-total' ) ).toMatch( /^\d+$/ );
	} );

	it( 'refuses anonymous callers with 401 rest_forbidden', async () => {
		expectRefused( await listPaid( anonymousClient() ), 'rest_forbidden', [ 401 ] );
	} );

	it( 'refuses an editor with 403 rest_forbidden', async () => {
		expectRefused( await listPaid( await userWithRole( 'editor' ) ), 'rest_forbidden', [ 403 ] );
	} );

	it( 'refuses the administrator too (the capability is the integration role’s alone)', async () => {
		expectRefused( await listPaid( adminClient() ), 'rest_forbidden', [ 403 ] );
	} );

	it.each( [ 'POST', 'PUT', 'PATCH', 'DELETE' ] )( 'has no %s route: 404 rest_no_route', async ( method ) => {
		const result = await account.client.request< { code: string } >( {
			method,
			path: PAID_ORDERS,
			data: { status: 'cancelled' },
		} );
		expect( { status: result.status, code: result.body.code } ).toEqual( { status: 404, code: 'rest_no_route' } );
	} );

	it( 'documents itself on OPTIONS: GET only, the fields it returns, its parameters and bounds', async () => {
		const result = await anonymousClient().request< {
			methods: string[];
			schema: {
				properties: Record<
					string,
					{
						type: unknown;
						properties?: Record< string, unknown >;
						items?: { properties: Record< string, unknown > };
					}
				>;
			};
			endpoints: Array< {
				methods: string[];
				args: Record<
					string,
					{ default?: unknown; minimum?: number; maximum?: number; enum?: string[]; format?: string }
				>;
			} >;
		} >( { method: 'OPTIONS', path: PAID_ORDERS } );
		expect( result.status ).toBe( 200 );
		expect( result.body.methods ).toEqual( [ 'GET' ] );
		const { properties } = result.body.schema;
		expect( Object.keys( properties ).sort() ).toEqual( [
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
		expect( Object.keys( properties.customer?.properties ?? {} ).sort() ).toEqual( [
			'email',
			'first_name',
			'last_name',
		] );
		expect( Object.keys( properties.line_items?.items?.properties ?? {} ).sort() ).toEqual( [
			'name',
			'product_id',
			'quantity',
			'sku',
			'variation_id',
		] );
		expect( properties.total?.type ).toBe( 'string' );

		const args = result.body.endpoints[ 0 ]?.args ?? {};
		expect( args.page ).toMatchObject( { default: 1, minimum: 1 } );
		expect( args.per_page ).toMatchObject( { default: 20, minimum: 1, maximum: 100 } );
		// paid_at is the sync order; date_paid, its earlier name, still sorts the same way.
		expect( args.orderby?.enum ).toEqual( [ 'date', 'id', 'modified', 'paid_at', 'date_paid' ] );
		for ( const date of [ 'paid_after', 'paid_before', 'modified_after', 'modified_before' ] ) {
			expect( args[ date ]?.format ).toBe( 'date-time' );
		}
		expect( args.after_id ).toMatchObject( { minimum: 1 } );
	} );

	it.each( [
		[ 'a negative page', 'page=-1', 'page' ],
		[ 'page 0', 'page=0', 'page' ],
		[ 'per_page over 100', 'per_page=101', 'per_page' ],
		[ 'per_page 0', 'per_page=0', 'per_page' ],
		[ 'a malformed paid_after', 'paid_after=yesterday', 'paid_after' ],
		[ 'an impossible modified_after', 'modified_after=2026-13-45T00:00:00Z', 'modified_after' ],
		[ 'a malformed paid_before', 'paid_before=21/11/2026', 'paid_before' ],
		// Core's date-time check takes these, and PHP would roll them to 2 March and 1 May.
		[ 'a paid_after on a day that does not exist', 'paid_after=2026-02-30T00:00:00Z', 'paid_after' ],
		[
			'a modified_before on a day that does not exist',
			'modified_before=2026-04-31T10:00:00%2B02:00',
			'modified_before',
		],
		[ 'an unknown orderby', 'orderby=total', 'orderby' ],
		[ 'after_id outside the sync cursor', 'after_id=12', 'after_id' ],
		[ 'descending sync order', 'orderby=paid_at&order=desc', 'order' ],
		[ 'descending sync order by its earlier name', 'orderby=date_paid&order=desc', 'order' ],
	] )( 'refuses %s with 400 rest_invalid_param naming the parameter', async ( _label, search, param ) => {
		const result = await account.client.get< {
			code: string;
			data: { status: number; params: Record< string, string > };
		} >( `${ PAID_ORDERS }?${ search }` );
		expect( result.status ).toBe( 400 );
		expect( result.body.code ).toBe( 'rest_invalid_param' );
		expect( Object.keys( result.body.data.params ) ).toEqual( [ param ] );
	} );

	it( 'declares compatibility with WooCommerce’s custom order tables (HPOS)', async () => {
		expect( await commerce().hposCompatiblePlugins() ).toContain( 'service-integration/service-integration.php' );
	} );

	it( 'answers 503 commerce_unavailable with a message, not a fatal error, when WooCommerce is inactive', async () => {
		const driver = commerce();
		await setPluginActive( driver.plugin, false );
		try {
			const result = await listPaid( account.client );
			expect( result.status ).toBe( 503 );
			expect( result.body ).toMatchObject( {
				code: 'commerce_unavailable',
				message: expect.stringContaining( 'WooCommerce' ),
				data: { status: 503 },
			} );
			// The rest of the site keeps working.
			expect( ( await account.client.get( '/service-integration/v1/me' ) ).status ).toBe( 200 );
		} finally {
			await setPluginActive( driver.plugin, true );
		}
		expect( ( await listPaid( account.client ) ).status ).toBe( 200 );
	} );
} );

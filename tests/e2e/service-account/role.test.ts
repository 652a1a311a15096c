import { adminClient } from '../support/clients';
import { expectRefused } from '../support/expectations';
import { RestClient } from '../../../scripts/lib/rest-client';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import { readState } from '../support/environment';
import { EXPECTED_ROLE_CAPABILITIES, SENSITIVE_CAPABILITIES } from './expected-role';

describe( 'the service_integration role and account', () => {
	let account: ServiceAccount;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'role-test' );
	} );

	it( 'is built with exactly the documented capabilities, nothing else', async () => {
		const state = await adminClient().get< { role_exists: boolean; role_capabilities: Record< string, boolean > } >(
			'/service-integration/v1/service-account'
		);
		expect( state.status ).toBe( 200 );
		expect( state.body.role_exists ).toBe( true );
		expect( state.body.role_capabilities ).toEqual( EXPECTED_ROLE_CAPABILITIES );
	} );

	it( 'never holds edit_posts, edit_shop_orders or anything that manages users, plugins or settings', async () => {
		const state = await adminClient().get< { role_capabilities: Record< string, boolean > } >(
			'/service-integration/v1/service-account'
		);
		for ( const cap of [
			'edit_posts',
			'edit_shop_orders',
			'list_users',
			'create_users',
			'edit_users',
			'install_plugins',
			'activate_plugins',
			'manage_options',
			'edit_theme_options',
			'delete_commande_fabrications',
		] ) {
			expect( state.body.role_capabilities[ cap ] ).toBeFalsy();
		}
	} );

	it( 'lets the automation check its credentials, role and effective capabilities', async () => {
		const me = await account.client.get< Record< string, unknown > >( '/service-integration/v1/me' );
		expect( me.status ).toBe( 200 );
		expect( me.body ).toMatchObject( {
			username: account.username,
			roles: [ 'service_integration' ],
			is_service_account: true,
			application_password: account.uuid,
			widening_detected: [],
		} );
		// edit_commande_fabrication is the type's per-record meta capability: reported from the role.
		expect( [ ...( me.body.capabilities as string[] ) ].sort() ).toEqual( [
			'edit_commande_fabrication',
			'edit_commande_fabrications',
			'edit_published_commande_fabrications',
			'lire_commandes_payees',
			'publish_commande_fabrications',
			'read',
			'read_commande_fabrications',
		] );
		const sensitive = me.body.sensitive_capabilities as Record< string, boolean >;
		expect( Object.keys( sensitive ) ).toEqual( expect.arrayContaining( SENSITIVE_CAPABILITIES ) );
		expect( Object.entries( sensitive ).filter( ( [ , held ] ) => held ) ).toEqual( [] );
	} );

	it( 'reports effective values for administrators too (the same list, computed the same way)', async () => {
		const me = await adminClient().get< {
			is_service_account: boolean;
			sensitive_capabilities: Record< string, boolean >;
		} >( '/service-integration/v1/me' );
		expect( me.body.is_service_account ).toBe( false );
		expect( me.body.sensitive_capabilities ).toMatchObject( {
			manage_options: true,
			list_users: true,
			edit_posts: true,
		} );
	} );

	it( 'creating the account again is idempotent (200, same account)', async () => {
		const again = await adminClient().post< { created: boolean; username: string } >(
			'/service-integration/v1/service-account'
		);
		expect( again.status ).toBe( 200 );
		expect( again.body ).toMatchObject( { created: false, username: account.username } );
	} );

	it( 'shows the application password once: later listings carry no secret', async () => {
		const state = await adminClient().get< { application_passwords: Array< Record< string, unknown > > } >(
			'/service-integration/v1/service-account'
		);
		const listed = state.body.application_passwords.find( ( item ) => item.uuid === account.uuid );
		expect( listed ).toMatchObject( { name: 'role-test' } );
		expect( JSON.stringify( state.body ) ).not.toContain( account.password.replace( / /g, '' ).slice( 0, 8 ) );
		expect( listed ).not.toHaveProperty( 'password' );
	} );

	it( 'gives the exact Basic header an automation needs, and it works', async () => {
		const created = await adminClient().post< { authorization: string } >(
			'/service-integration/v1/service-account/application-passwords',
			{ name: 'header-test' }
		);
		expect( created.status ).toBe( 201 );
		expect( created.headers.get( 'cache-control' ) ).toContain( 'no-store' );
		const response = await fetch( `${ readState().siteUrl }/wp-json/service-integration/v1/me`, {
			headers: { authorization: created.body.authorization, cookie: 'playground_auto_login_already_happened=1' },
		} );
		expect( response.status ).toBe( 200 );
	} );

	it( 'revoking a password makes it fail at once with 401 incorrect_password', async () => {
		const other = await provisionServiceAccount( 'to-revoke' );
		expect( ( await other.client.get( '/service-integration/v1/me' ) ).status ).toBe( 200 );
		const revoked = await adminClient().request( {
			method: 'DELETE',
			path: `/service-integration/v1/service-account/application-passwords/${ other.uuid }`,
		} );
		expect( revoked.status ).toBe( 200 );
		expectRefused( await other.client.get( '/service-integration/v1/me' ), 'incorrect_password', [ 401 ] );
		const unknown = await adminClient().request( {
			method: 'DELETE',
			path: `/service-integration/v1/service-account/application-passwords/${ other.uuid }`,
		} );
		expect( unknown.status ).toBe( 404 );
	} );

	it( 'keeps provisioning for administrators: the service account itself is refused', async () => {
		expectRefused(
			await account.client.post( '/service-integration/v1/service-account/application-passwords', {
				name: 'escalate',
			} )
		);
		expectRefused(
			await new RestClient( readState().siteUrl, null ).get( '/service-integration/v1/service-account' )
		);
	} );
} );

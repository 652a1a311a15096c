import { adminClient } from '../support/clients';
import { debugLogMark, debugLogSince } from '../support/debug-log';
import { readState } from '../support/environment';
import { expectRefused } from '../support/expectations';
import { loginCookies } from '../../../scripts/lib/wp-login';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import { SENSITIVE_CAPABILITIES } from './expected-role';

/**
 * Section 7, rule 1: a third-party plugin that widens roles it does not know must not
 * open anything for the service account, and the site owner must be told.
 */
describe.each( [
	[ 'add_cap on every role', 'role-widener-add-cap/role-widener-add-cap' ],
	[ 'a user_has_cap filter', 'role-widener-filter/role-widener-filter' ],
] )( 'role widening through %s', ( _label, plugin ) => {
	let account: ServiceAccount;
	let ownRecord: number;
	let adminRecord: number;

	beforeAll( async () => {
		account = await provisionServiceAccount( `widening-${ plugin.split( '/' )[ 0 ] }` );
		ownRecord = (
			await account.client.post< { id: number } >( '/wp/v2/commandes-fabrication', {
				title: 'Own',
				status: 'publish',
			} )
		).body.id;
		adminRecord = (
			await adminClient().post< { id: number } >( '/wp/v2/commandes-fabrication', {
				title: 'Owner',
				status: 'publish',
			} )
		).body.id;
		await adminClient().request( { method: 'DELETE', path: '/service-integration/v1/service-account/widening' } );
	} );

	afterAll( async () => {
		await adminClient().request( { method: 'DELETE', path: '/service-integration/v1/service-account/widening' } );
	} );

	it( 'still refuses everything outside the list, and reports the widening', async () => {
		const mark = debugLogMark();
		await withPluginActive( plugin, async () => {
			// One request so the widening plugin has run (init) before the checks.
			await adminClient().get( '/service-integration/v1/service-account' );

			expectRefused( await account.client.get( '/wp/v2/users' ), 'rest_forbidden', [ 403 ] );
			expectRefused(
				await account.client.post( '/wp/v2/plugins', { slug: 'hello-dolly' } ),
				'rest_forbidden',
				[ 403 ]
			);
			expectRefused(
				await account.client.post( '/wp/v2/settings', { title: 'hijacked' } ),
				'rest_forbidden',
				[ 403 ]
			);
			expectRefused( await account.client.post( '/wp/v2/posts', { title: 'spam' } ), 'rest_forbidden', [ 403 ] );
			expectRefused(
				await account.client.post( `/wp/v2/commandes-fabrication/${ adminRecord }`, { title: 'hijacked' } ),
				'rest_cannot_edit',
				[ 403 ]
			);
			expectRefused(
				await account.client.request( {
					method: 'DELETE',
					path: `/wp/v2/commandes-fabrication/${ ownRecord }?force=true`,
				} ),
				'rest_cannot_delete',
				[ 403 ]
			);

			// Effective values (user_can, after every filter) of what the widener hands out.
			const me = await account.client.get< {
				sensitive_capabilities: Record< string, boolean >;
				widening_detected: string[];
			} >( '/service-integration/v1/me' );
			expect( Object.keys( me.body.sensitive_capabilities ) ).toEqual(
				expect.arrayContaining( SENSITIVE_CAPABILITIES )
			);
			expect( Object.entries( me.body.sensitive_capabilities ).filter( ( [ , held ] ) => held ) ).toEqual( [] );
			expect( me.body.widening_detected ).toEqual(
				expect.arrayContaining( [ 'edit_posts', 'list_users', 'edit_shop_orders' ] )
			);

			const state = await adminClient().get< { widening_detected: string[] } >(
				'/service-integration/v1/service-account'
			);
			expect( state.body.widening_detected ).toEqual(
				expect.arrayContaining( [ 'edit_posts', 'manage_options' ] )
			);

			const { siteUrl } = readState();
			const dashboard = await fetch( `${ siteUrl }/wp-admin/`, {
				headers: { cookie: await loginCookies( siteUrl, 'admin', 'password' ) },
			} );
			const html = await dashboard.text();
			expect( html ).toContain( 'id="service-integration-widening"' );
			expect( html ).toMatch( /service-integration-widening[\s\S]*edit_posts/ );
		} );
		expect( debugLogSince( mark ) ).toMatch(
			/service-integration: capabilities or roles .* refused to the service_integration role .*edit_posts/
		);
		// The records are intact.
		expect( ( await account.client.get( `/wp/v2/commandes-fabrication/${ ownRecord }` ) ).status ).toBe( 200 );
	} );
} );

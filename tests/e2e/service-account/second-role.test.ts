import { adminClient } from '../support/clients';
import { debugLogMark, debugLogSince } from '../support/debug-log';
import { readState } from '../support/environment';
import { expectRefused } from '../support/expectations';
import { loginCookies } from '../../../scripts/lib/wp-login';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import { SENSITIVE_CAPABILITIES } from './expected-role';

/**
 * A plugin that gives the service account a second role (editor) must not switch the
 * clamp or the route allow-list off: any user holding service_integration is a service
 * account. The extra role is reported as widening ("role:editor").
 */
describe( 'a second role on the service account', () => {
	let account: ServiceAccount;
	let ownRecord: number;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'second-role' );
		ownRecord = (
			await account.client.post< { id: number } >( '/wp/v2/commandes-fabrication', {
				title: 'Own',
				status: 'publish',
			} )
		).body.id;
		await adminClient().request( { method: 'DELETE', path: '/service-integration/v1/service-account/widening' } );
	} );

	afterAll( async () => {
		await adminClient().request( { method: 'DELETE', path: '/service-integration/v1/service-account/widening' } );
	} );

	it( 'keeps the account clamped and allow-listed, and reports the extra role', async () => {
		const mark = debugLogMark();
		await withPluginActive( 'second-role/second-role', async () => {
			// The fixture adds the role on init; this request lets it run.
			const before = await adminClient().get< { account: { roles: string[] } } >(
				'/service-integration/v1/service-account'
			);
			expect( before.body.account.roles ).toEqual( [ 'service_integration', 'editor' ] );

			// An editor could do all of these; the service account still cannot.
			expectRefused( await account.client.get( '/wp/v2/users' ), 'rest_forbidden', [ 403 ] );
			expectRefused(
				await account.client.post( '/wp/v2/posts', { title: 'spam', status: 'publish' } ),
				'rest_forbidden',
				[ 403 ]
			);
			expectRefused( await account.client.post( '/wp/v2/pages', { title: 'spam' } ), 'rest_forbidden', [ 403 ] );
			expectRefused(
				await account.client.post( '/wp/v2/plugins', { slug: 'hello-dolly' } ),
				'rest_forbidden',
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

			const me = await account.client.get< {
				roles: string[];
				is_service_account: boolean;
				sensitive_capabilities: Record< string, boolean >;
				widening_detected: string[];
			} >( '/service-integration/v1/me' );
			expect( me.body ).toMatchObject( { roles: [ 'service_integration', 'editor' ], is_service_account: true } );
			expect( Object.keys( me.body.sensitive_capabilities ) ).toEqual(
				expect.arrayContaining( SENSITIVE_CAPABILITIES )
			);
			expect( Object.entries( me.body.sensitive_capabilities ).filter( ( [ , held ] ) => held ) ).toEqual( [] );
			expect( me.body.widening_detected ).toEqual( expect.arrayContaining( [ 'role:editor', 'edit_posts' ] ) );

			const state = await adminClient().get< { widening_detected: string[] } >(
				'/service-integration/v1/service-account'
			);
			expect( state.body.widening_detected ).toContain( 'role:editor' );

			const { siteUrl } = readState();
			const dashboard = await fetch( `${ siteUrl }/wp-admin/`, {
				headers: { cookie: await loginCookies( siteUrl, 'admin', 'password' ) },
			} );
			expect( await dashboard.text() ).toMatch( /id="service-integration-widening"[\s\S]*role:editor/ );
		} );
		expect( debugLogSince( mark ) ).toMatch( /refused to the service_integration role .*role:editor/ );

		// The fixture took its role back on deactivation: nothing is left to report but the log.
		const after = await adminClient().get< { account: { roles: string[] } } >(
			'/service-integration/v1/service-account'
		);
		expect( after.body.account.roles ).toEqual( [ 'service_integration' ] );
		expect( ( await account.client.get( `/wp/v2/commandes-fabrication/${ ownRecord }` ) ).status ).toBe( 200 );
	} );
} );

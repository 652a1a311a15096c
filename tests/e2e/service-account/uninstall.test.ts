import { adminClient } from '../support/clients';
import { debugLogMark, phpProblemsSince } from '../support/debug-log';
import { setPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';
import { EXPECTED_ROLE_CAPABILITIES } from './expected-role';

interface ProbeState {
	plugin_active: boolean;
	role: Record< string, boolean > | null;
	options: string[];
	users: Array< { id: number; username: string; roles: string[]; application_passwords: number } >;
	admin_type_caps: string[];
	tables: string[];
}

const PLUGIN = 'service-integration/service-integration';
const PROBE = 'lifecycle-probe/lifecycle-probe';
const probeState = () => adminClient().get< ProbeState >( '/si-test/v1/state' );

/**
 * Deactivation keeps everything; uninstall (what "Delete" runs: uninstall.php) removes the
 * role, the plugin's options and the administrators' type capabilities, and leaves the
 * service account as a user without role or application passwords. The plugin's files are
 * never deleted (they are the mounted source tree): the fixture runs uninstall.php as core
 * does. Its own file, because it takes the plugin away for a while.
 */
describe( 'deactivation and uninstall', () => {
	/** The account of the test that runs: each provisions its own, with the plugin active. */
	let provisioned: ServiceAccount | undefined;
	let mark: number;

	beforeAll( async () => {
		await setPluginActive( PROBE, true );
		mark = debugLogMark();
	} );

	// Each test takes the plugin away: the next one, and the next file, start from an active plugin.
	afterEach( async () => {
		// Activation recreates the role, the tables and the administrators' capabilities.
		await setPluginActive( PLUGIN, true );
		const user = ( await probeState() ).body.users.find( ( item ) => item.username === provisioned?.username );
		if ( user && ! user.roles.includes( 'service_integration' ) ) {
			// What uninstall leaves: a user without role, which provisioning would not take back.
			await adminClient().request( {
				method: 'DELETE',
				path: `/wp/v2/users/${ user.id }?force=true&reassign=1`,
			} );
		}
		provisioned = undefined;
	} );

	afterAll( async () => {
		try {
			await provisionServiceAccount( 'after-uninstall' );
		} finally {
			await setPluginActive( PROBE, false );
		}
		const state = await adminClient().get< { role_capabilities: Record< string, boolean > } >(
			'/service-integration/v1/service-account'
		);
		expect( state.body.role_capabilities ).toEqual( EXPECTED_ROLE_CAPABILITIES );
		expect( phpProblemsSince( mark ) ).toEqual( [] );
	} );

	it( 'deactivation keeps the role, the account, its application passwords and the options', async () => {
		const account = await provisionServiceAccount( 'deactivation-test' );
		provisioned = account;
		await setPluginActive( PLUGIN, false );
		const state = await probeState();
		expect( state.body ).toMatchObject( { plugin_active: false, role: EXPECTED_ROLE_CAPABILITIES } );
		expect( state.body.options ).toEqual(
			expect.arrayContaining( [ 'service_integration_version', 'service_integration_account_login' ] )
		);
		expect( state.body.users ).toContainEqual(
			expect.objectContaining( { username: account.username, roles: [ 'service_integration' ] } )
		);
		expect(
			state.body.users.find( ( user ) => user.username === account.username )?.application_passwords
		).toBeGreaterThan( 0 );
		expect( state.body.admin_type_caps ).toContain( 'edit_others_commande_fabrications' );
		expect( state.body.tables ).toContain( 'si_idempotency_keys' );

		// As docs/api/service-account.md says: while deactivated the password still signs in and
		// the clamp is gone (core's own capability checks remain), hence the advice to revoke passwords.
		const me = await account.client.get< { slug: string } >( '/wp/v2/users/me' );
		expect( [ me.status, me.body.slug ] ).toEqual( [ 200, account.username ] );
	} );

	it( 'uninstall removes the role, the options, the tables and the type capabilities; the account stays, without role or passwords', async () => {
		const account = await provisionServiceAccount( 'uninstall-test' );
		provisioned = account;
		// As core does: "Delete" is offered, and uninstall.php run, only for a deactivated plugin.
		await setPluginActive( PLUGIN, false );
		const uninstalled = await adminClient().post< ProbeState >( '/si-test/v1/uninstall' );
		expect( uninstalled.status ).toBe( 200 );

		// Read again in a later request: nothing brought any of it back.
		const state = await probeState();
		expect( state.body ).toMatchObject( {
			plugin_active: false,
			role: null,
			options: [],
			admin_type_caps: [],
			tables: [],
		} );
		expect( state.body.users ).toContainEqual(
			expect.objectContaining( { username: account.username, roles: [], application_passwords: 0 } )
		);

		// 401 (core says rest_not_logged_in: the plugin's clearer codes are off with it).
		const me = await account.client.get< { code: string } >( '/wp/v2/users/me' );
		expect( me.status ).toBe( 401 );
	} );
} );

import { adminClient } from '../support/clients';
import { withPluginActive } from '../support/plugins';
import { EXPECTED_ROLE_CAPABILITIES } from './expected-role';

interface ProbeState {
	role: Record< string, boolean > | null;
}
interface AccountState {
	role_exists: boolean;
	role_capabilities: Record< string, boolean >;
	widening_detected: string[];
}

const PROBE = 'lifecycle-probe/lifecycle-probe';
const accountState = () => adminClient().get< AccountState >( '/service-integration/v1/service-account' );
const dropRole = () => adminClient().request< ProbeState >( { method: 'DELETE', path: '/si-test/v1/role' } );

/**
 * Spec 2.1: the role is created at site initialisation (activation, and a check on init
 * for sites where activation never ran), and skipped when a role with the slug exists:
 * never edited capability by capability. The fixture drops or replaces the role as such
 * sites would have it.
 */
describe( 'role creation at site initialisation', () => {
	it( 'recreates a missing role, from scratch, on the next request', async () => {
		await withPluginActive( PROBE, async () => {
			const dropped = await dropRole();
			expect( [ dropped.status, dropped.body.role ] ).toEqual( [ 200, null ] );

			const state = await accountState();
			expect( state.body.role_exists ).toBe( true );
			expect( state.body.role_capabilities ).toEqual( EXPECTED_ROLE_CAPABILITIES );
		} );
	} );

	it( 'leaves a role that already exists with that slug untouched, on activation and on init', async () => {
		const existing = { read: true, custom_capability: true, edit_commande_fabrication: false };
		await withPluginActive( PROBE, async () => {
			try {
				const replaced = await adminClient().request< ProbeState >( {
					method: 'PUT',
					path: '/si-test/v1/role',
					data: { capabilities: existing },
				} );
				expect( replaced.body.role ).toEqual( existing );

				// The activation hook, as activate_plugin() fires it.
				const activated = await adminClient().post< ProbeState >( '/si-test/v1/activate' );
				expect( [ activated.status, activated.body.role ] ).toEqual( [ 200, existing ] );

				// A later request (init check): still not edited, and what it grants is reported.
				const state = await accountState();
				expect( state.body.role_capabilities ).toEqual( existing );
				expect( state.body.widening_detected ).toContain( 'custom_capability' );
			} finally {
				// Back to the plugin's role for the other tests: drop it, the next request recreates it.
				await dropRole();
			}
		} );
		const restored = await accountState();
		expect( restored.body.role_capabilities ).toEqual( EXPECTED_ROLE_CAPABILITIES );
		expect( restored.body.widening_detected ).not.toContain( 'custom_capability' );
	} );
} );

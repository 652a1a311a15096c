import { adminClient } from '../support/clients';
import { expectRefused } from '../support/expectations';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount } from '../support/service-account';

interface CheckReport {
	passed: boolean;
	account: string;
	authenticated: boolean;
	widening_detected: string[];
	results: Array< {
		method: string;
		route: string;
		expected: string;
		codes: string[];
		status: number;
		code: string | null;
		passed: boolean;
	} >;
}

const runCheck = () => adminClient().post< CheckReport >( '/service-integration/v1/service-account/check' );
const forgetWidening = () =>
	adminClient().request( { method: 'DELETE', path: '/service-integration/v1/service-account/widening' } );

describe( 'the least-privilege check a site owner runs on a live site', () => {
	it( 'creates a temporary account, tries the calls, reports each, and removes the account', async () => {
		const report = await runCheck();
		expect( report.status ).toBe( 200 );
		expect( report.body.authenticated ).toBe( true );
		expect( report.body.widening_detected ).toEqual( [] );
		expect( report.body.results.filter( ( result ) => ! result.passed ) ).toEqual( [] );
		expect( report.body.passed ).toBe( true );

		const routes = report.body.results.map( ( result ) => `${ result.method } ${ result.route }` );
		expect( routes ).toEqual( expect.arrayContaining( [ 'GET /wp/v2/users', 'POST /wp/v2/plugins' ] ) );
		for ( const result of report.body.results.filter( ( r ) => r.expected === 'refused' ) ) {
			expect( [ result.status, result.code ] ).toEqual( [ 403, 'rest_forbidden' ] );
			expect( result.codes ).toEqual( [ 'rest_forbidden' ] );
		}

		const users = await adminClient().get< Array< { slug: string } > >(
			`/wp/v2/users?search=${ report.body.account }&context=edit`
		);
		expect( users.body ).toEqual( [] );
	} );

	it( 'fails when a refusal does not come from the route allow-list (any 403 is not enough)', async () => {
		// The fixture opens /wp/v2/plugins to service accounts; core still answers 403, with its own code.
		await withPluginActive( 'allowed-routes-widener/allowed-routes-widener', async () => {
			const report = await runCheck();
			expect( report.body.passed ).toBe( false );
			expect(
				report.body.results
					.filter( ( result ) => ! result.passed )
					.map( ( r ) => `${ r.method } ${ r.route } ${ r.status } ${ r.code }` )
			).toEqual( expect.arrayContaining( [ 'GET /wp/v2/plugins 403 rest_cannot_view_plugins' ] ) );
		} );
		expect( ( await runCheck() ).body.passed ).toBe( true );
	} );

	it( 'fails and names the widening when another plugin widens the role', async () => {
		await forgetWidening();
		try {
			await withPluginActive( 'role-widener-filter/role-widener-filter', async () => {
				const report = await runCheck();
				// Every call is still refused (the clamp holds), but the owner must act.
				expect( report.body.results.filter( ( result ) => ! result.passed ) ).toEqual( [] );
				expect( report.body.widening_detected ).toEqual(
					expect.arrayContaining( [ 'edit_posts', 'manage_options' ] )
				);
				expect( report.body.passed ).toBe( false );
			} );
		} finally {
			await forgetWidening();
		}
		expect( ( await runCheck() ).body ).toMatchObject( { passed: true, widening_detected: [] } );
	} );

	it( 'is for administrators only', async () => {
		const account = await provisionServiceAccount( 'check-refused' );
		expectRefused(
			await account.client.post( '/service-integration/v1/service-account/check' ),
			'rest_forbidden',
			[ 403 ]
		);
	} );
} );

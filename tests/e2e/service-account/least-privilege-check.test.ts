import { adminClient } from '../support/clients';
import { expectRefused } from '../support/expectations';
import { provisionServiceAccount } from '../support/service-account';

interface CheckReport {
	passed: boolean;
	account: string;
	authenticated: boolean;
	results: Array< { method: string; route: string; expected: string; status: number; code: string | null; passed: boolean } >;
}

describe( 'the least-privilege check a site owner runs on a live site', () => {
	it( 'creates a temporary account, tries the calls, reports each, and removes the account', async () => {
		const report = await adminClient().post< CheckReport >( '/service-integration/v1/service-account/check' );
		expect( report.status ).toBe( 200 );
		expect( report.body.authenticated ).toBe( true );
		expect( report.body.results.filter( ( result ) => ! result.passed ) ).toEqual( [] );
		expect( report.body.passed ).toBe( true );

		const routes = report.body.results.map( ( result ) => `${ result.method } ${ result.route }` );
		expect( routes ).toEqual( expect.arrayContaining( [ 'GET /wp/v2/users', 'POST /wp/v2/plugins' ] ) );
		for ( const result of report.body.results.filter( ( r ) => r.expected === 'refused' ) ) {
			expect( [ result.status, result.code ] ).toEqual( [ 403, 'rest_forbidden' ] );
		}

		const users = await adminClient().get< Array< { slug: string } > >( `/wp/v2/users?search=${ report.body.account }&context=edit` );
		expect( users.body ).toEqual( [] );
	} );

	it( 'is for administrators only', async () => {
		const account = await provisionServiceAccount( 'check-refused' );
		expectRefused( await account.client.post( '/service-integration/v1/service-account/check' ), 'rest_forbidden', [ 403 ] );
	} );
} );

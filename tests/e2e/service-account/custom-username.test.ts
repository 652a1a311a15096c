import { adminClient } from '../support/clients';
import { readState } from '../support/environment';
import { expectRefused } from '../support/expectations';
import { RestClient } from '../../../scripts/lib/rest-client';
import { cli } from './run-cli';

const BASE = '/service-integration/v1/service-account';
const LOGIN = 'n8n-bot';

interface State {
	account: { id: number; username: string; roles: string[] } | null;
	application_passwords: Array< { uuid: string; name: string } >;
}

/** Deletes the site's service account (records go to the administrator), if there is one. */
async function deleteAccount(): Promise< void > {
	const state = await adminClient().get< State >( BASE );
	if ( state.body.account ) {
		const deleted = await adminClient().request( {
			method: 'DELETE',
			path: `/wp/v2/users/${ state.body.account.id }?force=true&reassign=1`,
		} );
		expect( deleted.status ).toBe( 200 );
	}
}

/** Creates the account under the custom login through REST, as the tests that do not exercise the CLI need it. */
async function createCustomAccount(): Promise< void > {
	const created = await adminClient().post< { username: string } >( BASE, { username: LOGIN } );
	expect( [ created.status, created.body.username ] ).toEqual( [ 201, LOGIN ] );
}

/**
 * A login chosen at creation (REST `username`, CLI `--username`) is the account that
 * status, password and revoke act on afterwards, not only the default login.
 */
describe( 'a service account created with a custom login', () => {
	// Each test starts without an account and creates the one it works on.
	beforeEach( async () => {
		await deleteAccount();
	} );

	afterAll( async () => {
		// Leave the default account the other tests provision.
		await deleteAccount();
		const restored = await adminClient().post< { username: string } >( BASE );
		expect( [ restored.status, restored.body.username ] ).toEqual( [ 201, 'service-integration' ] );
	} );

	it( 'is created, shown, given a password and revoked from the command line', async () => {
		expect( await cli( 'create', `--username=${ LOGIN }` ) ).toMatchObject( {
			status: 0,
			stdout: `created: ${ LOGIN } (role service_integration)\n`,
		} );
		expect( await cli( 'status' ) ).toMatchObject( {
			status: 0,
			stdout: expect.stringContaining( `account: ${ LOGIN }\n` ),
		} );

		const password = await cli( 'password', '--name=custom-login' );
		expect( password.status ).toBe( 0 );
		expect( password.stdout ).toContain( `user:          ${ LOGIN }\n` );
		const authorization = /^Authorization: (Basic \S+)$/m.exec( password.stdout )?.[ 1 ] as string;
		const uuid = /^uuid:\s+(\S+)$/m.exec( password.stdout )?.[ 1 ] as string;
		const me = () =>
			fetch( `${ readState().siteUrl }/wp-json/service-integration/v1/me`, { headers: { authorization } } );
		const signedIn = await me();
		expect( signedIn.status ).toBe( 200 );
		expect( await signedIn.json() ).toMatchObject( { username: LOGIN, is_service_account: true } );

		expect( await cli( 'revoke', `--uuid=${ uuid }` ) ).toMatchObject( {
			status: 0,
			stdout: `revoked ${ uuid }\n`,
		} );
		const revoked = await me();
		expect( revoked.status ).toBe( 401 );
		expect( await revoked.json() ).toMatchObject( { code: 'incorrect_password' } );
	} );

	it( 'is the account the REST routes act on', async () => {
		await createCustomAccount();
		const state = await adminClient().get< State >( BASE );
		expect( state.body.account ).toMatchObject( { username: LOGIN, roles: [ 'service_integration' ] } );

		const created = await adminClient().post< { username: string; password: string; uuid: string } >(
			`${ BASE }/application-passwords`,
			{ name: 'rest-custom' }
		);
		expect( [ created.status, created.body.username ] ).toEqual( [ 201, LOGIN ] );
		const client = new RestClient( readState().siteUrl, { username: LOGIN, password: created.body.password } );
		expect( ( await client.get( '/service-integration/v1/me' ) ).status ).toBe( 200 );
		const listed = await adminClient().get< State >( BASE );
		expect( listed.body.application_passwords.map( ( item ) => item.uuid ) ).toContain( created.body.uuid );

		const revoked = await adminClient().request( {
			method: 'DELETE',
			path: `${ BASE }/application-passwords/${ created.body.uuid }`,
		} );
		expect( revoked.status ).toBe( 200 );
		expectRefused( await client.get( '/service-integration/v1/me' ), 'incorrect_password', [ 401 ] );
	} );

	it( 'stays the one account: creating again is idempotent, another login is a 409', async () => {
		await createCustomAccount();
		const again = await adminClient().post< { username: string; created: boolean } >( BASE );
		expect( [ again.status, again.body ] ).toEqual( [
			200,
			expect.objectContaining( { username: LOGIN, created: false } ),
		] );
		const other = await adminClient().post< { code: string } >( BASE, { username: 'another-bot' } );
		expect( [ other.status, other.body.code ] ).toEqual( [ 409, 'service_account_exists' ] );
		const users = await adminClient().get< Array< { slug: string } > >(
			'/wp/v2/users?search=another-bot&context=edit'
		);
		expect( users.body ).toEqual( [] );
	} );
} );

import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import { adminClient, anonymousClient } from '../support/clients';
import { debugLogMark, phpProblemsSince } from '../support/debug-log';
import { readState } from '../support/environment';
import { expectRefused } from '../support/expectations';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

/**
 * Section 5.4 of the specification, automated: with the service account's application
 * password, the users collection (any method) and POST /wp/v2/plugins are refused with
 * rest_forbidden. The status is 403: the caller is authenticated, and core's
 * rest_authorization_required_code() answers 403 for a logged-in user, 401 otherwise.
 */
describe( 'refusals that hold', () => {
	let account: ServiceAccount;

	beforeAll( async () => {
		account = await provisionServiceAccount( 'refusals-test' );
	} );

	it.each( [
		[ 'GET', '/wp/v2/users' ],
		[ 'POST', '/wp/v2/users' ],
		[ 'GET', '/wp/v2/users/me' ],
		[ 'GET', '/wp/v2/users/1' ],
		[ 'POST', '/wp/v2/users/1' ],
		[ 'PUT', '/wp/v2/users/1' ],
		[ 'DELETE', '/wp/v2/users/1?force=true&reassign=1' ],
		[ 'POST', '/wp/v2/users/me/application-passwords' ],
		[ 'POST', '/wp/v2/plugins' ],
		[ 'GET', '/wp/v2/plugins' ],
	] )( '%s %s → 403 rest_forbidden', async ( method, path ) => {
		const body =
			path === '/wp/v2/plugins'
				? { slug: 'hello-dolly', status: 'active' }
				: { username: 'intruder', email: 'intruder@example.com', password: 'x', name: 'persist' };
		const result = await account.client.request( {
			method,
			path,
			data: method === 'GET' || method === 'DELETE' ? undefined : body,
		} );
		expectRefused( result, 'rest_forbidden', [ 403 ] );
	} );

	it( 'does not reveal the service account as an author to anonymous visitors', async () => {
		await account.client.post( '/wp/v2/commandes-fabrication', { title: 'Published record', status: 'publish' } );
		const users = await anonymousClient().get< Array< { slug: string } > >( '/wp/v2/users?per_page=100' );
		expect( users.status ).toBe( 200 );
		expect( users.body.map( ( user ) => user.slug ) ).not.toContain( account.username );
	} );

	// WP_DEBUG_DISPLAY is off, so warnings would never show in a body: debug.log is read instead.
	// In a REST request core reports _doing_it_wrong in an X-WP-DoingItWrong header, not the log.
	describe( 'bad credentials get a clear 401, never a PHP warning', () => {
		const siteUrl = readState().siteUrl;
		const call = async ( headers: Record< string, string > ) => {
			const mark = debugLogMark();
			const response = await fetch( `${ siteUrl }/wp-json/service-integration/v1/me`, {
				headers: { cookie: PLAYGROUND_COOKIE, ...headers },
			} );
			const text = await response.text();
			expect( phpProblemsSince( mark ) ).toEqual( [] );
			expect( response.headers.get( 'x-wp-doingitwrong' ) ).toBeNull();
			return { status: response.status, code: ( JSON.parse( text ) as { code: string } ).code };
		};
		const basic = ( user: string, password: string ) => ( {
			authorization: 'Basic ' + Buffer.from( `${ user }:${ password }` ).toString( 'base64' ),
		} );

		it( 'wrong password → incorrect_password', async () => {
			expect( await call( basic( account.username, 'abcd efgh ijkl mnop qrst uvwx' ) ) ).toEqual( {
				status: 401,
				code: 'incorrect_password',
			} );
		} );

		it( 'the right password → 200, and /me asks no per-record capability without a record (no notice)', async () => {
			expect( await call( basic( account.username, account.password ) ) ).toEqual( {
				status: 200,
				code: undefined,
			} );
		} );

		it( 'unknown user → invalid_username', async () => {
			expect( await call( basic( 'nobody-here', account.password ) ) ).toEqual( {
				status: 401,
				code: 'invalid_username',
			} );
		} );

		it( 'no Authorization header → rest_not_logged_in', async () => {
			expect( await call( {} ) ).toEqual( { status: 401, code: 'rest_not_logged_in' } );
		} );

		it.each( [
			[ 'Basic !!!not-base64' ],
			[ 'Basic ' ],
			[ 'Basic ' + Buffer.from( 'no-colon' ).toString( 'base64' ) ],
		] )( 'malformed header %j → rest_malformed_authorization', async ( header ) => {
			expect( await call( { authorization: header } ) ).toEqual( {
				status: 401,
				code: 'rest_malformed_authorization',
			} );
		} );

		it( 'application passwords turned off on the site → application_passwords_disabled', async () => {
			await withPluginActive( 'application-passwords-off/application-passwords-off', async () => {
				expect( await call( basic( account.username, account.password ) ) ).toEqual( {
					status: 401,
					code: 'application_passwords_disabled',
				} );
			} );
			expect( ( await call( basic( account.username, account.password ) ) ).status ).toBe( 200 );
		} );
	} );

	it( 'a leaked service password cannot mint more passwords or read the users list (administrators still can)', async () => {
		expect( ( await adminClient().get( '/wp/v2/users' ) ).status ).toBe( 200 );
		expectRefused(
			await account.client.post( `/wp/v2/users/me/application-passwords`, { name: 'backdoor' } ),
			'rest_forbidden',
			[ 403 ]
		);
		const state = await adminClient().get< { application_passwords: Array< { name: string } > } >(
			'/service-integration/v1/service-account'
		);
		expect( state.body.application_passwords.map( ( item ) => item.name ) ).not.toContain( 'backdoor' );
	} );
} );

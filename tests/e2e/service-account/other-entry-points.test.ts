import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import { adminClient } from '../support/clients';
import { readState } from '../support/environment';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

/**
 * An application password must work where the REST allow-list applies, and nowhere else:
 * not on admin-ajax.php / admin-post.php (which core keeps closed to application
 * passwords, even with ?rest_route= in the URL), and not on XML-RPC for a service account.
 */
describe( 'the service account outside the REST API', () => {
	let account: ServiceAccount;
	const basic = ( username: string, password: string ) =>
		'Basic ' + Buffer.from( `${ username }:${ password }` ).toString( 'base64' );

	beforeAll( async () => {
		account = await provisionServiceAccount( 'entry-points' );
	} );

	describe( 'admin-ajax.php and admin-post.php with ?rest_route=', () => {
		// The fixture answers the current user's id there, signed in or not.
		const whoami = async ( script: string, authorization: string ) => {
			const response = await fetch(
				`${ readState().siteUrl }/wp-admin/${ script }?rest_route=/service-integration/v1/me&action=si_whoami`,
				{
					method: 'POST',
					headers: {
						authorization,
						cookie: PLAYGROUND_COOKIE,
						'content-type': 'application/x-www-form-urlencoded',
					},
					body: 'action=si_whoami',
					redirect: 'manual',
				}
			);
			const text = await response.text();
			return {
				status: response.status,
				body: text.startsWith( '{' ) ? ( JSON.parse( text ) as { user_id: number } ) : text,
			};
		};

		it.each( [ [ 'admin-ajax.php' ], [ 'admin-post.php' ] ] )(
			'%s does not sign the service account in',
			async ( script ) => {
				await withPluginActive( 'auth-probe/auth-probe', async () => {
					expect( await whoami( script, basic( account.username, account.password ) ) ).toEqual( {
						status: 200,
						body: { user_id: 0 },
					} );
				} );
			}
		);

		it( 'the front controller still honours ?rest_route= (index.php is the REST API)', async () => {
			const response = await fetch( `${ readState().siteUrl }/?rest_route=/service-integration/v1/me`, {
				headers: { authorization: basic( account.username, account.password ) },
				redirect: 'manual',
			} );
			expect( response.status ).toBe( 200 );
			expect( await response.json() ).toMatchObject( { username: account.username } );
		} );
	} );

	describe( 'XML-RPC', () => {
		const xmlrpc = async ( method: string, params: Array< string | number | Record< string, string > > ) => {
			const value = ( param: string | number | Record< string, string > ): string => {
				if ( typeof param === 'number' ) {
					return `<int>${ param }</int>`;
				}
				if ( typeof param === 'string' ) {
					return `<string>${ param.replace( /&/g, '&amp;' ).replace( /</g, '&lt;' ) }</string>`;
				}
				return `<struct>${ Object.entries( param )
					.map( ( [ name, v ] ) => `<member><name>${ name }</name><value>${ value( v ) }</value></member>` )
					.join( '' ) }</struct>`;
			};
			const body = `<?xml version="1.0"?><methodCall><methodName>${ method }</methodName><params>${ params.map( ( param ) => `<param><value>${ value( param ) }</value></param>` ).join( '' ) }</params></methodCall>`;
			const response = await fetch( `${ readState().siteUrl }/xmlrpc.php`, {
				method: 'POST',
				headers: { 'content-type': 'text/xml' },
				body,
				redirect: 'manual',
			} );
			const text = await response.text();
			const fault =
				/<name>faultCode<\/name>\s*<value><int>(\d+)<\/int><\/value>[\s\S]*<name>faultString<\/name>\s*<value><string>([^<]*)<\/string>/.exec(
					text
				);
			return {
				status: response.status,
				text,
				faultCode: fault ? Number( fault[ 1 ] ) : null,
				faultString: fault?.[ 2 ] ?? null,
			};
		};

		it( 'works in this environment: an administrator application password reads its profile', async () => {
			const { admin } = readState();
			const result = await xmlrpc( 'wp.getProfile', [ 1, admin.username, admin.applicationPassword ] );
			expect( result ).toMatchObject( { status: 200, faultCode: null } );
			expect( result.text ).toContain( '<name>username</name><value><string>admin</string>' );
		} );

		it( 'refuses the service account with a clear 403 fault (wp.getProfile)', async () => {
			const result = await xmlrpc( 'wp.getProfile', [ 1, account.username, account.password ] );
			expect( { faultCode: result.faultCode, faultString: result.faultString } ).toEqual( {
				faultCode: 403,
				faultString: 'Service accounts cannot use XML-RPC; use the REST API.',
			} );
			expect( result.text ).not.toContain( '<name>username</name>' );
		} );

		it( 'refuses wp.editProfile and changes nothing', async () => {
			const result = await xmlrpc( 'wp.editProfile', [
				1,
				account.username,
				account.password,
				{ first_name: 'Hijacked', bio: 'xmlrpc' },
			] );
			expect( result.faultCode ).toBe( 403 );
			const state = await adminClient().get< { account: { id: number } } >(
				'/service-integration/v1/service-account'
			);
			const user = await adminClient().get< { first_name: string; description: string } >(
				`/wp/v2/users/${ state.body.account.id }?context=edit`
			);
			expect( user.status ).toBe( 200 );
			expect( user.body ).toMatchObject( { first_name: '', description: '' } );
		} );

		it( 'refuses wp.newComment', async () => {
			const result = await xmlrpc( 'wp.newComment', [
				1,
				account.username,
				account.password,
				1,
				{ content: 'spam from a leaked password' },
			] );
			expect( result.faultCode ).toBe( 403 );
		} );
	} );
} );

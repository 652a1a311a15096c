import { RestClient } from '../../../scripts/lib/rest-client';
import { loginCookies, restNonce } from '../../../scripts/lib/wp-login';
import { openSession, pageUrl, SETUP_TIMEOUT, shot, type AdminSession } from '../support/admin-page';
import { adminClient } from '../support/clients';
import { readState } from '../support/environment';
import { expectRefused } from '../support/expectations';

const EDITOR = { username: `editor-${ Date.now().toString( 36 ) }`, password: 'editor-password-1234' };

/** Every route the page calls, as a logged-in editor would call them (cookie + nonce). */
const ROUTES: Array< [ string, string, unknown? ] > = [
	[ 'GET', '/service-integration/v1/service-account' ],
	[ 'POST', '/service-integration/v1/service-account' ],
	[ 'POST', '/service-integration/v1/service-account/application-passwords', { name: 'stolen' } ],
	[ 'POST', '/service-integration/v1/service-account/check' ],
	[ 'DELETE', '/service-integration/v1/service-account/widening' ],
	[ 'GET', '/service-integration/v1/sidecar/status' ],
	[ 'GET', '/service-integration/v1/webhooks/endpoints' ],
	[ 'POST', '/service-integration/v1/webhooks/endpoints', { url: 'https://attacker.example/hook' } ],
	[ 'GET', '/service-integration/v1/webhooks/deliveries' ],
	[ 'POST', '/service-integration/v1/webhooks/replay', { since: '2020-01-01T00:00:00Z' } ],
];

describe( 'the admin page is for administrators only', () => {
	let session: AdminSession;

	beforeAll( async () => {
		const created = await adminClient().post< { id: number } >( '/wp/v2/users', {
			username: EDITOR.username,
			email: `${ EDITOR.username }@example.com`,
			password: EDITOR.password,
			roles: [ 'editor' ],
		} );
		if ( created.status !== 201 ) {
			throw new Error( `Could not create the editor: HTTP ${ created.status } ${ JSON.stringify( created.body ) }` );
		}
		session = await openSession( { username: EDITOR.username, password: EDITOR.password } );
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
	} );

	it( 'wp-admin refuses the page to an editor, and shows no menu entry', async () => {
		const { page, siteUrl } = session;
		const response = await page.goto( pageUrl( siteUrl ), { waitUntil: 'domcontentloaded' } );
		expect( response?.status() ).toBe( 403 );
		expect( await page.locator( 'body' ).innerText() ).toContain( 'Sorry, you are not allowed to access this page.' );
		expect( await page.locator( '#service-integration-admin' ).count() ).toBe( 0 );
		await shot( session, 'editor-refused' );

		await page.goto( `${ siteUrl }/wp-admin/profile.php`, { waitUntil: 'domcontentloaded' } );
		await page.locator( '#adminmenu' ).waitFor();
		expect( await page.locator( '#adminmenu a[href="admin.php?page=service-integration"]' ).count() ).toBe( 0 );
	} );

	it( 'refuses the editor every REST route the page uses (403)', async () => {
		const { siteUrl } = readState();
		const cookie = await loginCookies( siteUrl, EDITOR.username, EDITOR.password );
		const editor = new RestClient( siteUrl, { cookie, nonce: await restNonce( siteUrl, cookie ) } );
		for ( const [ method, path, data ] of ROUTES ) {
			const result = await editor.request( { method, path, data } );
			expect( { route: `${ method } ${ path }`, status: result.status } ).toEqual( { route: `${ method } ${ path }`, status: 403 } );
			expectRefused( result, 'rest_forbidden', [ 403 ] );
		}
	} );

	it( 'refuses the same routes from the editor\'s own browser session (cookie and REST nonce)', async () => {
		const { page, siteUrl } = session;
		await page.goto( `${ siteUrl }/wp-admin/profile.php`, { waitUntil: 'domcontentloaded' } );
		const statuses = await page.evaluate( async ( routes ) => {
			const nonce = await ( await fetch( '/wp-admin/admin-ajax.php?action=rest-nonce' ) ).text();
			const out: Array< [ string, number ] > = [];
			for ( const [ method, path, body ] of routes ) {
				const response = await fetch( `/wp-json${ path }`, { method, headers: { 'x-wp-nonce': nonce, 'content-type': 'application/json' }, body: method === 'GET' ? undefined : body } );
				out.push( [ `${ method } ${ path }`, response.status ] );
			}
			return out;
		}, ROUTES.map( ( [ method, path, data ] ) => [ method, path, JSON.stringify( data ?? {} ) ] as [ string, string, string ] ) );
		expect( statuses.filter( ( [ , status ] ) => status !== 403 ) ).toEqual( [] );
	} );
} );

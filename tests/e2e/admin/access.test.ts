import { RestClient } from '../../../scripts/lib/rest-client';
import { loginCookies, restNonce } from '../../../scripts/lib/wp-login';
import { openSession, pageUrl, SETUP_TIMEOUT, shot, type AdminSession } from '../support/admin-page';
import { adminClient } from '../support/clients';
import { adminCalls, type AdminCall } from './admin-routes';
import { readState } from '../support/environment';

const EDITOR = { username: `editor-${ Date.now().toString( 36 ) }`, password: 'editor-password-1234' };

/**
 * Routes the audit named: if the index ever stopped listing them, the sweep below would
 * pass for the wrong reason.
 */
const MUST_COVER = [
	'GET /service-integration/v1/service-account',
	'DELETE /service-integration/v1/service-account/application-passwords/00000000-0000-4000-8000-000000000000',
	'PATCH /service-integration/v1/webhooks/endpoints/1',
	'DELETE /service-integration/v1/webhooks/endpoints/1',
	'POST /service-integration/v1/webhooks/endpoints/1/rotate-secret',
	'POST /service-integration/v1/webhooks/endpoints/1/enable',
	'POST /service-integration/v1/webhooks/endpoints/1/disable',
	'POST /service-integration/v1/webhooks/events/1/replay',
	'POST /service-integration/v1/webhooks/replay',
	'GET /service-integration/v1/inbound/sources',
	'POST /service-integration/v1/inbound/sources',
	'DELETE /service-integration/v1/inbound/sources/1',
	'POST /service-integration/v1/inbound/sources/1/rotate-secret',
	'GET /service-integration/v1/inbound/log',
	'GET /service-integration/v1/inbound/events',
	'POST /service-integration/v1/inbound/events/1/retry',
	'GET /service-integration/v1/sidecar/status',
];

const label = ( call: AdminCall ) => `${ call.method } ${ call.path }`;

describe( 'the admin page is for administrators only', () => {
	let session: AdminSession;
	let calls: AdminCall[];

	beforeAll( async () => {
		calls = await adminCalls( readState().siteUrl );
		const created = await adminClient().post< { id: number } >( '/wp/v2/users', {
			username: EDITOR.username,
			email: `${ EDITOR.username }@example.com`,
			password: EDITOR.password,
			roles: [ 'editor' ],
		} );
		if ( created.status !== 201 ) {
			throw new Error(
				`Could not create the editor: HTTP ${ created.status } ${ JSON.stringify( created.body ) }`
			);
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
		expect( await page.locator( 'body' ).innerText() ).toContain(
			'Sorry, you are not allowed to access this page.'
		);
		expect( await page.locator( '#service-integration-admin' ).count() ).toBe( 0 );
		await shot( session, 'editor-refused' );

		await page.goto( `${ siteUrl }/wp-admin/profile.php`, { waitUntil: 'domcontentloaded' } );
		await page.locator( '#adminmenu' ).waitFor();
		expect( await page.locator( '#adminmenu a[href="admin.php?page=service-integration"]' ).count() ).toBe( 0 );
	} );

	it( "covers every administrator route of the plugin's REST index", () => {
		expect( MUST_COVER.filter( ( route ) => ! calls.map( label ).includes( route ) ) ).toEqual( [] );
		expect(
			calls
				.map( ( call ) => call.path )
				.filter( ( path ) => /\/(me|commandes-payees|sidecar\/callback)$/.test( path ) )
		).toEqual( [] );
	} );

	it( 'refuses the editor every administrator REST route of the plugin (403 rest_forbidden)', async () => {
		const { siteUrl } = readState();
		const cookie = await loginCookies( siteUrl, EDITOR.username, EDITOR.password );
		const editor = new RestClient( siteUrl, { cookie, nonce: await restNonce( siteUrl, cookie ) } );
		const refused: Array< { route: string; status: number; code: unknown } > = [];
		for ( const call of calls ) {
			const result = await editor.request( call );
			refused.push( {
				route: label( call ),
				status: result.status,
				code: ( result.body as { code?: unknown } )?.code,
			} );
		}
		expect( refused.filter( ( r ) => r.status !== 403 || r.code !== 'rest_forbidden' ) ).toEqual( [] );
	} );

	it( "refuses the same routes from the editor's own browser session (cookie and REST nonce)", async () => {
		const { page, siteUrl } = session;
		await page.goto( `${ siteUrl }/wp-admin/profile.php`, { waitUntil: 'domcontentloaded' } );
		const statuses = await page.evaluate(
			async ( routes ) => {
				const nonce = await ( await fetch( '/wp-admin/admin-ajax.php?action=rest-nonce' ) ).text();
				const out: Array< [ string, number ] > = [];
				for ( const [ method, path, body ] of routes ) {
					const response = await fetch( `/wp-json${ path }`, {
						method,
						headers: { 'x-wp-nonce': nonce, 'content-type': 'application/json' },
						body: method === 'GET' ? undefined : body,
					} );
					out.push( [ `${ method } ${ path }`, response.status ] );
				}
				return out;
			},
			calls.map(
				( call ) => [ call.method, call.path, JSON.stringify( call.data ?? {} ) ] as [ string, string, string ]
			)
		);
		expect( statuses.filter( ( [ , status ] ) => status !== 403 ) ).toEqual( [] );
	} );
} );

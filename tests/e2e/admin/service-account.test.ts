import { RestClient } from '../../../scripts/lib/rest-client';
import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import {
	app,
	openSession,
	openTab,
	SETUP_TIMEOUT,
	shot,
	waitForLoaded,
	type AdminSession,
} from '../support/admin-page';
import { adminClient } from '../support/clients';
import { readState } from '../support/environment';
import { withPluginActive } from '../support/plugins';
import { provisionServiceAccount } from '../support/service-account';

interface AccountState {
	account: { username: string } | null;
}

/** What an automation tool does with the credentials the page showed: call /me. */
async function callMe(
	authorization: string
): Promise< { status: number; body: { username?: string; is_service_account?: boolean; code?: string } } > {
	const response = await fetch( `${ readState().siteUrl }/wp-json/service-integration/v1/me`, {
		headers: { authorization, cookie: PLAYGROUND_COOKIE, accept: 'application/json' },
		redirect: 'manual',
	} );
	return { status: response.status, body: ( await response.json() ) as { username?: string; code?: string } };
}

describe( 'the service account screen', () => {
	let session: AdminSession;

	beforeAll( async () => {
		session = await openSession( { tab: 'account' } );
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
	} );

	it( 'shows whether the integration role exists, with or without the account', async () => {
		const { page } = session;
		// The role lives on its own (activation, a check on every load): simulated here with and without it, before any account.
		const state = /\/service-integration\/v1\/service-account(\?|$)/;
		for ( const roleExists of [ true, false ] ) {
			await page.route( state, async ( route ) => {
				const real = await route.fetch();
				await route.fulfill( {
					response: real,
					json: {
						...( await real.json() ),
						account: null,
						application_passwords: [],
						role_exists: roleExists,
					},
				} );
			} );
			try {
				await openTab( session, 'account' );
				await waitForLoaded( page );
				await app( page ).getByText( 'There is no service account yet.' ).waitFor();
				const role = page.locator( '.si-role-status' );
				expect( await role.getAttribute( 'data-role-exists' ) ).toBe( roleExists ? 'yes' : 'no' );
				expect( await role.innerText() ).toContain( roleExists ? 'Exists' : 'Missing' );
			} finally {
				await page.unroute( state );
			}
		}
		// With the real answer the role is there, whether or not an earlier test made the account.
		await openTab( session, 'account' );
		await waitForLoaded( page );
		expect( await page.locator( '.si-role-status' ).getAttribute( 'data-role-exists' ) ).toBe( 'yes' );
		expect( session.errors ).toEqual( [] );
	} );

	it( 'creates the service account', async () => {
		const { page } = session;
		const before = await adminClient().get< AccountState >( '/service-integration/v1/service-account' );
		await waitForLoaded( page );
		if ( before.body.account === null ) {
			await app( page ).getByText( 'There is no service account yet.' ).waitFor();
			await page.getByRole( 'button', { name: 'Create the service account' } ).click();
		}
		await page.locator( '.si-account-username', { hasText: 'service-integration' } ).waitFor();
		const after = await adminClient().get< AccountState >( '/service-integration/v1/service-account' );
		expect( after.body.account?.username ).toBe( 'service-integration' );
		await page.getByRole( 'heading', { name: 'Application passwords' } ).waitFor();
		expect( session.errors ).toEqual( [] );
	} );

	it( 'creates an application password, shows it once with the exact Basic header, and the password works', async () => {
		const { page } = session;
		// The form is shown for an existing account: made here (idempotent) and the tab loaded afresh.
		const account = await adminClient().post< { username: string } >( '/service-integration/v1/service-account' );
		expect( [ 200, 201 ] ).toContain( account.status );
		await openTab( session, 'account' );
		await waitForLoaded( page );
		await page.getByLabel( 'Name of the new application password' ).fill( 'browser-e2e' );
		await page.getByRole( 'button', { name: 'Create application password' } ).click();
		await app( page ).getByText( 'Application password "browser-e2e" created' ).waitFor();

		const username = await page.getByLabel( 'User name', { exact: true } ).inputValue();
		const password = await page.getByLabel( 'Application password', { exact: true } ).inputValue();
		const header = await page.getByLabel( 'Authorization header value', { exact: true } ).inputValue();
		expect( username ).toBe( 'service-integration' );
		expect( password ).toMatch( /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/ );
		expect( header ).toBe(
			'Basic ' + Buffer.from( `${ username }:${ password.replace( / /g, '' ) }` ).toString( 'base64' )
		);
		await app( page ).getByText( 'it is shown only this once' ).waitFor();
		await page.locator( '.si-passwords tr', { hasText: 'browser-e2e' } ).waitFor();
		await shot( session, 'service-account-password-created' );

		// The automation's view: the shown password and the shown header both authenticate.
		const me = await new RestClient( readState().siteUrl, { username, password } ).get< {
			username: string;
			is_service_account: boolean;
		} >( '/service-integration/v1/me' );
		expect( me.status ).toBe( 200 );
		expect( me.body.username ).toBe( 'service-integration' );
		expect( me.body.is_service_account ).toBe( true );
		const withHeader = await callMe( header );
		expect( [ withHeader.status, withHeader.body.username ] ).toEqual( [ 200, 'service-integration' ] );

		// Copy puts it on the clipboard.
		await page.getByRole( 'button', { name: 'Copy the password' } ).click();
		await page.locator( '.si-copy__status', { hasText: 'Copied!' } ).first().waitFor();
		expect( await page.evaluate( () => navigator.clipboard.readText() ) ).toBe( password );

		// Shown once: after hiding it, nothing on the page holds it any more.
		await page.getByRole( 'button', { name: 'I have copied it, hide it' } ).click();
		await app( page ).getByText( 'Application password "browser-e2e" created' ).waitFor( { state: 'detached' } );
		expect( await page.content() ).not.toContain( password );
		await page.reload( { waitUntil: 'domcontentloaded' } );
		await waitForLoaded( page );
		await page.locator( '.si-passwords tr', { hasText: 'browser-e2e' } ).waitFor();
		expect( await page.content() ).not.toContain( password );

		// Revoking it from the page locks the automation out.
		await page.getByRole( 'button', { name: 'Revoke the application password "browser-e2e"' } ).click();
		await page
			.getByRole( 'group', { name: /Revoke "browser-e2e"/ } )
			.getByRole( 'button', { name: 'Revoke', exact: true } )
			.click();
		await page.locator( '.si-passwords tr', { hasText: 'browser-e2e' } ).waitFor( { state: 'detached' } );
		const revoked = await callMe( header );
		expect( revoked.status ).toBe( 401 );
		expect( session.errors ).toEqual( [] );
	} );

	it( "shows the role's capabilities against the expected list", async () => {
		const { page } = session;
		await openTab( session, 'account' );
		await waitForLoaded( page );
		const rows = page.locator( '.si-capabilities tbody tr' );
		await rows.first().waitFor();
		const states = await page.locator( '.si-capabilities tbody tr td:last-child' ).allInnerTexts();
		expect( states.length ).toBe( 8 );
		expect( new Set( states ) ).toEqual( new Set( [ 'As expected' ] ) );
		expect(
			await page
				.locator( '.si-capabilities tbody tr', { hasText: 'edit_others_commande_fabrications' } )
				.locator( 'td' )
				.allInnerTexts()
		).toEqual( [ 'denied', 'denied', 'As expected' ] );
		await shot( session, 'service-account' );
	} );

	it( 'flags widening by another plugin, and forgets it when told to', async () => {
		const { page } = session;
		await withPluginActive( 'role-widener-add-cap/role-widener-add-cap', async () => {
			// The automation keeps working meanwhile; what the clamp cuts from it is remembered.
			const automation = await provisionServiceAccount( 'widening-browser' );
			expect( ( await automation.client.get( '/service-integration/v1/me' ) ).status ).toBe( 200 );
			await adminClient().request( {
				method: 'DELETE',
				path: `/service-integration/v1/service-account/application-passwords/${ automation.uuid }`,
			} );
			await openTab( session, 'account' );
			await waitForLoaded( page );
			await page.locator( '.si-widening' ).waitFor();
			const flagged = page.locator( '.si-capabilities tr.si-row--flagged' );
			expect( await flagged.filter( { hasText: 'edit_posts' } ).locator( 'td:last-child' ).innerText() ).toBe(
				'Widening (refused)'
			);
			expect( await flagged.count() ).toBeGreaterThanOrEqual( 5 );
			await shot( session, 'service-account-widening' );
		} );
		// The plugin is gone; what it tried stays reported until the owner clears it.
		await openTab( session, 'account' );
		await waitForLoaded( page );
		await page.locator( '.si-widening' ).waitFor();
		await page.getByRole( 'button', { name: 'Forget what was reported' } ).click();
		await page.locator( '.si-widening' ).waitFor( { state: 'detached' } );
		const state = await adminClient().get< { widening_detected: string[] } >(
			'/service-integration/v1/service-account'
		);
		expect( state.body.widening_detected ).toEqual( [] );
		expect( await page.locator( '.si-capabilities tr.si-row--flagged' ).count() ).toBe( 0 );
	}, 300_000 );
} );

describe( 'the least-privilege check screen', () => {
	let session: AdminSession;

	beforeAll( async () => {
		session = await openSession( { tab: 'check' } );
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
	} );

	it( 'runs the check on the live site and shows every call passing', async () => {
		const { page } = session;
		await page.getByRole( 'button', { name: 'Run the check' } ).click();
		const verdict = page.locator( '.si-check-verdict' );
		await verdict.waitFor( { timeout: 60_000 } );
		expect( await verdict.innerText() ).toContain(
			'Passed: the integration role is refused everything it must not do'
		);

		const rows = page.locator( '.si-check-results tbody tr' );
		const count = await rows.count();
		expect( count ).toBeGreaterThanOrEqual( 10 );
		expect( new Set( await page.locator( '.si-check-results tbody tr td:last-child' ).allInnerTexts() ) ).toEqual(
			new Set( [ 'Pass' ] )
		);
		const users = await rows.filter( { hasText: '/wp/v2/users' } ).first().locator( 'td' ).allInnerTexts();
		expect( users ).toEqual( [ 'GET', '/wp/v2/users', 'refused', '403', 'rest_forbidden', 'Pass' ] );
		const me = await rows.filter( { hasText: '/service-integration/v1/me' } ).locator( 'td' ).allInnerTexts();
		expect( me.slice( 2, 4 ) ).toEqual( [ 'allowed', '200' ] );
		expect( await verdict.innerText() ).toContain( `${ count } calls tried, 0 failed` );
		await shot( session, 'least-privilege-check' );
		expect( session.errors ).toEqual( [] );
	} );
} );

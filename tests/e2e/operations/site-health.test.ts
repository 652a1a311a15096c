import { loginCookies } from '../../../scripts/lib/wp-login';
import { adminClient, anonymousClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { E2E_RUNTIME, readState } from '../support/environment';
import { expectRefused } from '../support/expectations';
import { setPluginActive } from '../support/plugins';
import { provisionServiceAccount } from '../support/service-account';
import { freezeSidecar, startSidecar, stopSidecar } from '../support/sidecar-control';
import { wp } from '../cli/run-wp';

interface SiteHealthResult {
	label: string;
	status: 'good' | 'recommended' | 'critical';
	badge: { label: string; color: string };
	description: string;
	actions: string;
	test: string;
}

const OUTBOX_CLOCK = 'outbox-clock/outbox-clock';
const PLAIN_PERMALINKS = 'plain-permalinks';

/**
 * Runs one test through the route Site Health's script fetches, and logs how long it took (as
 * the browser waits for it): the numbers are read from the log, never asserted, because a shared
 * machine's load moves them.
 */
async function runTest( name: string, situation = 'sidecar up' ): Promise< SiteHealthResult > {
	const started = performance.now();
	const result = await adminClient().get< SiteHealthResult >( `/service-integration/v1/site-health/${ name }` );
	const seconds = ( performance.now() - started ) / 1000;
	console.log( `site-health timing: ${ name } (${ situation }) ${ seconds.toFixed( 2 ) } s` );
	expect( result.status ).toBe( 200 );
	expect( result.body.test ).toBe( `service_integration_${ name }` );
	return result.body;
}

async function drainOutbox(): Promise< void > {
	const flushed = await adminClient().post< { pending: number; error: string | null } >(
		'/service-integration/v1/webhooks/outbox'
	);
	expect( flushed.body ).toMatchObject( { error: null, pending: 0 } );
}

/** Tools > Site Health: the sidecar answers, the outbox is not stuck, a real cron runs the jobs, permalinks are not plain. */
describe( 'Site Health', () => {
	it( 'lists the four tests on the Site Health screen', async () => {
		const { siteUrl } = readState();
		const page = await fetch( `${ siteUrl }/wp-admin/site-health.php`, {
			headers: { cookie: await loginCookies( siteUrl, 'admin', 'password' ) },
		} );
		expect( page.status ).toBe( 200 );
		// Site Health's script fetches each asynchronous test from its URL, in data core prints as
		// JSON (WordPress 6.5 escapes the slashes, 7.1 does not).
		const html = ( await page.text() ).split( '\\/' ).join( '/' );
		for ( const name of [ 'sidecar', 'outbox', 'cron', 'permalinks' ] ) {
			expect( html ).toContain( `service-integration/v1/site-health/${ name }"` );
		}
	} );

	it( 'says the sidecar answers, and what to do when it does not', async () => {
		const up = await runTest( 'sidecar' );
		expect( up.status ).toBe( 'good' );
		expect( up.description ).toContain( readState().sidecarUrl );
		expect( up.actions ).toContain( 'page=service-integration' );

		await stopSidecar();
		try {
			const down = await runTest( 'sidecar', 'sidecar stopped' );
			expect( down.status ).toBe( 'critical' );
			expect( down.label ).toBe( 'The Service Integration sidecar does not answer' );
			expect( down.description ).toContain( readState().sidecarUrl );
			expect( down.description ).toContain( 'systemctl start service-integration-sidecar' );
		} finally {
			await startSidecar();
		}
		expect( ( await runTest( 'sidecar' ) ).status ).toBe( 'good' );
	} );

	it( 'says the sidecar does not answer when it accepts the connection but never replies, and the other tests do not wait for it', async () => {
		const frozen = await freezeSidecar();
		try {
			const hung = await runTest( 'sidecar', 'sidecar frozen' );
			expect( hung.status ).toBe( 'critical' );
			expect( hung.label ).toBe( 'The Service Integration sidecar does not answer' );
			expect( hung.description ).toContain( readState().sidecarUrl );
			expect( hung.description ).toMatch( /timed out/i );
			// Neither asks the sidecar anything.
			expect( ( await runTest( 'outbox', 'sidecar frozen' ) ).test ).toBe( 'service_integration_outbox' );
			expect( ( await runTest( 'cron', 'sidecar frozen' ) ).test ).toBe( 'service_integration_cron' );
		} finally {
			frozen.thaw();
		}
		expect( ( await runTest( 'sidecar' ) ).status ).toBe( 'good' );
	} );

	it( 'flags order events stuck in the outbox, with their count and last error, and clears once they are handed over', async () => {
		await drainOutbox();
		expect( ( await runTest( 'outbox' ) ).status ).toBe( 'good' );

		await setPluginActive( OUTBOX_CLOCK, true );
		await stopSidecar();
		try {
			const shop = commerce();
			const [ product ] = await shop.createProducts( [
				{ name: 'Ash shelf', sku: `SHELF-${ Date.now() }`, price: '60.00' },
			] );
			await shop.createOrders( [
				{ status: 'pending', line_items: [ { product_id: ( product as { id: number } ).id, quantity: 1 } ] },
			] );
			// Waiting a few seconds is normal.
			const fresh = await runTest( 'outbox' );
			expect( fresh.status ).toBe( 'good' );
			expect( fresh.description ).toMatch( /[1-9]\d* order events? (is|are) waiting/ );

			const aged = await adminClient().post< { aged: number } >( '/outbox-clock/v1/age', { minutes: 60 } );
			expect( aged.body.aged ).toBeGreaterThan( 0 );
			const stuck = await runTest( 'outbox' );
			expect( stuck.status ).toBe( 'critical' );
			expect( stuck.label ).toBe( 'Order events are stuck in the outbox' );
			expect( stuck.description ).toMatch(
				/(1 order event is waiting to be handed over to the sidecar, for|\d+ order events are waiting to be handed over to the sidecar, the oldest for) (1 hour|6\d mins)/
			);
			expect( stuck.description ).toContain( 'Last error:' );
		} finally {
			await startSidecar();
			await setPluginActive( OUTBOX_CLOCK, false );
		}
		await drainOutbox();
		expect( ( await runTest( 'outbox' ) ).status ).toBe( 'good' );
	} );

	it( 'recommends a real cron where WP-Cron runs on page views, and is satisfied by one', async () => {
		const cron = await runTest( 'cron' );
		if ( E2E_RUNTIME === 'production' ) {
			// The production runtime sets DISABLE_WP_CRON and runs wp-cron.php every minute.
			expect( cron.status ).toBe( 'good' );
		} else {
			expect( cron.status ).toBe( 'recommended' );
			expect( cron.description ).toContain( 'DISABLE_WP_CRON' );
			expect( cron.description ).toContain( 'wp-cron.php' );
		}
	} );

	it( 'flags plain permalinks, which lose inbound webhooks, in Site Health and on the dashboard and the plugin’s page', async () => {
		const { siteUrl, admin } = readState();
		expect( ( await runTest( 'permalinks' ) ).status ).toBe( 'good' );
		const cookie = await loginCookies( siteUrl, 'admin', 'password' );
		const notice = 'id="service-integration-plain-permalinks"';

		// Switched with WP-CLI: while it is active, /wp-json/ does not reach the REST API.
		expect( ( await wp( 'plugin', 'activate', PLAIN_PERMALINKS ) ).status ).toBe( 0 );
		try {
			expect( ( await wp( 'option', 'get', 'permalink_structure' ) ).stdout.trim() ).toBe( '' );
			expect( ( await wp( 'rewrite', 'flush' ) ).status ).toBe( 0 );
			// What the owner must be told about: a webhook posted to /wp-json/ gets the home page
			// with 200 (so the provider believes it delivered), never the inbound route.
			const lost = await fetch( `${ siteUrl }/wp-json/service-integration-inbound/v1/anything`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			} );
			expect( lost.status ).toBe( 200 );
			expect( lost.headers.get( 'content-type' ) ).toMatch( /^text\/html/ );

			// /wp-json/ is gone: Site Health (and this test) reach the route through ?rest_route=.
			const answer = await fetch( `${ siteUrl }/?rest_route=/service-integration/v1/site-health/permalinks`, {
				headers: {
					authorization: `Basic ${ Buffer.from( `${ admin.username }:${ admin.applicationPassword }` ).toString( 'base64' ) }`,
				},
			} );
			expect( answer.status ).toBe( 200 );
			const result = ( await answer.json() ) as SiteHealthResult;
			expect( result ).toMatchObject( {
				status: 'critical',
				label: 'Plain permalinks make inbound webhooks get lost',
				test: 'service_integration_permalinks',
			} );
			expect( result.description ).toContain( '/wp-json/service-integration-inbound/v1/&lt;source&gt;' );
			expect( result.actions ).toContain( 'options-permalink.php' );

			for ( const page of [ '/wp-admin/', '/wp-admin/admin.php?page=service-integration' ] ) {
				const html = await ( await fetch( `${ siteUrl }${ page }`, { headers: { cookie } } ) ).text();
				expect( html ).toContain( notice );
				expect( html ).toMatch( /service-integration-plain-permalinks[\s\S]*options-permalink\.php/ );
			}
			// Only there: not on every screen.
			const users = await ( await fetch( `${ siteUrl }/wp-admin/users.php`, { headers: { cookie } } ) ).text();
			expect( users ).not.toContain( notice );
		} finally {
			await wp( 'plugin', 'deactivate', PLAIN_PERMALINKS );
			await wp( 'rewrite', 'flush' );
		}
		expect( ( await runTest( 'permalinks' ) ).status ).toBe( 'good' );
		const dashboard = await ( await fetch( `${ siteUrl }/wp-admin/`, { headers: { cookie } } ) ).text();
		expect( dashboard ).not.toContain( notice );
	} );

	it( 'answers only those who may see Site Health, and unknown tests with 404', async () => {
		const account = await provisionServiceAccount( 'site-health-refused' );
		expectRefused(
			await account.client.get( '/service-integration/v1/site-health/sidecar' ),
			'rest_forbidden',
			[ 403 ]
		);
		expectRefused(
			await anonymousClient().get( '/service-integration/v1/site-health/outbox' ),
			'rest_forbidden',
			[ 401 ]
		);
		const unknown = await adminClient().get< { code: string } >( '/service-integration/v1/site-health/everything' );
		expect( unknown.status ).toBe( 404 );
		expect( unknown.body.code ).toBe( 'rest_no_route' );
	} );
} );

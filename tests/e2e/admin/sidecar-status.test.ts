import {
	app,
	openSession,
	openTab,
	SETUP_TIMEOUT,
	shot,
	waitForLoaded,
	type AdminSession,
} from '../support/admin-page';
import { readState } from '../support/environment';
import { startSidecar, stopSidecar } from '../support/sidecar-control';

describe( 'the sidecar status screen', () => {
	let session: AdminSession;

	beforeAll( async () => {
		session = await openSession( { tab: 'sidecar' } );
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
	} );

	// Each test answers for the errors the page logged while it ran: the stopped sidecar's 503s
	// belong to the test that stopped it, not to whichever test the session runs next.
	beforeEach( () => {
		session.errors.length = 0;
	} );

	it( 'shows the sidecar reachable, its version and queue depth', async () => {
		const { page } = session;
		await openTab( session, 'sidecar' );
		await waitForLoaded( page );
		const health = ( await ( await fetch( `${ readState().sidecarUrl }/health` ) ).json() ) as { version: string };
		await page.locator( '.si-sidecar-version', { hasText: health.version } ).waitFor();
		const facts = await page.locator( '.si-facts' ).first().innerText();
		expect( facts ).toContain( 'Yes' );
		expect( facts ).toContain( readState().sidecarUrl );
		expect( await page.locator( '.si-queue-pending' ).innerText() ).toMatch( /^\d+$/ );
		await app( page ).getByText( 'Active endpoints' ).waitFor();
		await shot( session, 'sidecar-status' );
		expect( session.errors ).toEqual( [] );
	} );

	it( 'says clearly when the sidecar is down and what to do, and recovers when it is back', async () => {
		const { page } = session;
		await stopSidecar();
		try {
			await openTab( session, 'sidecar' );
			await waitForLoaded( page );
			const notice = page.locator( '.si-sidecar-unreachable' );
			await notice.waitFor();
			const text = await notice.innerText();
			expect( text ).toContain( 'The sidecar is not reachable.' );
			// How to start it where the site runs, as WordPress says it (this site names no command of its own).
			expect( text ).toContain( 'Start it with systemctl start service-integration-sidecar' );
			expect( text ).not.toContain( 'npm run sidecar' );
			expect( text ).toContain( 'SERVICE_INTEGRATION_SIDECAR_URL' );
			// What happens meanwhile, both ways: order events wait in the outbox, webhook senders retry.
			expect( text ).toContain( 'Order events are kept in the outbox meanwhile' );
			expect( text ).toContain(
				'Inbound webhooks cannot be verified meanwhile: their senders get 503 with Retry-After and send them again later'
			);
			expect( text ).toContain( readState().sidecarUrl );
			// The outbox lives in WordPress: its panel answers with the sidecar down.
			await page.locator( '.si-outbox-pending' ).waitFor();
			await shot( session, 'sidecar-unreachable' );

			// So do the received events, on the inbound tab, beside the sources' error.
			await openTab( session, 'inbound' );
			await waitForLoaded( page );
			await app( page ).getByRole( 'heading', { name: 'Received events' } ).waitFor();
			expect( await app( page ).locator( '.si-error-hint' ).first().innerText() ).toContain(
				'systemctl start service-integration-sidecar'
			);
		} finally {
			await startSidecar();
		}
		await openTab( session, 'sidecar' );
		await page.locator( '.si-sidecar-unreachable' ).waitFor( { state: 'detached' } );
		await page.locator( '.si-sidecar-version' ).waitFor();
		// The failed status call is a 503 the browser logs; nothing else went wrong.
		expect( session.errors.filter( ( error ) => ! /status of 503/.test( error ) ) ).toEqual( [] );
	} );
} );

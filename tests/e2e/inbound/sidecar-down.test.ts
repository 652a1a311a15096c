import { signStandardWebhook } from '../../support/inbound-signers';
import { adminClient } from '../support/clients';
import { setPluginActive } from '../support/plugins';
import { startSidecar, stopSidecar } from '../support/sidecar-control';
import { ADMIN, createSource, cronUntil, eventsFor, RECORDER_PLUGIN, recordedCalls, sendWebhook, totalEvents } from '../support/inbound';

/**
 * Without the sidecar nothing can be verified, so nothing is accepted: the sender gets
 * 503 with Retry-After and keeps the event; its retry succeeds once the sidecar is back.
 */
describe( 'inbound webhooks while the sidecar is down', () => {
	beforeAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, true );
	} );

	afterAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, false );
	} );

	it( '503 sidecar_unreachable with Retry-After, nothing stored; the retry after the restart is stored and processed once', async () => {
		const source = await createSource( 'down-e2e', 'standard-webhooks' );
		const eventId = `msg_down_${ Date.now() }`;
		const body = JSON.stringify( { type: 'order.refunded', data: { order_id: 5150 } } );
		const before = await totalEvents();

		await stopSidecar();
		try {
			const down = await sendWebhook( 'down-e2e', signStandardWebhook( source.secret, eventId, body ) );
			expect( down.status ).toBe( 503 );
			expect( down.headers.get( 'retry-after' ) ).toBe( '30' );
			expect( down.body ).toMatchObject( { code: 'sidecar_unreachable', data: { status: 503 } } );
			// Nothing about the sidecar's address leaks to the internet.
			expect( down.text ).not.toContain( '127.0.0.1' );
			expect( await totalEvents() ).toBe( before );

			const admin = await adminClient().get< { code: string } >( `${ ADMIN }/sources` );
			expect( { status: admin.status, code: admin.body.code } ).toEqual( { status: 503, code: 'sidecar_unreachable' } );
		} finally {
			await startSidecar();
		}

		// The sender retries later: same id, a new timestamp and signature.
		const retry = await sendWebhook( 'down-e2e', signStandardWebhook( source.secret, eventId, body ) );
		expect( retry.status ).toBe( 202 );
		await cronUntil( async () => ( await eventsFor( 'down-e2e', eventId ) )[ 0 ]?.status === 'processed', 'the retried event processed' );
		expect( ( await recordedCalls( 'down-e2e', eventId ) ).filter( ( call ) => call.hook === 'generic' ) ).toHaveLength( 1 );
		expect( await totalEvents() ).toBe( before + 1 );
	} );
} );

import { signStandardWebhook } from '../../support/inbound-signers';
import { adminClient } from '../support/clients';
import { setPluginActive } from '../support/plugins';
import { startSidecar, stopSidecar } from '../support/sidecar-control';
import {
	ADMIN,
	createSource,
	cronUntil,
	eventsFor,
	listEvents,
	RECORDER_PLUGIN,
	recordedCalls,
	sendWebhook,
	totalEvents,
} from '../support/inbound';

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
			expect( { status: admin.status, code: admin.body.code } ).toEqual( {
				status: 503,
				code: 'sidecar_unreachable',
			} );
		} finally {
			await startSidecar();
		}

		// The sender retries later: same id, a new timestamp and signature.
		const retry = await sendWebhook( 'down-e2e', signStandardWebhook( source.secret, eventId, body ) );
		expect( retry.status ).toBe( 202 );
		await cronUntil(
			async () => ( await eventsFor( 'down-e2e', eventId ) )[ 0 ]?.status === 'processed',
			'the retried event processed'
		);
		expect(
			( await recordedCalls( 'down-e2e', eventId ) ).filter( ( call ) => call.hook === 'generic' )
		).toHaveLength( 1 );
		expect( await totalEvents() ).toBe( before + 1 );
	} );

	it( 'a stream cut by a sidecar crash (SIGKILL) loses nothing: every event refused while it was down is stored once on the retry', async () => {
		const source = await createSource( 'stream-e2e', 'standard-webhooks' );
		const run = Date.now().toString( 36 );
		const ids = Array.from( { length: 16 }, ( _, i ) => `msg_stream_${ run }_${ i }` );
		const send = ( id: string ) =>
			sendWebhook(
				'stream-e2e',
				signStandardWebhook(
					source.secret,
					id,
					JSON.stringify( { type: 'order.paid', data: { order_id: id } } )
				)
			);
		const before = await totalEvents();

		const statuses: number[] = [];
		for ( const id of ids.slice( 0, 6 ) ) {
			statuses.push( ( await send( id ) ).status );
		}
		await stopSidecar( 'SIGKILL' );
		const refused: string[] = [];
		try {
			for ( const id of ids.slice( 6, 11 ) ) {
				const answer = await send( id );
				expect( [ answer.status, answer.headers.get( 'retry-after' ) ] ).toEqual( [ 503, '30' ] );
				refused.push( id );
			}
		} finally {
			await startSidecar();
		}
		// The sender retries what was refused, then goes on with the rest of its stream.
		for ( const id of [ ...refused, ...ids.slice( 11 ) ] ) {
			statuses.push( ( await send( id ) ).status );
		}
		expect( statuses ).toEqual( Array( ids.length ).fill( 202 ) );
		// A sender that is unsure resends the first ones: duplicates, nothing more stored.
		expect( ( await send( ids[ 0 ] as string ) ).body ).toMatchObject( { received: true, duplicate: true } );

		expect( await totalEvents() ).toBe( before + ids.length );
		for ( const id of ids ) {
			expect( await eventsFor( 'stream-e2e', id ) ).toHaveLength( 1 );
		}
		// Each stored event reaches the site's handlers once (and none is left for later files).
		await cronUntil(
			async () =>
				( await listEvents( { source: 'stream-e2e', status: 'processed', per_page: 1 } ) ).total === ids.length,
			'the stream processed'
		);
		const calls = ( await recordedCalls( 'stream-e2e' ) ).filter( ( call ) => call.hook === 'generic' );
		expect( calls.map( ( call ) => call.event_id ).sort() ).toEqual( [ ...ids ].sort() );
	} );
} );

import { sampleWebhook } from '../../support/inbound-signers';
import { adminClient } from '../support/clients';
import { setPluginActive } from '../support/plugins';
import { runCron } from '../support/cron';
import {
	ADMIN,
	createSource,
	inboundCronUntil,
	eventsFor,
	failFirst,
	RECORDER_PLUGIN,
	recordedCalls,
	sendWebhook,
	type InboundEvent,
} from '../support/inbound';

/**
 * A handler that throws marks the event failed with the error and it is tried again
 * (the recorder plugin sets the backoff to 0 so the next cron run retries); attempts are
 * bounded (5), after which the event stays failed until an administrator retries it.
 */
describe( 'inbound processing retries', () => {
	beforeAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, true );
	} );

	afterAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, false );
	} );

	it( 'a handler that fails twice succeeds on the third run: processed, attempts 3, handlers called accordingly', async () => {
		const source = await createSource( 'retry-e2e', 'github' );
		const webhook = sampleWebhook( 'github', source.secret, { type: 'pull_request.closed' } );
		const { eventId } = webhook.expected;
		await failFirst( 'retry-e2e', eventId, 2 );

		expect( ( await sendWebhook( 'retry-e2e', webhook ) ).status ).toBe( 202 );
		const seen = new Set< string >();
		const done = await inboundCronUntil( async () => {
			const [ event ] = await eventsFor( 'retry-e2e', eventId );
			if ( event ) {
				seen.add( `${ event.status }:${ event.attempts }` );
			}
			return event?.status === 'processed' ? event : undefined;
		}, 'the event processed after two failures' );

		expect( done ).toMatchObject( { status: 'processed', attempts: 3, gave_up: false, next_attempt_at: null } );
		// The error of the last failed attempt stays on record.
		expect( done.last_error ).toBe( 'RuntimeException: inbound-recorder: told to fail (call 2)' );
		const calls = await recordedCalls( 'retry-e2e', eventId );
		expect(
			calls.filter( ( call ) => call.hook === 'generic' ).map( ( call ) => [ call.attempt, call.threw ] )
		).toEqual( [
			[ 1, true ],
			[ 2, true ],
			[ 3, false ],
		] );
		// The per-source action runs after the generic one: only on the attempt that got that far.
		expect( calls.filter( ( call ) => call.hook === 'source' ) ).toHaveLength( 1 );
		// A claim counts the attempt before the handler runs (Inbound_Store::claim), so a listing
		// made while a cron run processes the row sees it with the attempt started and the status
		// of before: possible wherever PHP serves requests side by side (PHP-FPM), never under
		// Playground's single worker.
		const inFlight = [ 'received:1', 'failed:2', 'failed:3' ];
		for ( const state of seen ) {
			expect( [ 'received:0', 'failed:1', 'failed:2', 'processed:3', ...inFlight ] ).toContain( state );
		}
	} );

	it( 'gives up after 5 attempts; an administrator can start a fresh round', async () => {
		const source = await createSource( 'retry-e2e', 'github' );
		const webhook = sampleWebhook( 'github', source.secret, { type: 'issues.labeled' } );
		const { eventId } = webhook.expected;
		await failFirst( 'retry-e2e', eventId, 99 );

		const sent = await sendWebhook( 'retry-e2e', webhook );
		expect( sent.status ).toBe( 202 );
		const failed = await inboundCronUntil( async () => {
			const [ event ] = await eventsFor( 'retry-e2e', eventId );
			return event?.gave_up ? event : undefined;
		}, 'the event given up' );
		expect( failed ).toMatchObject( { status: 'failed', attempts: 5, next_attempt_at: null } );
		await runCron();
		expect(
			( await recordedCalls( 'retry-e2e', eventId ) ).filter( ( call ) => call.hook === 'generic' )
		).toHaveLength( 5 );

		await failFirst( 'retry-e2e', eventId, 0 );
		const requeued = await adminClient().post< InboundEvent >( `${ ADMIN }/events/${ sent.body.id }/retry` );
		expect( requeued.status ).toBe( 200 );
		expect( requeued.body ).toMatchObject( { status: 'failed', attempts: 0, gave_up: false } );
		const done = await inboundCronUntil(
			async () => ( await eventsFor( 'retry-e2e', eventId ) ).find( ( event ) => event.status === 'processed' ),
			'the retried event processed'
		);
		expect( done.attempts ).toBe( 1 );

		const again = await adminClient().post< { code: string } >( `${ ADMIN }/events/${ sent.body.id }/retry` );
		expect( { status: again.status, code: again.body.code } ).toEqual( {
			status: 409,
			code: 'inbound_event_not_failed',
		} );
	} );
} );

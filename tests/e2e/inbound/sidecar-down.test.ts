import { signStandardWebhook } from '../../support/inbound-signers';
import { waitUntil } from '../../support/wait-until';
import { adminClient } from '../support/clients';
import { debugLogMark, debugLogSince } from '../support/debug-log';
import { setPluginActive } from '../support/plugins';
import { freezeSidecar, startSidecar, stopSidecar } from '../support/sidecar-control';
import {
	ADMIN,
	createSource,
	inboundCronUntil,
	eventsFor,
	listEvents,
	RECORDER_PLUGIN,
	recordedCalls,
	sendWebhook,
	totalEvents,
	type Answer,
} from '../support/inbound';

/** All a sender may learn when its webhook cannot be taken now: the documented code and message. */
const UNREACHABLE = {
	code: 'sidecar_unreachable',
	message: 'The webhook could not be verified now; send it again later.',
	data: { status: 503 },
};
/** What the HTTP client, the sidecar or the server would say, and must stay in the server's log. */
const INTERNAL_DETAIL =
	/curl|timed out|millisecond|refused|127\.0\.0\.1|localhost|:\d{4}|reason|sidecar answered|deadline/i;

interface LogEntry {
	id: number;
	outcome: string;
	status: number;
	code: string | null;
	event_id: string | null;
	answer_status: number | null;
}
const logOf = async ( source: string ): Promise< LogEntry[] > =>
	( await adminClient().get< { entries: LogEntry[] } >( `${ ADMIN }/log?source=${ source }` ) ).body.entries;

function expectOnlyTheDocumentedAnswer( answer: Answer ): void {
	expect( answer.status ).toBe( 503 );
	expect( answer.headers.get( 'retry-after' ) ).toBe( '30' );
	expect( answer.body ).toEqual( UNREACHABLE );
	expect( answer.text ).not.toMatch( INTERNAL_DETAIL );
}

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

		const mark = debugLogMark();
		await stopSidecar();
		try {
			const down = await sendWebhook( 'down-e2e', signStandardWebhook( source.secret, eventId, body ) );
			// Nothing about the sidecar (its address, the client's error) leaks to the internet...
			expectOnlyTheDocumentedAnswer( down );
			// ...it is in the PHP error log, for the operator: the transport's own error (connection
			// refused, 7, on PHP-FPM; an empty reply, 52, through Playground's network bridge).
			expect( debugLogSince( mark ) ).toMatch(
				/Service Integration: inbound webhook for source "down-e2e" not taken, answered 503 sidecar_unreachable: sidecar_unreachable: .*\(cURL error \d+: /
			);
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
		await inboundCronUntil(
			async () => ( await eventsFor( 'down-e2e', eventId ) )[ 0 ]?.status === 'processed',
			'the retried event processed'
		);
		expect(
			( await recordedCalls( 'down-e2e', eventId ) ).filter( ( call ) => call.hook === 'generic' )
		).toHaveLength( 1 );
		expect( await totalEvents() ).toBe( before + 1 );
	} );

	it( 'a frozen sidecar (SIGSTOP): 503 with the documented code and message only, and its log says what the sender got, never "verified"', async () => {
		const source = await createSource( 'frozen-e2e', 'standard-webhooks' );
		const eventId = `msg_frozen_${ Date.now() }`;
		const body = JSON.stringify( { type: 'order.paid', data: { order_id: 2803 } } );
		const before = await totalEvents();
		const mark = debugLogMark();

		const frozen = await freezeSidecar();
		let answer: Answer;
		const started = Date.now();
		try {
			answer = await sendWebhook( 'frozen-e2e', signStandardWebhook( source.secret, eventId, body ) );
		} finally {
			frozen.thaw();
		}
		// WordPress waits Inbound_Route::VERIFY_TIMEOUT (2 s), then answers the sender itself.
		expect( Date.now() - started ).toBeGreaterThanOrEqual( 2000 );
		expectOnlyTheDocumentedAnswer( answer );
		expect( await totalEvents() ).toBe( before );
		expect( debugLogSince( mark ) ).toMatch(
			/Service Integration: inbound webhook for source "frozen-e2e" not taken, answered 503 sidecar_unreachable: sidecar_unreachable: .*\(cURL error 28: Operation timed out after 2\d\d\d milliseconds/
		);

		// Thawed, the sidecar handles the request it was sent while frozen, after WordPress's
		// deadline: its entry says what the sender got (503, not verified), as the admin page shows it.
		let entries: LogEntry[] = [];
		await waitUntil(
			async () => ( entries = await logOf( 'frozen-e2e' ) ).length > 0,
			30_000,
			'the frozen verification in the log',
			500
		);
		expect( entries ).toEqual( [
			expect.objectContaining( {
				outcome: 'timed_out',
				status: 503,
				code: 'sidecar_unreachable',
				event_id: null,
				answer_status: 503,
			} ),
		] );

		// The sender's retry is verified and stored: that entry, and only that one, says verified (202).
		const retry = await sendWebhook( 'frozen-e2e', signStandardWebhook( source.secret, eventId, body ) );
		expect( retry.status ).toBe( 202 );
		await waitUntil(
			async () => ( entries = await logOf( 'frozen-e2e' ) ).some( ( entry ) => entry.outcome === 'verified' ),
			30_000,
			'the retry verified in the log',
			500
		);
		expect( entries.map( ( entry ) => [ entry.outcome, entry.answer_status, entry.event_id ] ) ).toEqual( [
			[ 'verified', 202, eventId ],
			[ 'timed_out', 503, null ],
		] );
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
				expectOnlyTheDocumentedAnswer( await send( id ) );
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
		await inboundCronUntil(
			async () =>
				( await listEvents( { source: 'stream-e2e', status: 'processed', per_page: 1 } ) ).total === ids.length,
			'the stream processed'
		);
		const calls = ( await recordedCalls( 'stream-e2e' ) ).filter( ( call ) => call.hook === 'generic' );
		expect( calls.map( ( call ) => call.event_id ).sort() ).toEqual( [ ...ids ].sort() );
	} );
} );

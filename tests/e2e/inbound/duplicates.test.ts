import { signStandardWebhook } from '../../support/inbound-signers';
import { setPluginActive } from '../support/plugins';
import { adminClient } from '../support/clients';
import { runCron } from '../support/cron';
import {
	createSource,
	inboundCronUntil,
	eventsFor,
	listEvents,
	pooled,
	RECORDER_PLUGIN,
	recordedCalls,
	sendWebhook,
} from '../support/inbound';

/**
 * Spec 6, delivery rules 1-2: senders retry, so duplicates arrive, sometimes at the same
 * time. 50 deliveries of one event, 10 at a time (each re-signed with its own timestamp,
 * as a Standard Webhooks sender does on a retry): every one acknowledged with a 2xx,
 * exactly one stored, its handlers run exactly once, and the 49 redeliveries counted on
 * the stored event (the admin page shows them).
 */

describe( 'inbound duplicate storm', () => {
	beforeAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, true );
	} );

	afterAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, false );
	} );

	it( '50 deliveries of one event, 10 concurrent: all 2xx, one stored, processed once, 49 counted as duplicates', async () => {
		const source = await createSource( 'storm-e2e', 'standard-webhooks' );
		const eventId = `msg_storm_${ Date.now() }`;
		const body = JSON.stringify( {
			type: 'order.paid',
			timestamp: new Date().toISOString(),
			data: { order_id: 77, storm: true },
		} );

		const answers = await pooled( Array.from( { length: 50 } ), 10, () =>
			sendWebhook( 'storm-e2e', signStandardWebhook( source.secret, eventId, body ) )
		);

		const statuses = answers.map( ( answer ) => answer.status );
		expect( statuses.filter( ( status ) => status < 200 || status > 299 ) ).toEqual( [] );
		expect( answers.filter( ( answer ) => answer.status === 202 ) ).toHaveLength( 1 );
		expect( answers.filter( ( answer ) => answer.status === 200 && answer.body?.duplicate === true ) ).toHaveLength(
			49
		);

		const stored = await eventsFor( 'storm-e2e', eventId );
		expect( stored ).toHaveLength( 1 );
		// Every redelivery counted, none lost to a concurrent one (one atomic UPDATE each).
		expect( stored[ 0 ] ).toMatchObject( {
			duplicate_count: 49,
			last_duplicate_at: expect.stringMatching( /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/ ),
		} );
		const duplicated = await listEvents( { source: 'storm-e2e', duplicate: 'true' } );
		expect( duplicated.events.map( ( event ) => event.event_id ) ).toContain( eventId );
		expect( duplicated.events.every( ( event ) => event.duplicate_count > 0 ) ).toBe( true );
		expect( duplicated.duplicates.deliveries ).toBeGreaterThanOrEqual( 49 );
		await inboundCronUntil(
			async () => ( await eventsFor( 'storm-e2e', eventId ) )[ 0 ]?.status === 'processed',
			'the stored event processed'
		);
		await runCron();
		await runCron();
		const calls = await recordedCalls( 'storm-e2e', eventId );
		expect( calls.filter( ( call ) => call.hook === 'generic' ) ).toHaveLength( 1 );
		expect( calls.filter( ( call ) => call.hook === 'source' ) ).toHaveLength( 1 );
		expect( ( await eventsFor( 'storm-e2e', eventId ) )[ 0 ] ).toMatchObject( {
			status: 'processed',
			attempts: 1,
		} );
	} );

	it( 'ten different events sent at the same time are each stored and processed once', async () => {
		const source = await createSource( 'storm-e2e', 'standard-webhooks' );
		const ids = Array.from( { length: 10 }, ( _unused, i ) => `msg_parallel_${ Date.now() }_${ i }` );
		const answers = await pooled( ids, 10, ( id, i ) =>
			sendWebhook(
				'storm-e2e',
				signStandardWebhook( source.secret, id, JSON.stringify( { type: 'order.created', data: { n: i } } ) )
			)
		);
		expect( answers.map( ( answer ) => answer.status ) ).toEqual( ids.map( () => 202 ) );
		expect( new Set( answers.map( ( answer ) => answer.body.id ) ).size ).toBe( 10 );
		await inboundCronUntil( async () => {
			const done = await Promise.all(
				ids.map( async ( id ) => ( await eventsFor( 'storm-e2e', id ) )[ 0 ]?.status === 'processed' )
			);
			return done.every( Boolean );
		}, 'all ten processed' );
		const calls = ( await recordedCalls( 'storm-e2e' ) ).filter(
			( call ) => ids.includes( call.event_id ) && call.hook === 'generic'
		);
		expect( calls.map( ( call ) => call.event_id ).sort() ).toEqual( [ ...ids ].sort() );
		for ( const id of ids ) {
			expect( ( await eventsFor( 'storm-e2e', id ) )[ 0 ] ).toMatchObject( {
				duplicate_count: 0,
				last_duplicate_at: null,
			} );
		}
		const duplicated = ( await listEvents( { source: 'storm-e2e', duplicate: 'true' } ) ).events.map(
			( event ) => event.event_id
		);
		expect( duplicated.filter( ( id ) => ids.includes( id ) ) ).toEqual( [] );
	} );

	// It replaces the events table, dropping the events it held: the other tests look only at
	// their own events, and the upgraded table is the one the plugin makes, so they may run after it.
	it( 'a site upgraded from the version-1 table gains the new columns and counts redeliveries', async () => {
		const reset = await adminClient().post< { columns: string[] } >( '/inbound-recorder/v1/schema-v1', {} );
		expect( reset.status ).toBe( 200 );
		expect( reset.body.columns ).not.toContain( 'duplicate_count' );

		const source = await createSource( 'storm-e2e', 'standard-webhooks' );
		const eventId = `msg_upgraded_${ Date.now() }`;
		const body = JSON.stringify( { type: 'order.paid', data: { upgraded: true } } );
		expect( ( await sendWebhook( 'storm-e2e', signStandardWebhook( source.secret, eventId, body ) ) ).status ).toBe(
			202
		);
		expect( ( await sendWebhook( 'storm-e2e', signStandardWebhook( source.secret, eventId, body ) ) ).status ).toBe(
			200
		);
		expect( ( await eventsFor( 'storm-e2e', eventId ) )[ 0 ] ).toMatchObject( {
			duplicate_count: 1,
			delivery_id: null,
		} );
	} );
} );

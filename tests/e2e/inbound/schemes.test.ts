import { INBOUND_SCHEMES, type InboundScheme } from '../../../sidecar/src/contracts/constants';
import { sampleWebhook, signStandardWebhook } from '../../support/inbound-signers';
import { waitUntil } from '../../support/wait-until';
import { adminClient } from '../support/clients';
import { setPluginActive } from '../support/plugins';
import { runCron } from '../support/cron';
import {
	ADMIN,
	createSource,
	inboundCronUntil,
	eventsFor,
	RECORDER_PLUGIN,
	receivingUrl,
	recordedCalls,
	recordedCallsText,
	sendWebhook,
	type InboundEvent,
} from '../support/inbound';

/**
 * Flow 4 of the architecture, per provider: a webhook signed with the provider's own
 * library → the receiving route → verified by the sidecar → stored once, 202 at once →
 * processed by WP-Cron through the site's action, once; a redelivery is acknowledged
 * (200, duplicate) and not processed again.
 */
const SOURCE_OF: Record< InboundScheme, string > = {
	'standard-webhooks': 'sw-e2e',
	stripe: 'stripe-e2e',
	github: 'github-e2e',
	shopify: 'shopify-e2e',
	woocommerce: 'woo-e2e',
};

describe( 'inbound webhooks, end to end, per provider', () => {
	beforeAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, true );
	} );

	afterAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, false );
	} );

	it.each( [ ...INBOUND_SCHEMES ] )(
		'%s: verified, acknowledged with 202, processed once; a redelivery is 200 duplicate',
		async ( scheme ) => {
			const id = SOURCE_OF[ scheme ];
			const source = await createSource( id, scheme, { description: `e2e ${ scheme }` } );
			expect( source.receiving_url ).toBe( receivingUrl( id ) );
			const webhook = sampleWebhook( scheme, source.secret );
			const { eventId, type, data } = webhook.expected;

			const first = await sendWebhook( id, webhook );
			expect( first.status ).toBe( 202 );
			expect( first.body ).toEqual( { received: true, duplicate: false, id: expect.any( Number ) } );

			const processed = await inboundCronUntil( async () => {
				const [ event ] = await eventsFor( id, eventId );
				return event?.status === 'processed' ? event : undefined;
			}, `${ scheme } event processed` );
			expect( processed ).toMatchObject( {
				id: first.body.id,
				source: id,
				event_id: eventId,
				delivery_id: webhook.expected.deliveryId ?? null,
				type,
				attempts: 1,
				last_error: null,
				gave_up: false,
			} );

			const calls = await recordedCalls( id, eventId );
			expect( calls.map( ( call ) => [ call.hook, call.type, call.threw ] ) ).toEqual( [
				[ 'generic', type, false ],
				[ 'source', type, false ],
			] );
			expect( calls[ 0 ]?.data ).toEqual( data );

			// The provider retries (a lost answer, a timeout): acknowledged, never processed again.
			const again = await sendWebhook(
				id,
				scheme === 'standard-webhooks' ? signStandardWebhook( source.secret, eventId, webhook.body ) : webhook
			);
			expect( again.status ).toBe( 200 );
			expect( again.body ).toEqual( { received: true, duplicate: true } );
			await runCron();
			expect( await recordedCalls( id, eventId ) ).toHaveLength( 2 );
			expect( await eventsFor( id, eventId ) ).toHaveLength( 1 );

			// The payload is kept byte for byte and shown only when one event is asked for.
			const one = await adminClient().get< InboundEvent >( `${ ADMIN }/events/${ first.body.id }` );
			expect( one.body.payload ).toBe( webhook.body );
			const listed = await adminClient().get< { events: InboundEvent[] } >( `${ ADMIN }/events?source=${ id }` );
			expect( listed.body.events[ 0 ] ).not.toHaveProperty( 'payload' );

			// Both entries say verified once WordPress has reported the 2xx it answered (after answering).
			const verifiedEntries = async () =>
				(
					await adminClient().get< { entries: Array< { outcome: string; event_id: string | null } > } >(
						`${ ADMIN }/log?source=${ id }&outcome=verified`
					)
				).body.entries.filter( ( entry ) => entry.event_id === eventId ).length;
			await waitUntil(
				async () => ( await verifiedEntries() ) === 2,
				10_000,
				'both deliveries logged as verified',
				250
			);
		}
	);

	it.each( [ 'github', 'shopify' ] as const )(
		'%s: a captured body resent with a fresh (unsigned) delivery id is a duplicate, never processed again',
		async ( scheme ) => {
			const id = SOURCE_OF[ scheme ];
			const source = await createSource( id, scheme );
			const webhook = sampleWebhook( scheme, source.secret );
			const { eventId, deliveryId } = webhook.expected;
			expect( ( await sendWebhook( id, webhook ) ).status ).toBe( 202 );

			// An attacker (or a confused proxy) replays the body and signature with new ids and a fresh time.
			const replayed = { ...webhook, headers: { ...webhook.headers } };
			const idHeader = scheme === 'github' ? 'x-github-delivery' : 'x-shopify-webhook-id';
			for ( let i = 0; i < 3; i++ ) {
				replayed.headers[ idHeader ] = `replayed-${ i }-${ Date.now() }`;
				if ( scheme === 'shopify' ) {
					replayed.headers[ 'x-shopify-triggered-at' ] = new Date().toISOString();
				}
				const answer = await sendWebhook( id, replayed );
				expect( { status: answer.status, body: answer.body } ).toEqual( {
					status: 200,
					body: { received: true, duplicate: true },
				} );
			}

			const processed = await inboundCronUntil( async () => {
				const [ event ] = await eventsFor( id, eventId );
				return event?.status === 'processed' ? event : undefined;
			}, `${ scheme } event processed` );
			// The first delivery id is kept for display, and finds the event too.
			expect( processed ).toMatchObject( { event_id: eventId, delivery_id: deliveryId, duplicate_count: 3 } );
			expect( ( await eventsFor( id, deliveryId as string ) ).map( ( event ) => event.id ) ).toEqual( [
				processed.id,
			] );
			await runCron();
			expect( ( await recordedCalls( id, eventId ) ).filter( ( call ) => call.hook === 'generic' ) ).toHaveLength(
				1
			);
		}
	);

	it( 'takes the source from the URL only: a "source" key in the body changes nothing', async () => {
		const source = await createSource( 'sw-e2e', 'standard-webhooks' );
		// Another real source: verifying against it (its secret differs) would refuse the event.
		await createSource( 'other-e2e', 'standard-webhooks' );
		const eventId = `msg_source_key_${ Date.now() }`;
		const body = JSON.stringify( { type: 'order.paid', source: 'other-e2e', data: { order_id: 5 } } );
		const answer = await sendWebhook( 'sw-e2e', signStandardWebhook( source.secret, eventId, body ) );
		expect( answer.status ).toBe( 202 );
		expect( ( await eventsFor( 'sw-e2e', eventId ) ).map( ( event ) => event.id ) ).toEqual( [ answer.body.id ] );
		expect( await eventsFor( 'other-e2e', eventId ) ).toEqual( [] );
	} );

	it( 'hands handlers the data decoded by PHP from the exact bytes: 64-bit integers survive', async () => {
		const source = await createSource( 'sw-e2e', 'standard-webhooks' );
		// 2^53 + 1 cannot be a JavaScript number; a JS re-serialisation would round it.
		const body = '{"type":"order.paid","data":{"order_id":9007199254740993,"ratio":0.1}}';
		const webhook = signStandardWebhook( source.secret, 'msg_bigint_e2e', body );
		expect( ( await sendWebhook( 'sw-e2e', webhook ) ).status ).toBe( 202 );
		await inboundCronUntil(
			async () => ( await eventsFor( 'sw-e2e', 'msg_bigint_e2e' ) )[ 0 ]?.status === 'processed',
			'the event processed'
		);
		expect( await recordedCallsText() ).toContain( '"order_id":9007199254740993' );
	} );
} );

import { createHmac, randomBytes } from 'node:crypto';
import {
	sampleWebhook,
	signGithub,
	signShopify,
	signStandardWebhook,
	signStripe,
	type SignedWebhook,
} from '../../support/inbound-signers';
import { adminClient } from '../support/clients';
import { setPluginActive } from '../support/plugins';
import { runCron } from '../support/cron';
import {
	ADMIN,
	createSource,
	pooled,
	RECORDER_PLUGIN,
	recordedCalls,
	sendWebhook,
	totalEvents,
	type SendOptions,
} from '../support/inbound';

/**
 * Forged, replayed and malformed requests through WordPress, written by hand for what the
 * generated sweep (forgery-sweep.test.ts) does not vary: transport (content type, size,
 * method, empty body), route names, bodies that are not UTF-8. Each refused with the right
 * status and code, and none leaves a stored event or a handler call.
 */
interface Case {
	label: string;
	source: string;
	webhook: SignedWebhook | { body: Buffer; headers: Record< string, string > };
	options?: SendOptions;
	status: number;
	code: string;
}

const OWN_SOURCES = [
	'sw-refusals-e2e',
	'stripe-refusals-e2e',
	'github-refusals-e2e',
	'shopify-refusals-e2e',
	'woo-refusals-e2e',
	'off-refusals-e2e',
	'woo-off-refusals-e2e',
];
const callsForOwnSources = async () =>
	( await recordedCalls() ).filter( ( call ) => OWN_SOURCES.includes( call.source ) );

const old = () => Math.floor( Date.now() / 1000 ) - 3600;

describe( 'inbound refusals through WordPress', () => {
	const cases: Case[] = [];

	beforeAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, true );
		const sw = await createSource( 'sw-refusals-e2e', 'standard-webhooks' );
		const stripe = await createSource( 'stripe-refusals-e2e', 'stripe' );
		const github = await createSource( 'github-refusals-e2e', 'github' );
		const shopify = await createSource( 'shopify-refusals-e2e', 'shopify' );
		const woo = await createSource( 'woo-refusals-e2e', 'woocommerce' );
		await createSource( 'off-refusals-e2e', 'standard-webhooks', { status: 'disabled' } );
		const other = 'whsec_' + randomBytes( 32 ).toString( 'base64' );
		const good = sampleWebhook( 'standard-webhooks', sw.secret );
		const add = (
			label: string,
			source: string,
			webhook: Case[ 'webhook' ],
			status: number,
			code: string,
			options?: SendOptions
		) => cases.push( { label, source, webhook, status, code, options } );

		// Signatures.
		add(
			'standard-webhooks: signed with another secret',
			'sw-refusals-e2e',
			sampleWebhook( 'standard-webhooks', other ),
			401,
			'invalid_signature'
		);
		add(
			'stripe: signed with another secret',
			'stripe-refusals-e2e',
			sampleWebhook( 'stripe', 'whsec_not_the_one_0123456789' ),
			401,
			'invalid_signature'
		);
		add(
			'github: signed with another secret',
			'github-refusals-e2e',
			sampleWebhook( 'github', 'not-the-github-secret' ),
			401,
			'invalid_signature'
		);
		add(
			'shopify: signed with another secret',
			'shopify-refusals-e2e',
			sampleWebhook( 'shopify', 'shpss_not_the_one' ),
			401,
			'invalid_signature'
		);
		add(
			'woocommerce: signed with another secret',
			'woo-refusals-e2e',
			sampleWebhook( 'woocommerce', 'not-the-woo-secret' ),
			401,
			'invalid_signature'
		);
		add(
			'standard-webhooks: body changed after signing',
			'sw-refusals-e2e',
			{ ...good, body: good.body.replace( '4321', '4322' ) },
			401,
			'invalid_signature'
		);
		add(
			'github: body changed after signing',
			'github-refusals-e2e',
			{ ...sampleWebhook( 'github', github.secret ), body: '{"action":"deleted"}' },
			401,
			'invalid_signature'
		);
		add(
			'standard-webhooks: no signature header',
			'sw-refusals-e2e',
			{
				body: good.body,
				headers: { 'webhook-id': 'msg_x', 'webhook-timestamp': String( Math.floor( Date.now() / 1000 ) ) },
			},
			401,
			'missing_signature'
		);
		add(
			'woocommerce: no signature header',
			'woo-refusals-e2e',
			{ body: '{"id":1}', headers: { 'x-wc-webhook-topic': 'order.created' } },
			401,
			'missing_signature'
		);
		add(
			'stripe: garbage signature header',
			'stripe-refusals-e2e',
			{ body: '{}', headers: { 'stripe-signature': 'v1=zz' } },
			401,
			'malformed_signature'
		);
		// Replays.
		add(
			'standard-webhooks: replayed an hour later',
			'sw-refusals-e2e',
			sampleWebhook( 'standard-webhooks', sw.secret, { timestamp: old() } ),
			401,
			'stale_timestamp'
		);
		add(
			'stripe: replayed an hour later',
			'stripe-refusals-e2e',
			sampleWebhook( 'stripe', stripe.secret, { timestamp: old() } ),
			401,
			'stale_timestamp'
		);
		add(
			'shopify: triggered an hour ago',
			'shopify-refusals-e2e',
			sampleWebhook( 'shopify', shopify.secret, { timestamp: old() } ),
			401,
			'stale_timestamp'
		);
		add(
			'standard-webhooks: signed an hour in the future',
			'sw-refusals-e2e',
			sampleWebhook( 'standard-webhooks', sw.secret, { timestamp: old() + 7200 } ),
			401,
			'stale_timestamp'
		);
		// Sources.
		add( 'an unknown source', 'nobody-e2e', good, 404, 'unknown_source' );
		add(
			'a disabled source',
			'off-refusals-e2e',
			sampleWebhook( 'standard-webhooks', sw.secret ),
			403,
			'source_disabled'
		);
		add( 'a source name that is not a slug', 'Not_A_Slug', good, 404, 'rest_no_route' );
		// Transport.
		add(
			'Content-Type text/plain',
			'sw-refusals-e2e',
			sampleWebhook( 'standard-webhooks', sw.secret ),
			415,
			'inbound_unsupported_media_type',
			{ contentType: 'text/plain' }
		);
		add(
			'a form body',
			'stripe-refusals-e2e',
			{ body: 'type=a&data=b', headers: {} },
			415,
			'inbound_unsupported_media_type',
			{ contentType: 'application/x-www-form-urlencoded' }
		);
		add(
			'no Content-Type',
			'sw-refusals-e2e',
			sampleWebhook( 'standard-webhooks', sw.secret ),
			415,
			'inbound_unsupported_media_type',
			{ contentType: null }
		);
		add( 'an empty body', 'sw-refusals-e2e', { body: '', headers: good.headers }, 400, 'inbound_empty_body' );
		const huge = JSON.stringify( { type: 'order.paid', data: { blob: 'x'.repeat( 300 * 1024 ) } } );
		add(
			'a 300 KB body (validly signed)',
			'sw-refusals-e2e',
			signStandardWebhook( sw.secret, 'msg_huge_e2e', huge ),
			413,
			'inbound_body_too_large'
		);
		add( 'GET instead of POST', 'sw-refusals-e2e', good, 405, 'inbound_method_not_allowed', { method: 'GET' } );
		add( 'PUT instead of POST', 'sw-refusals-e2e', good, 405, 'inbound_method_not_allowed', { method: 'PUT' } );
		add( 'DELETE instead of POST', 'sw-refusals-e2e', good, 405, 'inbound_method_not_allowed', {
			method: 'DELETE',
		} );
		// Signed, but not a {type, data} event; the signature is checked first.
		add(
			'malformed JSON, validly signed',
			'sw-refusals-e2e',
			signStandardWebhook( sw.secret, 'msg_bad_json_e2e', '{"type":"order.paid",' ),
			400,
			'invalid_json'
		);
		add(
			'malformed JSON, forged',
			'sw-refusals-e2e',
			{ body: '{"type":', headers: good.headers },
			401,
			'invalid_signature'
		);
		add(
			'malformed JSON, validly signed (stripe)',
			'stripe-refusals-e2e',
			signStripe( stripe.secret, '{nope' ),
			400,
			'invalid_json'
		);
		add(
			'no type, validly signed',
			'sw-refusals-e2e',
			signStandardWebhook( sw.secret, 'msg_no_type_e2e', '{"data":{}}' ),
			400,
			'invalid_payload'
		);
		add(
			'data not an object, validly signed',
			'stripe-refusals-e2e',
			signStripe( stripe.secret, '{"id":"evt_e2e_arr","type":"a","data":[1]}' ),
			400,
			'invalid_payload'
		);
		add(
			'a JSON array, validly signed',
			'woo-refusals-e2e',
			{
				body: '[1,2]',
				headers: {
					'x-wc-webhook-signature': createHmac( 'sha256', woo.secret ).update( '[1,2]' ).digest( 'base64' ),
					'x-wc-webhook-topic': 'order.created',
				},
			},
			400,
			'invalid_payload'
		);
		add(
			'github: no x-github-event, validly signed',
			'github-refusals-e2e',
			{
				body: '{"zen":"x"}',
				headers: {
					'x-hub-signature-256': signGithub( github.secret, '{"zen":"x"}', 'ping', 'd' ).headers[
						'x-hub-signature-256'
					] as string,
				},
			},
			400,
			'invalid_payload'
		);
		// Signed bytes that are not UTF-8 (so not JSON): refused for good, not 503 forever when the database rejects them.
		const latin1 = Buffer.concat( [
			Buffer.from( '{"id":42,"billing":{"city":"' ),
			Buffer.from( 'Zürich', 'latin1' ),
			Buffer.from( '"}}' ),
		] );
		add(
			'invalid UTF-8, validly signed',
			'woo-refusals-e2e',
			{
				body: latin1,
				headers: {
					'x-wc-webhook-signature': createHmac( 'sha256', woo.secret ).update( latin1 ).digest( 'base64' ),
					'x-wc-webhook-topic': 'order.created',
				},
			},
			400,
			'invalid_utf8'
		);
		add(
			'invalid UTF-8, forged',
			'woo-refusals-e2e',
			{
				body: latin1,
				headers: {
					'x-wc-webhook-signature': createHmac( 'sha256', 'not-the-woo-secret' )
						.update( latin1 )
						.digest( 'base64' ),
					'x-wc-webhook-topic': 'order.created',
				},
			},
			401,
			'invalid_signature'
		);
		add(
			'shopify: no topic, validly signed',
			'shopify-refusals-e2e',
			{
				body: '{"id":1}',
				headers: {
					'x-shopify-hmac-sha256': signShopify( shopify.secret, '{"id":1}', 't', 'w' ).headers[
						'x-shopify-hmac-sha256'
					] as string,
				},
			},
			400,
			'invalid_payload'
		);
	} );

	afterAll( async () => {
		await setPluginActive( RECORDER_PLUGIN, false );
	} );

	it( 'refuses each with the right status and code, and leaves no trace', async () => {
		const eventsBefore = await totalEvents();
		// Events of earlier files may still be processed meanwhile; only this file's sources must stay silent.
		const callsBefore = await callsForOwnSources();
		const logBefore = (
			await adminClient().get< { total: number } >( `${ ADMIN }/log?outcome=refused&per_page=1` )
		).body.total;

		const answers = await pooled( cases, 4, ( c ) => sendWebhook( c.source, c.webhook, c.options ) );
		const got = cases.map( ( c, i ) => ( {
			label: c.label,
			status: answers[ i ]?.status,
			code: answers[ i ]?.body?.code,
		} ) );
		expect( got ).toEqual( cases.map( ( c ) => ( { label: c.label, status: c.status, code: c.code } ) ) );
		const methodRefusal = answers[ cases.findIndex( ( c ) => c.options?.method === 'GET' ) ];
		expect( methodRefusal?.headers.get( 'allow' ) ).toBe( 'POST' );

		await runCron();
		expect( await totalEvents() ).toBe( eventsBefore );
		expect( await callsForOwnSources() ).toEqual( callsBefore );
		// Every refusal the sidecar saw is in its log (transport refusals never reach it).
		const reachedSidecar = cases.filter(
			( c ) =>
				! [ 415, 413, 405 ].includes( c.status ) &&
				c.code !== 'inbound_empty_body' &&
				c.code !== 'rest_no_route'
		);
		const logAfter = ( await adminClient().get< { total: number } >( `${ ADMIN }/log?outcome=refused&per_page=1` ) )
			.body.total;
		expect( logAfter - logBefore ).toBe( reachedSidecar.length );
	} );

	it( "answers WooCommerce's unsigned activation ping with 200 for an active WooCommerce source only, and stores nothing", async () => {
		await createSource( 'woo-off-refusals-e2e', 'woocommerce', { status: 'disabled' } );
		const before = await totalEvents();
		const ping = ( source: string ) =>
			sendWebhook(
				source,
				{ body: 'webhook_id=17', headers: {} },
				{ contentType: 'application/x-www-form-urlencoded' }
			);

		const answered = await ping( 'woo-refusals-e2e' );
		expect( { status: answered.status, body: answered.body } ).toEqual( {
			status: 200,
			body: { received: false, ping: true },
		} );
		// Elsewhere the ping gets what any request there gets.
		const refused = await Promise.all(
			[ 'nobody-e2e', 'woo-off-refusals-e2e', 'sw-refusals-e2e' ].map( async ( source ) => {
				const answer = await ping( source );
				return { source, status: answer.status, code: answer.body?.code };
			} )
		);
		expect( refused ).toEqual( [
			{ source: 'nobody-e2e', status: 404, code: 'unknown_source' },
			{ source: 'woo-off-refusals-e2e', status: 403, code: 'source_disabled' },
			{ source: 'sw-refusals-e2e', status: 415, code: 'inbound_unsupported_media_type' },
		] );
		expect( await totalEvents() ).toBe( before );
	} );
} );

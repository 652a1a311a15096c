import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { checkInbound, type InboundRequest } from '../../../sidecar/src/inbound/receive';
import { generateSourceSecret, secretProblem } from '../../../sidecar/src/inbound/source-secrets';
import type { InboundSource } from '../../../sidecar/src/model/inbound';
import { INBOUND_SCHEMES, type InboundScheme } from '../../../sidecar/src/contracts/constants';
import { verifyInbound } from '../../../sidecar/src/inbound/verify';

const NOW_MS = 1_700_000_000_000;
const NOW = NOW_MS / 1000;

function source( scheme: InboundScheme, secrets: string[], overrides: Partial< InboundSource > = {} ): InboundSource {
	return {
		id: 'src',
		scheme,
		status: 'active',
		description: '',
		toleranceSeconds: null,
		createdAt: 0,
		updatedAt: 0,
		secrets: secrets.map( ( secret ) => ( {
			secret,
			origin: 'generated' as const,
			createdAt: 0,
			expiresAt: null,
		} ) ),
		...overrides,
	};
}

function request(
	body: string,
	headers: Record< string, string >,
	overrides: Partial< InboundRequest > = {}
): InboundRequest {
	return { rawBody: Buffer.from( body ), headers, nowMs: NOW_MS, defaultToleranceSeconds: 300, ...overrides };
}

describe( 'checkInbound: source, signature, then shape', () => {
	const swSecret = generateSourceSecret( 'standard-webhooks' );
	const body = JSON.stringify( { type: 'order.paid', data: { order_id: 7 } } );
	const swHeaders = ( payload = body, at = NOW ) => ( {
		'webhook-id': 'msg_1',
		'webhook-timestamp': String( at ),
		'webhook-signature': new Webhook( swSecret ).sign( 'msg_1', new Date( at * 1000 ), payload ),
	} );

	test( 'a verified Standard Webhook gives the event id, type, data and signing time', () => {
		expect( checkInbound( source( 'standard-webhooks', [ swSecret ] ), request( body, swHeaders() ) ) ).toEqual( {
			ok: true,
			status: 200,
			eventId: 'msg_1',
			eventIdSource: 'header',
			deliveryId: null,
			type: 'order.paid',
			data: { order_id: 7 },
			dataPointer: '/data',
			signedAt: NOW,
		} );
	} );

	test( 'unknown source: 404 unknown_source; disabled: 403 source_disabled (before any signature work)', () => {
		expect( checkInbound( undefined, request( body, swHeaders() ) ) ).toMatchObject( {
			ok: false,
			status: 404,
			code: 'unknown_source',
		} );
		expect(
			checkInbound(
				source( 'standard-webhooks', [ swSecret ], { status: 'disabled' } ),
				request( body, swHeaders() )
			)
		).toMatchObject( {
			ok: false,
			status: 403,
			code: 'source_disabled',
		} );
	} );

	test( 'the signature is checked before the JSON: a forged malformed body is 401, a signed one is 400', () => {
		const malformed = '{"type":';
		expect(
			checkInbound( source( 'standard-webhooks', [ swSecret ] ), request( malformed, swHeaders( body ) ) )
		).toMatchObject( { status: 401, code: 'invalid_signature' } );
		expect(
			checkInbound( source( 'standard-webhooks', [ swSecret ] ), request( malformed, swHeaders( malformed ) ) )
		).toMatchObject( { status: 400, code: 'invalid_json' } );
		const untyped = JSON.stringify( { data: {} } );
		expect(
			checkInbound( source( 'standard-webhooks', [ swSecret ] ), request( untyped, swHeaders( untyped ) ) )
		).toMatchObject( { status: 400, code: 'invalid_payload' } );
	} );

	test( 'invalid UTF-8: a signed body is 400 invalid_utf8, a forged one 401 (checked after the signature)', () => {
		// A JSON document with a lone continuation byte and a truncated sequence in a string.
		const bytes = Buffer.concat( [
			Buffer.from( '{"type":"order.paid","data":{"name":"' ),
			Buffer.from( [ 0x80, 0xe2, 0x82 ] ),
			Buffer.from( '"}}' ),
		] );
		const wc = generateSourceSecret( 'woocommerce' );
		const signed = {
			'x-wc-webhook-signature': createHmac( 'sha256', wc ).update( bytes ).digest( 'base64' ),
			'x-wc-webhook-topic': 'order.created',
		};
		const raw = ( headers: Record< string, string > ): InboundRequest => ( {
			rawBody: bytes,
			headers,
			nowMs: NOW_MS,
			defaultToleranceSeconds: 300,
		} );
		expect( checkInbound( source( 'woocommerce', [ wc ] ), raw( signed ) ) ).toMatchObject( {
			ok: false,
			status: 400,
			code: 'invalid_utf8',
		} );
		const forged = {
			...signed,
			'x-wc-webhook-signature': createHmac( 'sha256', 'another' ).update( bytes ).digest( 'base64' ),
		};
		expect( checkInbound( source( 'woocommerce', [ wc ] ), raw( forged ) ) ).toMatchObject( {
			ok: false,
			status: 401,
			code: 'invalid_signature',
		} );
	} );

	test( "the source's own tolerance wins over the default; null falls back to it", () => {
		const old = swHeaders( body, NOW - 600 );
		expect( checkInbound( source( 'standard-webhooks', [ swSecret ] ), request( body, old ) ) ).toMatchObject( {
			status: 401,
			code: 'stale_timestamp',
		} );
		expect(
			checkInbound( source( 'standard-webhooks', [ swSecret ], { toleranceSeconds: 900 } ), request( body, old ) )
				.ok
		).toBe( true );
		expect(
			checkInbound(
				source( 'standard-webhooks', [ swSecret ] ),
				request( body, old, { defaultToleranceSeconds: 900 } )
			).ok
		).toBe( true );
	} );

	test( 'during a rotation both the current and the previous secret verify', () => {
		const next = generateSourceSecret( 'standard-webhooks' );
		const both = source( 'standard-webhooks', [ next, swSecret ] );
		expect( checkInbound( both, request( body, swHeaders() ) ).ok ).toBe( true );
		expect( checkInbound( source( 'standard-webhooks', [ next ] ), request( body, swHeaders() ) ) ).toMatchObject( {
			status: 401,
			code: 'invalid_signature',
		} );
	} );

	test( 'a source with no unexpired secret refuses everything', () => {
		expect( checkInbound( source( 'standard-webhooks', [] ), request( body, swHeaders() ) ) ).toMatchObject( {
			status: 401,
			code: 'invalid_signature',
		} );
	} );

	test( 'stripe through stripe-node: the event id is evt_… from the payload', () => {
		const secret = generateSourceSecret( 'stripe' );
		const payload = JSON.stringify( {
			id: 'evt_123',
			object: 'event',
			type: 'charge.succeeded',
			data: { object: { id: 'ch_1' } },
		} );
		const header = Stripe.webhooks.generateTestHeaderString( { payload, secret, timestamp: NOW } );
		expect(
			checkInbound( source( 'stripe', [ secret ] ), request( payload, { 'stripe-signature': header } ) )
		).toMatchObject( {
			ok: true,
			eventId: 'evt_123',
			eventIdSource: 'payload',
			type: 'charge.succeeded',
			data: { object: { id: 'ch_1' } },
		} );
	} );

	test( 'github, shopify, woocommerce: typed from their headers, data = body', () => {
		const payload = JSON.stringify( { action: 'created', id: 5 } );
		const hex = ( secret: string ) => createHmac( 'sha256', secret ).update( payload ).digest( 'hex' );
		const b64 = ( secret: string ) => createHmac( 'sha256', secret ).update( payload ).digest( 'base64' );
		const gh = generateSourceSecret( 'github' );
		expect(
			checkInbound(
				source( 'github', [ gh ] ),
				request( payload, {
					'x-hub-signature-256': `sha256=${ hex( gh ) }`,
					'x-github-event': 'star',
					'x-github-delivery': 'd-1',
				} )
			)
		).toMatchObject( {
			ok: true,
			eventId: expect.stringMatching( /^sha256:[0-9a-f]{64}$/ ),
			deliveryId: 'd-1',
			type: 'star.created',
			dataPointer: '',
		} );
		const sh = 'shpss_' + 'a'.repeat( 32 );
		expect(
			checkInbound(
				source( 'shopify', [ sh ] ),
				request( payload, {
					'x-shopify-hmac-sha256': b64( sh ),
					'x-shopify-topic': 'orders/paid',
					'x-shopify-webhook-id': 'w-1',
				} )
			)
		).toMatchObject( {
			ok: true,
			eventId: expect.stringMatching( /^sha256:[0-9a-f]{64}$/ ),
			deliveryId: 'w-1',
			type: 'orders/paid',
		} );
		const wc = generateSourceSecret( 'woocommerce' );
		expect(
			checkInbound(
				source( 'woocommerce', [ wc ] ),
				request( payload, { 'x-wc-webhook-signature': b64( wc ), 'x-wc-webhook-topic': 'order.updated' } )
			)
		).toMatchObject( {
			ok: true,
			eventId: expect.stringMatching( /^sha256:[0-9a-f]{64}$/ ),
			eventIdSource: 'digest',
			type: 'order.updated',
		} );
	} );
} );

describe( 'source secrets', () => {
	test.each( [ ...INBOUND_SCHEMES ] )(
		'%s: a generated secret is accepted by its own scheme and verifies',
		( scheme ) => {
			const secret = generateSourceSecret( scheme );
			expect( secretProblem( scheme, secret ) ).toBeNull();
			expect( secret ).not.toBe( generateSourceSecret( scheme ) );
			// A usable key: verifyInbound does not refuse it as "no usable secret".
			const result = verifyInbound( scheme, {
				rawBody: Buffer.from( '{}' ),
				headers: {},
				secrets: [ secret ],
				toleranceSeconds: 300,
				nowSeconds: NOW,
			} );
			expect( result ).toMatchObject( { ok: false, code: 'missing_signature' } );
		}
	);

	test( 'Standard Webhooks secrets are whsec_ + base64 of 32 bytes; Stripe ones whsec_…', () => {
		expect( generateSourceSecret( 'standard-webhooks' ) ).toMatch( /^whsec_[A-Za-z0-9+/]{43}=$/ );
		expect( generateSourceSecret( 'stripe' ) ).toMatch( /^whsec_[0-9a-f]{48}$/ );
		expect( generateSourceSecret( 'github' ) ).toMatch( /^[0-9a-f]{64}$/ );
	} );

	test( 'provided secrets: refused with a reason when unusable', () => {
		expect( secretProblem( 'github', 'short' ) ).toMatch( /8 to 1024/ );
		expect( secretProblem( 'github', 'x'.repeat( 1025 ) ) ).toMatch( /8 to 1024/ );
		expect( secretProblem( 'stripe', ' whsec_abcdefghijkl' ) ).toMatch( /white space/ );
		expect( secretProblem( 'shopify', 'abc\ndefghijk' ) ).toMatch( /control/ );
		expect( secretProblem( 'standard-webhooks', 'whsec_not base64!' ) ).toMatch( /base64/ );
		expect( secretProblem( 'standard-webhooks', 'whsec_' + Buffer.alloc( 8 ).toString( 'base64' ) ) ).toMatch(
			/16 bytes/
		);
		expect( secretProblem( 'standard-webhooks', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' ) ).toBeNull(); // the spec's example
		expect( secretProblem( 'woocommerce', 'k&Gk$Rd}4c#ZpR[&Vw' ) ).toBeNull();
	} );
} );

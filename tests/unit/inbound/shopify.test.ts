import { createHash, createHmac, randomBytes } from 'node:crypto';
import { verifyInbound } from '../../../sidecar/src/inbound/verify';
import { NOW, requestBuilder, schemeCases } from './scheme-cases';

/**
 * No Shopify library is installed, so signatures follow Shopify's documented
 * recipe: base64(HMAC-SHA256(client secret, raw body)).
 */
const SECRET = randomBytes( 16 ).toString( 'hex' );
const OLD_SECRET = randomBytes( 16 ).toString( 'hex' );
const BODY = '{"id":820982911946154508,"email":"jon@example.com","total_price":"19.90"}';
const WEBHOOK_ID = 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043';

function sign( secret: string, body: string | Buffer = BODY ): string {
	return createHmac( 'sha256', secret ).update( body ).digest( 'base64' );
}

function iso( seconds: number ): string {
	return new Date( seconds * 1000 ).toISOString();
}

const request = requestBuilder( BODY, SECRET, () => ( {
	'x-shopify-hmac-sha256': sign( SECRET ),
	'x-shopify-webhook-id': WEBHOOK_ID,
	'x-shopify-triggered-at': iso( NOW - 5 ),
	'x-shopify-topic': 'orders/paid',
} ) );

describe( 'shopify', () => {
	const DIGEST_ID = `sha256:${ createHash( 'sha256' ).update( BODY ).digest( 'hex' ) }`;

	test( 'accepts a valid signature; event id is the body digest, the webhook-id header kept for display', () => {
		expect( verifyInbound( 'shopify', request() ) ).toEqual( {
			ok: true,
			eventId: DIGEST_ID,
			eventIdSource: 'digest',
			deliveryId: WEBHOOK_ID,
		} );
	} );

	test( 'without x-shopify-webhook-id: the same event id, no delivery id', () => {
		expect( verifyInbound( 'shopify', request( {}, { 'x-shopify-webhook-id': undefined } ) ) ).toEqual( {
			ok: true,
			eventId: DIGEST_ID,
			eventIdSource: 'digest',
		} );
	} );

	test( 'a replay with a fresh webhook id and triggered-at (both unsigned) keeps the event id, so it is a duplicate', () => {
		const replay = request( {}, { 'x-shopify-webhook-id': 'replayed-0001', 'x-shopify-triggered-at': iso( NOW ) } );
		expect( verifyInbound( 'shopify', replay ) ).toEqual( {
			ok: true,
			eventId: DIGEST_ID,
			eventIdSource: 'digest',
			deliveryId: 'replayed-0001',
		} );
	} );

	schemeCases( {
		scheme: 'shopify',
		request,
		signatureHeader: 'x-shopify-hmac-sha256',
		secret: SECRET,
		otherSecret: OLD_SECRET,
		respelled: [
			JSON.stringify( JSON.parse( BODY.replace( /\d{10,}/, '1' ) ), null, 2 ),
			BODY.replace( /,/g, ', ' ),
		],
		tampered: BODY.replace( '19.90', '1.90' ),
		malformed: [
			'',
			'abc',
			'sha256=' + 'a'.repeat( 64 ),
			createHmac( 'sha256', 'k' ).update( BODY ).digest( 'hex' ),
			sign( SECRET ).slice( 0, -1 ),
			sign( SECRET ) + '=',
			sign( SECRET )
				.replace( /[+/]/g, ( c ) => ( c === '+' ? '-' : '_' ) )
				.replace( /^[A-Za-z0-9]/, '-' ),
		],
	} );

	describe( 'x-shopify-triggered-at', () => {
		test( 'older than the tolerance is stale_timestamp', () => {
			expect(
				verifyInbound( 'shopify', request( {}, { 'x-shopify-triggered-at': iso( NOW - 301 ) } ) )
			).toMatchObject( {
				ok: false,
				code: 'stale_timestamp',
			} );
		} );

		test( "Shopify's nanosecond format and offsets are understood", () => {
			expect(
				verifyInbound(
					'shopify',
					request( {}, { 'x-shopify-triggered-at': '2023-03-29T18:00:27.877041743Z' } )
				)
			).toMatchObject( { ok: false, code: 'stale_timestamp' } );
			const fresh = '2023-11-14T22:10:00.123456789Z'; // NOW is 2023-11-14T22:13:20Z
			expect( verifyInbound( 'shopify', request( {}, { 'x-shopify-triggered-at': fresh } ) ).ok ).toBe( true );
			const offset = '2023-11-14T23:10:00+01:00';
			expect( verifyInbound( 'shopify', request( {}, { 'x-shopify-triggered-at': offset } ) ).ok ).toBe( true );
		} );

		test.each( [ undefined, '', 'yesterday', '1', '1699999000', 'Tue, 14 Nov 2023 22:13:20 GMT' ] )(
			'absent or unparseable (%j) is ignored',
			( value ) => {
				expect( verifyInbound( 'shopify', request( {}, { 'x-shopify-triggered-at': value } ) ).ok ).toBe(
					true
				);
			}
		);

		test( 'the signature is checked first: a stale forgery is invalid_signature', () => {
			const input = request( { secrets: [ OLD_SECRET ] }, { 'x-shopify-triggered-at': iso( NOW - 10_000 ) } );
			expect( verifyInbound( 'shopify', input ) ).toMatchObject( { ok: false, code: 'invalid_signature' } );
		} );
	} );

	test( 'a non-canonical spelling of the right MAC is still refused', () => {
		// Flipping the unused low bits of the last base64 digit decodes to the same bytes.
		const sig = sign( SECRET );
		const last = sig[ 42 ]!;
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
		const twin = alphabet[ alphabet.indexOf( last ) ^ 1 ]!;
		const variant = `${ sig.slice( 0, 42 ) }${ twin }=`;
		expect( Buffer.from( variant, 'base64' ).equals( Buffer.from( sig, 'base64' ) ) ).toBe( true );
		expect( verifyInbound( 'shopify', request( {}, { 'x-shopify-hmac-sha256': variant } ) ) ).toMatchObject( {
			ok: false,
			code: 'invalid_signature',
		} );
	} );
} );

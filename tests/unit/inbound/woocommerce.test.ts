import { createHash, createHmac, randomBytes } from 'node:crypto';
import { verifyInbound, type VerifyInput } from '../../../sidecar/src/inbound/verify';

/**
 * WooCommerce's WC_Webhook::generate_signature is PHP:
 * base64_encode( hash_hmac( 'sha256', $payload, $secret, true ) ), mirrored here.
 */
const SECRET = `wc_${ randomBytes( 18 ).toString( 'base64' ) }`;
const OLD_SECRET = `wc_${ randomBytes( 18 ).toString( 'base64' ) }`;
const BODY = '{"id":1234,"status":"processing","total":"19.90","date_modified_gmt":"2023-11-14T22:13:20"}';

function sign( secret: string, body: string | Buffer = BODY ): string {
	return createHmac( 'sha256', secret ).update( body ).digest( 'base64' );
}

function request(
	overrides: Partial< VerifyInput > = {},
	headers: Record< string, string | undefined > = {}
): VerifyInput {
	return {
		rawBody: Buffer.from( BODY ),
		headers: {
			'x-wc-webhook-signature': sign( SECRET ),
			'x-wc-webhook-delivery-id': randomBytes( 16 ).toString( 'hex' ),
			'x-wc-webhook-topic': 'order.updated',
			...headers,
		},
		secrets: [ SECRET ],
		toleranceSeconds: 300,
		nowSeconds: 1_700_000_000,
		...overrides,
	};
}

describe( 'woocommerce', () => {
	const digestId = `sha256:${ createHash( 'sha256' ).update( BODY ).digest( 'hex' ) }`;

	test( 'accepts a valid signature; event id is the body digest', () => {
		expect( verifyInbound( 'woocommerce', request() ) ).toEqual( {
			ok: true,
			eventId: digestId,
			eventIdSource: 'digest',
		} );
	} );

	test( 'a resend (new delivery id, same body) gets the same event id', () => {
		const a = verifyInbound( 'woocommerce', request() );
		const b = verifyInbound( 'woocommerce', request( {}, { 'x-wc-webhook-delivery-id': 'another' } ) );
		expect( a ).toEqual( b );
	} );

	test( 'refuses the same JSON re-serialized with different whitespace', () => {
		const reserialized = JSON.stringify( JSON.parse( BODY ), null, 2 );
		expect( verifyInbound( 'woocommerce', request( { rawBody: Buffer.from( reserialized ) } ) ) ).toMatchObject( {
			ok: false,
			code: 'invalid_signature',
		} );
	} );

	test( 'rotation: passes when the second configured secret signed it', () => {
		expect( verifyInbound( 'woocommerce', request( { secrets: [ OLD_SECRET, SECRET ] } ) ).ok ).toBe( true );
	} );

	describe( 'failures', () => {
		test( 'missing header is missing_signature (as for the unsigned ping on webhook creation)', () => {
			const ping = request(
				{ rawBody: Buffer.from( 'webhook_id=12' ) },
				{ 'x-wc-webhook-signature': undefined }
			);
			expect( verifyInbound( 'woocommerce', ping ) ).toMatchObject( { ok: false, code: 'missing_signature' } );
		} );

		test.each( [
			'',
			'nope',
			sign( SECRET ).slice( 1 ),
			`${ sign( SECRET ) },${ sign( SECRET ) }`,
			`${ sign( SECRET ) } x`,
		] )( '%j is malformed_signature', ( value ) => {
			expect( verifyInbound( 'woocommerce', request( {}, { 'x-wc-webhook-signature': value } ) ) ).toMatchObject(
				{
					ok: false,
					code: 'malformed_signature',
				}
			);
		} );

		test( 'wrong secret is invalid_signature', () => {
			expect( verifyInbound( 'woocommerce', request( { secrets: [ OLD_SECRET ] } ) ) ).toMatchObject( {
				ok: false,
				code: 'invalid_signature',
			} );
		} );

		test( 'tampered body is invalid_signature', () => {
			const tampered = Buffer.from( BODY.replace( 'processing', 'completed' ) );
			expect( verifyInbound( 'woocommerce', request( { rawBody: tampered } ) ) ).toMatchObject( {
				ok: false,
				code: 'invalid_signature',
			} );
		} );

		test( 'empty secrets list is refused', () => {
			expect( verifyInbound( 'woocommerce', request( { secrets: [] } ) ) ).toMatchObject( {
				ok: false,
				code: 'invalid_signature',
			} );
		} );
	} );
} );

import { createHash, createHmac, randomBytes } from 'node:crypto';
import { verifyInbound } from '../../../sidecar/src/inbound/verify';
import { requestBuilder, schemeCases } from './scheme-cases';

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

const request = requestBuilder( BODY, SECRET, () => ( {
	'x-wc-webhook-signature': sign( SECRET ),
	'x-wc-webhook-delivery-id': randomBytes( 16 ).toString( 'hex' ),
	'x-wc-webhook-topic': 'order.updated',
} ) );

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

	schemeCases( {
		scheme: 'woocommerce',
		request,
		signatureHeader: 'x-wc-webhook-signature',
		secret: SECRET,
		otherSecret: OLD_SECRET,
		respelled: [ JSON.stringify( JSON.parse( BODY ), null, 2 ) ],
		tampered: BODY.replace( 'processing', 'completed' ),
		malformed: [
			'',
			'nope',
			sign( SECRET ).slice( 1 ),
			`${ sign( SECRET ) },${ sign( SECRET ) }`,
			`${ sign( SECRET ) } x`,
		],
	} );

	test( 'the unsigned ping on webhook creation is missing_signature', () => {
		const ping = request( { rawBody: Buffer.from( 'webhook_id=12' ) }, { 'x-wc-webhook-signature': undefined } );
		expect( verifyInbound( 'woocommerce', ping ) ).toMatchObject( { ok: false, code: 'missing_signature' } );
	} );
} );

import { createHmac } from 'node:crypto';
import { INBOUND_SCHEMES, type InboundScheme } from '../../../sidecar/src/contracts/constants';
import { verifyInbound, type VerifyInput } from '../../../sidecar/src/inbound/verify';

const BODY = Buffer.from( '{"id":"evt_1"}' );

function input( overrides: Partial< VerifyInput > = {} ): VerifyInput {
	return {
		rawBody: BODY,
		headers: {},
		secrets: [ 's3cret' ],
		toleranceSeconds: 300,
		nowSeconds: 1_700_000_000,
		...overrides,
	};
}

describe( 'verifyInbound dispatcher', () => {
	test( 'exposes the five schemes', () => {
		expect( [ ...INBOUND_SCHEMES ] ).toEqual( [
			'standard-webhooks',
			'stripe',
			'github',
			'shopify',
			'woocommerce',
		] );
	} );

	test.each( INBOUND_SCHEMES )( '%s: an empty secrets list is refused', ( scheme ) => {
		expect( verifyInbound( scheme, input( { secrets: [] } ) ) ).toMatchObject( {
			ok: false,
			code: 'invalid_signature',
		} );
	} );

	test.each( INBOUND_SCHEMES )( '%s: empty-string secrets are never used as keys', ( scheme ) => {
		// A signature made with an empty key must not verify, whatever the header holds.
		const now = 1_700_000_000;
		const mac = createHmac( 'sha256', '' ).update( BODY ).digest();
		const stripeMac = createHmac( 'sha256', '' ).update( `${ now }.${ BODY.toString() }` ).digest( 'hex' );
		const swMac = createHmac( 'sha256', '' ).update( `msg_1.${ now }.${ BODY.toString() }` ).digest( 'base64' );
		const headers = {
			'x-wc-webhook-signature': mac.toString( 'base64' ),
			'x-shopify-hmac-sha256': mac.toString( 'base64' ),
			'x-hub-signature-256': `sha256=${ mac.toString( 'hex' ) }`,
			'stripe-signature': `t=${ now },v1=${ stripeMac }`,
			'webhook-id': 'msg_1',
			'webhook-timestamp': String( now ),
			'webhook-signature': `v1,${ swMac }`,
		};
		expect( verifyInbound( scheme, input( { secrets: [ '' ], headers } ) ) ).toMatchObject( {
			ok: false,
			code: 'invalid_signature',
		} );
	} );

	test.each( INBOUND_SCHEMES )( '%s: no headers at all is missing_signature', ( scheme ) => {
		expect( verifyInbound( scheme, input() ) ).toMatchObject( { ok: false, code: 'missing_signature' } );
	} );

	test( 'an unknown scheme from config fails closed instead of throwing', () => {
		for ( const scheme of [ 'paypal', 'constructor', '__proto__', 'toString' ] ) {
			expect( verifyInbound( scheme as InboundScheme, input() ) ).toMatchObject( {
				ok: false,
				code: 'invalid_signature',
			} );
		}
	} );

	test( 'a body that was parsed instead of kept raw fails closed', () => {
		const parsed = { id: 'evt_1' } as unknown as Buffer;
		expect( verifyInbound( 'github', input( { rawBody: parsed } ) ) ).toMatchObject( {
			ok: false,
			code: 'invalid_signature',
		} );
	} );
} );

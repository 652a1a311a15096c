import { webcrypto } from 'crypto';
import fs from 'fs';
import path from 'path';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
	buildDeliveryHeaders,
	generateSecret,
	isValidSecret,
	signStandardWebhook,
	USER_AGENT,
} from '../../../sidecar/src/outbound/signing';

/** The release's one version, package.json's: what the User-Agent names. */
const PACKAGE_VERSION = (
	JSON.parse( fs.readFileSync( path.join( __dirname, '../../../package.json' ), 'utf8' ) ) as { version: string }
 ).version;
const nowSeconds = (): number => Math.floor( Date.now() / 1000 );
const body = JSON.stringify( { id: 123, total: '9.99', note: 'caf\u00e9 \u{1F600}' } );

describe( 'generateSecret / isValidSecret', () => {
	it( 'generates whsec_ + base64 of 32 random bytes', () => {
		const secret = generateSecret();
		expect( secret ).toMatch( /^whsec_[A-Za-z0-9+/]{43}=$/ );
		expect( Buffer.from( secret.slice( 6 ), 'base64' ) ).toHaveLength( 32 );
		expect( isValidSecret( secret ) ).toBe( true );
		expect( generateSecret() ).not.toBe( secret );
	} );

	it.each( [
		[ '24 bytes', 'whsec_' + Buffer.alloc( 24, 1 ).toString( 'base64' ), true ],
		[ '64 bytes', 'whsec_' + Buffer.alloc( 64, 1 ).toString( 'base64' ), true ],
		[ 'spec example', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', true ],
		[ '23 bytes', 'whsec_' + Buffer.alloc( 23, 1 ).toString( 'base64' ), false ],
		[ '65 bytes', 'whsec_' + Buffer.alloc( 65, 1 ).toString( 'base64' ), false ],
		[ 'no prefix', Buffer.alloc( 32, 1 ).toString( 'base64' ), false ],
		[ 'wrong prefix', 'whsk_' + Buffer.alloc( 32, 1 ).toString( 'base64' ), false ],
		[ 'empty body', 'whsec_', false ],
		[ 'empty string', '', false ],
		[ 'url-safe alphabet', 'whsec_' + Buffer.alloc( 32, 0xfb ).toString( 'base64url' ) + '=', false ],
		[ 'missing padding', 'whsec_' + Buffer.alloc( 32, 1 ).toString( 'base64' ).replace( /=+$/, '' ), false ],
		[
			'non-canonical last char',
			'whsec_' + Buffer.alloc( 32, 1 ).toString( 'base64' ).replace( /E=$/, 'F=' ),
			false,
		],
		[
			'embedded whitespace',
			'whsec_' +
				Buffer.alloc( 32, 1 )
					.toString( 'base64' )
					.replace( /^(.{8})/, '$1 ' ),
			false,
		],
	] )( '%s → %s', ( _name, secret, valid ) => {
		expect( isValidSecret( secret ) ).toBe( valid );
	} );
} );

describe( 'signStandardWebhook', () => {
	it( 'matches the published Standard Webhooks / Svix example vector', () => {
		expect(
			signStandardWebhook( {
				id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
				timestampSeconds: 1614265330,
				body: '{"test": 2432232314}',
				secrets: [ 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' ],
			} )
		).toBe( 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' );
	} );

	it( 'emits one v1 signature per secret, newest first', () => {
		const [ a, b ] = [ generateSecret(), generateSecret() ];
		const args = { id: 'msg_1', timestampSeconds: 1700000000, body };
		const both = signStandardWebhook( { ...args, secrets: [ a, b ] } );
		expect( both.split( ' ' ) ).toEqual( [
			signStandardWebhook( { ...args, secrets: [ a ] } ),
			signStandardWebhook( { ...args, secrets: [ b ] } ),
		] );
		expect( both ).toMatch( /^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/ );
	} );

	it.each( [
		[ 'no secrets', { secrets: [] as string[] }, /At least one/ ],
		[ 'an invalid secret', { secrets: [ 'whsec_short' ] }, /Invalid webhook secret/ ],
		[ 'an empty id', { id: '' }, /id/ ],
		[ 'a fractional timestamp', { timestampSeconds: 1.5 }, /timestamp/ ],
		[ 'a millisecond-looking negative timestamp', { timestampSeconds: -1 }, /timestamp/ ],
	] )( 'rejects %s', ( _name, override, message ) => {
		const args = { id: 'msg_1', timestampSeconds: nowSeconds(), body, secrets: [ generateSecret() ], ...override };
		expect( () => signStandardWebhook( args ) ).toThrow( message );
	} );

	it( 'does not leak an invalid secret into the error message', () => {
		const bad = 'whsec_NOT-VALID-but-very-secret-value!!';
		expect( () => signStandardWebhook( { id: 'm', timestampSeconds: 1, body, secrets: [ bad ] } ) ).toThrow(
			expect.objectContaining( { message: expect.not.stringContaining( 'very-secret' ) } )
		);
	} );
} );

describe( 'buildDeliveryHeaders verified by the standardwebhooks library', () => {
	const verify = ( secret: string, payload: string, headers: Record< string, string > ): unknown =>
		new Webhook( secret ).verify( payload, headers );

	it( 'is accepted unchanged with a single secret', () => {
		const secret = generateSecret();
		const headers = buildDeliveryHeaders( {
			id: 'msg_abc',
			timestampSeconds: nowSeconds(),
			body,
			secrets: [ secret ],
		} );
		expect( verify( secret, body, headers ) ).toEqual( JSON.parse( body ) );
	} );

	describe( 'during rotation (signed with new + old)', () => {
		const oldSecret = generateSecret();
		const newSecret = generateSecret();
		const headers = buildDeliveryHeaders( {
			id: 'msg_rot',
			timestampSeconds: nowSeconds(),
			body,
			secrets: [ newSecret, oldSecret ],
		} );

		it( 'is accepted by a receiver that only knows the old secret', () => {
			expect( verify( oldSecret, body, headers ) ).toEqual( JSON.parse( body ) );
		} );
		it( 'is accepted by a receiver that only knows the new secret', () => {
			expect( verify( newSecret, body, headers ) ).toEqual( JSON.parse( body ) );
		} );
		it( 'is rejected by a receiver with an unrelated secret', () => {
			expect( () => verify( generateSecret(), body, headers ) ).toThrow( WebhookVerificationError );
		} );
	} );

	it( 'fails verification when the body is tampered with', () => {
		const secret = generateSecret();
		const headers = buildDeliveryHeaders( {
			id: 'msg_t',
			timestampSeconds: nowSeconds(),
			body,
			secrets: [ secret ],
		} );
		const tampered = body.replace( '9.99', '0.01' );
		expect( () => verify( secret, tampered, headers ) ).toThrow( WebhookVerificationError );
	} );

	it.each( [ 'webhook-id', 'webhook-timestamp' ] as const )( 'fails verification when %s is altered', ( name ) => {
		const secret = generateSecret();
		const ts = nowSeconds();
		const headers = buildDeliveryHeaders( { id: 'msg_h', timestampSeconds: ts, body, secrets: [ secret ] } );
		const altered = { ...headers, [ name ]: name === 'webhook-id' ? 'msg_other' : String( ts - 1 ) };
		expect( () => verify( secret, body, altered ) ).toThrow( WebhookVerificationError );
	} );

	it( 'is rejected by the receiver when the timestamp is stale (replay window)', () => {
		const secret = generateSecret();
		const headers = buildDeliveryHeaders( {
			id: 'msg_old',
			timestampSeconds: nowSeconds() - 3600,
			body,
			secrets: [ secret ],
		} );
		expect( () => verify( secret, body, headers ) ).toThrow( /too old/ );
	} );
} );

describe( 'buildDeliveryHeaders contents', () => {
	const secret = generateSecret();
	const base = { id: 'msg_1', timestampSeconds: 1700000000, body, secrets: [ secret ] };

	it( 'sets exactly the Standard Webhooks headers without a Woo secret', () => {
		const headers = buildDeliveryHeaders( { ...base, topic: 'order.paid', sourceUrl: 'https://shop.example/' } );
		expect( headers ).toEqual( {
			'content-type': 'application/json',
			'user-agent': `wp-service-integration-sidecar/${ PACKAGE_VERSION }`,
			'webhook-id': 'msg_1',
			'webhook-timestamp': '1700000000',
			'webhook-signature': signStandardWebhook( base ),
		} );
		expect( USER_AGENT ).toBe( `wp-service-integration-sidecar/${ PACKAGE_VERSION }` );
	} );

	it( 'adds WooCommerce-compatible headers keyed with the raw secret string', async () => {
		const wooSecret = 'woo raw secret, not base64 ;)';
		const headers = buildDeliveryHeaders( {
			...base,
			wooCompatSecret: wooSecret,
			topic: 'order.updated',
			sourceUrl: 'https://shop.example/',
			wooWebhookId: 42,
		} );
		// Independent HMAC implementation (WebCrypto) as the oracle.
		const key = await webcrypto.subtle.importKey(
			'raw',
			new TextEncoder().encode( wooSecret ),
			{ name: 'HMAC', hash: 'SHA-256' },
			false,
			[ 'sign' ]
		);
		const mac = await webcrypto.subtle.sign( 'HMAC', key, new TextEncoder().encode( body ) );
		expect( headers[ 'x-wc-webhook-signature' ] ).toBe( Buffer.from( mac ).toString( 'base64' ) );
		expect( headers[ 'x-wc-webhook-topic' ] ).toBe( 'order.updated' );
		expect( headers[ 'x-wc-webhook-source' ] ).toBe( 'https://shop.example/' );
		expect( headers[ 'x-wc-webhook-id' ] ).toBe( '42' );
		// Standard Webhooks headers are still present and valid.
		expect( headers[ 'webhook-signature' ] ).toBe( signStandardWebhook( base ) );
	} );

	it( 'omits optional Woo headers that were not given', () => {
		const headers = buildDeliveryHeaders( { ...base, wooCompatSecret: 'x' } );
		expect( Object.keys( headers ).filter( ( k ) => k.startsWith( 'x-wc-' ) ) ).toEqual( [
			'x-wc-webhook-signature',
		] );
	} );

	it( 'rejects an empty Woo secret and header-injection attempts', () => {
		expect( () => buildDeliveryHeaders( { ...base, wooCompatSecret: '' } ) ).toThrow( /wooCompatSecret/ );
		expect( () => buildDeliveryHeaders( { ...base, wooCompatSecret: 'x', topic: 'a\r\nx-evil: 1' } ) ).toThrow(
			/x-wc-webhook-topic/
		);
		expect( () => buildDeliveryHeaders( { ...base, id: 'msg\n1' } ) ).toThrow( /webhook-id/ );
	} );
} );

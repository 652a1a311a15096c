import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyInbound } from '../../../sidecar/src/inbound/verify';
import { NOW, requestBuilder, schemeCases } from './scheme-cases';

// Signatures come from the reference `standardwebhooks` library, not from our code.
const SECRET = `whsec_${ randomBytes( 24 ).toString( 'base64' ) }`;
const OLD_SECRET = `whsec_${ randomBytes( 32 ).toString( 'base64' ) }`;
const ID = 'msg_2b8fN0QdY1pD3rJm';
const BODY = '{"type":"order.paid","data":{"id":42,"total":"19.90"}}';

function sign( secret: string, id: string, ts: number, body: string ): string {
	return new Webhook( secret ).sign( id, new Date( ts * 1000 ), body );
}

const request = requestBuilder( BODY, SECRET, () => ( {
	'webhook-id': ID,
	'webhook-timestamp': String( NOW ),
	'webhook-signature': sign( SECRET, ID, NOW, BODY ),
} ) );

describe( 'standard-webhooks', () => {
	test( 'accepts a signature made by the standardwebhooks library', () => {
		expect( verifyInbound( 'standard-webhooks', request() ) ).toEqual( {
			ok: true,
			eventId: ID,
			eventIdSource: 'header',
			signedAt: NOW,
		} );
	} );

	test( 'accepts a secret given as bare base64 (no whsec_ prefix), like the library', () => {
		const bare = randomBytes( 32 ).toString( 'base64' );
		const input = request( { secrets: [ bare ] }, { 'webhook-signature': sign( bare, ID, NOW, BODY ) } );
		expect( verifyInbound( 'standard-webhooks', input ).ok ).toBe( true );
	} );

	test( 'agrees with the library verifier on the same request', () => {
		const now = Math.floor( Date.now() / 1000 );
		const headers = {
			'webhook-id': ID,
			'webhook-timestamp': String( now ),
			'webhook-signature': sign( SECRET, ID, now, BODY ),
		};
		expect( () => new Webhook( SECRET ).verify( BODY, headers ) ).not.toThrow();
		expect( verifyInbound( 'standard-webhooks', request( { nowSeconds: now }, headers ) ).ok ).toBe( true );
	} );

	test( 'verifies the exact bytes, including non-UTF-8 bodies', () => {
		const raw = Buffer.from( [ 0x7b, 0xff, 0xfe, 0x7d ] );
		const key = Buffer.from( SECRET.slice( 'whsec_'.length ), 'base64' );
		const sig = createHmac( 'sha256', key )
			.update( Buffer.concat( [ Buffer.from( `${ ID }.${ NOW }.` ), raw ] ) )
			.digest( 'base64' );
		const input = request( { rawBody: raw }, { 'webhook-signature': `v1,${ sig }` } );
		expect( verifyInbound( 'standard-webhooks', input ).ok ).toBe( true );
	} );

	describe( 'rotation', () => {
		test( 'a header with old + new signatures passes when only one secret is configured', () => {
			const both = `${ sign( OLD_SECRET, ID, NOW, BODY ) } ${ sign( SECRET, ID, NOW, BODY ) }`;
			expect(
				verifyInbound( 'standard-webhooks', request( { secrets: [ SECRET ] }, { 'webhook-signature': both } ) )
					.ok
			).toBe( true );
			expect(
				verifyInbound(
					'standard-webhooks',
					request( { secrets: [ OLD_SECRET ] }, { 'webhook-signature': both } )
				).ok
			).toBe( true );
		} );

		test( 'ignores other signature versions such as v1a', () => {
			const v1a = `v1a,${ randomBytes( 64 ).toString( 'base64' ) }`;
			const header = `${ v1a } ${ sign( SECRET, ID, NOW, BODY ) }`;
			expect( verifyInbound( 'standard-webhooks', request( {}, { 'webhook-signature': header } ) ).ok ).toBe(
				true
			);
			expect( verifyInbound( 'standard-webhooks', request( {}, { 'webhook-signature': v1a } ) ) ).toMatchObject( {
				ok: false,
				code: 'missing_signature',
			} );
		} );
	} );

	describe( 'timestamps', () => {
		test.each( [
			[ 'too old', NOW - 301 ],
			[ 'too new', NOW + 301 ],
		] )( '%s (signed correctly) is stale_timestamp', ( _label, ts ) => {
			const input = request(
				{},
				{ 'webhook-timestamp': String( ts ), 'webhook-signature': sign( SECRET, ID, ts, BODY ) }
			);
			expect( verifyInbound( 'standard-webhooks', input ) ).toMatchObject( {
				ok: false,
				code: 'stale_timestamp',
			} );
		} );

		test.each( [ NOW - 300, NOW + 300 ] )( 'the tolerance edge %d is accepted', ( ts ) => {
			const input = request(
				{},
				{ 'webhook-timestamp': String( ts ), 'webhook-signature': sign( SECRET, ID, ts, BODY ) }
			);
			expect( verifyInbound( 'standard-webhooks', input ) ).toMatchObject( { ok: true, signedAt: ts } );
		} );

		test( 'a NaN tolerance fails closed', () => {
			expect( verifyInbound( 'standard-webhooks', request( { toleranceSeconds: Number.NaN } ) ) ).toMatchObject( {
				ok: false,
				code: 'stale_timestamp',
			} );
		} );

		test( 'changing the timestamp without re-signing is invalid_signature', () => {
			const input = request( {}, { 'webhook-timestamp': String( NOW - 1 ) } );
			expect( verifyInbound( 'standard-webhooks', input ) ).toMatchObject( {
				ok: false,
				code: 'invalid_signature',
			} );
		} );
	} );

	describe( 'failures', () => {
		test.each( [
			[ 'webhook-timestamp', 'missing_signature' ],
			[ 'webhook-id', 'missing_event_id' ],
		] )( 'missing %s is %s', ( name, code ) => {
			expect( verifyInbound( 'standard-webhooks', request( {}, { [ name ]: undefined } ) ) ).toMatchObject( {
				ok: false,
				code,
			} );
		} );

		test.each( [
			[ 'webhook-id', '' ],
			[ 'webhook-id', 'msg.1' ],
			[ 'webhook-id', 'msg 1' ],
			[ 'webhook-timestamp', '' ],
			[ 'webhook-timestamp', 'soon' ],
			[ 'webhook-timestamp', '1700000000.5' ],
			[ 'webhook-timestamp', '-1700000000' ],
			[ 'webhook-timestamp', '01700000000' ],
		] )( '%s = %j is malformed_signature', ( name, value ) => {
			const result = verifyInbound( 'standard-webhooks', request( {}, { [ name ]: value } ) );
			expect( result ).toMatchObject( { ok: false, code: 'malformed_signature' } );
		} );

		test( 'a v1 entry of the right shape but the wrong size is told what a v1 signature is, without its value repeated', () => {
			const value = 'c2hvcnQ=';
			const result = verifyInbound(
				'standard-webhooks',
				request( {}, { 'webhook-signature': `v1,${ value }` } )
			);
			expect( result ).toEqual( {
				ok: false,
				code: 'malformed_signature',
				message:
					'webhook-signature\'s v1 entry must be a base64 HMAC-SHA256: 44 characters ending in "=" (this one has 8).',
			} );
			expect( ( result as { message: string } ).message ).not.toContain( value );
		} );

		test( 'an entry that is not "<version>,<base64>" is told the form an entry takes', () => {
			const result = verifyInbound(
				'standard-webhooks',
				request( {}, { 'webhook-signature': 'sha256=abcdef' } )
			);
			expect( result ).toMatchObject( {
				code: 'malformed_signature',
				message: expect.stringContaining( 'such as "v1,<signature>"' ),
			} );
		} );

		test( 'a secret that is not base64 is unusable, and the message does not echo it', () => {
			const bad = 'whsec_not*base64';
			const result = verifyInbound( 'standard-webhooks', request( { secrets: [ bad ] } ) );
			expect( result ).toMatchObject( { ok: false, code: 'invalid_signature' } );
			expect( JSON.stringify( result ) ).not.toContain( 'not*base64' );
		} );
	} );

	schemeCases( {
		scheme: 'standard-webhooks',
		request,
		signatureHeader: 'webhook-signature',
		secret: SECRET,
		otherSecret: OLD_SECRET,
		respelled: [ JSON.stringify( JSON.parse( BODY ), null, 2 ) ],
		tampered: BODY.replace( '19.90', '0.01' ),
		malformed: [ '', 'v1', 'v1,', 'v1,not base64!', 'v1,c2hvcnQ=', 'sha256=abcdef' ],
	} );
} );

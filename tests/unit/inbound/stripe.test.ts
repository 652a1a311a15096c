import { createHash, randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { verifyInbound, type VerifyInput } from '../../../sidecar/src/inbound/verify';
import { NOW, requestBuilder, schemeCases } from './scheme-cases';

// Headers come from stripe-node's own test helper, not from our code.
const SECRET = `whsec_${ randomBytes( 24 ).toString( 'hex' ) }`;
const OLD_SECRET = `whsec_${ randomBytes( 24 ).toString( 'hex' ) }`;
// A well-formed v1 value that no secret made.
const SIG = 'a'.repeat( 64 );
const BODY = JSON.stringify( { id: 'evt_1NfQ2aLkdIwHu7ix', object: 'event', type: 'payment_intent.succeeded' } );

function header( secret: string, timestamp: number, payload: string = BODY ): string {
	return Stripe.webhooks.generateTestHeaderString( { payload, secret, timestamp } );
}

const signedRequest = requestBuilder( BODY, SECRET, () => ( { 'stripe-signature': header( SECRET, NOW ) } ) );

function request( overrides: Partial< VerifyInput > = {}, signature: string = header( SECRET, NOW ) ): VerifyInput {
	return signedRequest( overrides, { 'stripe-signature': signature } );
}

function v1Of( h: string ): string {
	return h
		.split( ',' )
		.find( ( item ) => item.startsWith( 'v1=' ) )!
		.slice( 3 );
}

describe( 'stripe', () => {
	test( 'accepts a header made by stripe-node; event id comes from the payload', () => {
		expect( verifyInbound( 'stripe', request() ) ).toEqual( {
			ok: true,
			eventId: 'evt_1NfQ2aLkdIwHu7ix',
			eventIdSource: 'payload',
			signedAt: NOW,
		} );
	} );

	test( 'stripe-node accepts the same request (format agreement)', () => {
		const h = header( SECRET, NOW );
		const event = Stripe.webhooks.constructEvent( BODY, h, SECRET, 300, undefined, NOW * 1000 );
		expect( event.id ).toBe( 'evt_1NfQ2aLkdIwHu7ix' );
		expect( verifyInbound( 'stripe', request( {}, h ) ).ok ).toBe( true );
	} );

	test( 'uses the whsec_ secret string as the key, as-is', () => {
		const decodedKey = Buffer.from( SECRET.slice( 'whsec_'.length ), 'hex' ).toString( 'latin1' );
		expect( verifyInbound( 'stripe', request( { secrets: [ decodedKey ] } ) ).ok ).toBe( false );
	} );

	test( 'falls back to a digest of `${t}.${body}` when the body has no string id', () => {
		for ( const body of [ 'not json', '{"object":"event"}', '{"id":42}', '["evt_1"]', 'null' ] ) {
			const expected = createHash( 'sha256' ).update( `${ NOW }.${ body }` ).digest( 'hex' );
			const result = verifyInbound(
				'stripe',
				request( { rawBody: Buffer.from( body ) }, header( SECRET, NOW, body ) )
			);
			expect( result ).toEqual( {
				ok: true,
				eventId: `sha256:${ expected }`,
				eventIdSource: 'digest',
				signedAt: NOW,
			} );
		}
	} );

	test( 'ignores v0 entries and unknown keys', () => {
		const h = `${ header( SECRET, NOW ) },v0=${ '0'.repeat( 64 ) },x=1`;
		expect( verifyInbound( 'stripe', request( {}, h ) ).ok ).toBe( true );
	} );

	describe( 'rotation', () => {
		test( 'a header with two v1 signatures passes when only one secret matches', () => {
			const both = `t=${ NOW },v1=${ v1Of( header( OLD_SECRET, NOW ) ) },v1=${ v1Of( header( SECRET, NOW ) ) }`;
			expect( verifyInbound( 'stripe', request( { secrets: [ SECRET ] }, both ) ).ok ).toBe( true );
			expect( verifyInbound( 'stripe', request( { secrets: [ OLD_SECRET ] }, both ) ).ok ).toBe( true );
		} );
	} );

	describe( 'timestamps', () => {
		test.each( [
			[ 'too old', NOW - 301 ],
			[ 'in the future', NOW + 301 ],
		] )( '%s (signed correctly) is stale_timestamp', ( _label, ts ) => {
			expect( verifyInbound( 'stripe', request( {}, header( SECRET, ts ) ) ) ).toMatchObject( {
				ok: false,
				code: 'stale_timestamp',
			} );
		} );

		test.each( [ NOW - 300, NOW + 300 ] )( 'the tolerance edge %d is accepted', ( ts ) => {
			expect( verifyInbound( 'stripe', request( {}, header( SECRET, ts ) ) ) ).toMatchObject( {
				ok: true,
				signedAt: ts,
			} );
		} );

		test( 'changing t without re-signing is invalid_signature', () => {
			const h = header( SECRET, NOW ).replace( `t=${ NOW }`, `t=${ NOW - 1 }` );
			expect( verifyInbound( 'stripe', request( {}, h ) ) ).toMatchObject( {
				ok: false,
				code: 'invalid_signature',
			} );
		} );
	} );

	describe( 'failures', () => {
		test( 'a header with only a timestamp is missing_signature', () => {
			expect( verifyInbound( 'stripe', request( {}, `t=${ NOW }` ) ) ).toMatchObject( {
				ok: false,
				code: 'missing_signature',
			} );
			expect( verifyInbound( 'stripe', request( {}, `t=${ NOW },v0=${ 'a'.repeat( 64 ) }` ) ) ).toMatchObject( {
				ok: false,
				code: 'missing_signature',
			} );
		} );
	} );

	schemeCases( {
		scheme: 'stripe',
		request,
		signatureHeader: 'stripe-signature',
		secret: SECRET,
		otherSecret: OLD_SECRET,
		respelled: [ JSON.stringify( JSON.parse( BODY ), null, 2 ) ],
		tampered: BODY.replace( 'succeeded', 'failed' ),
		malformed: [
			'',
			'garbage',
			`v1=${ SIG }`,
			`t=,v1=${ SIG }`,
			`t=soon,v1=${ SIG }`,
			`t=${ NOW }.5,v1=${ SIG }`,
			`t=${ NOW },v1=${ SIG.toUpperCase() }`,
			`t=${ NOW },v1=${ SIG.slice( 1 ) }`,
			`t=${ NOW },v1=`,
			`t=${ NOW }, v1=${ SIG }`,
			`t=${ NOW },,v1=${ SIG }`,
			`t=${ NOW },t=${ NOW },v1=${ SIG }`,
		],
	} );
} );

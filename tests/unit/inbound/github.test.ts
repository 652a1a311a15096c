import { createHash, createHmac, randomBytes } from 'node:crypto';
import { verifyInbound } from '../../../sidecar/src/inbound/verify';
import { octokitSign } from '../../support/octokit-sign';
import { requestBuilder, schemeCases } from './scheme-cases';

const SECRET = randomBytes( 20 ).toString( 'hex' );
const OLD_SECRET = randomBytes( 20 ).toString( 'hex' );
const BODY = '{"action":"opened","number":7,"repository":{"full_name":"acme/shop"}}';
const DELIVERY = '72d3162e-cc78-11e3-81ab-4c9367dc0958';

let SIG = '';
let OLD_SIG = '';
beforeAll( () => {
	[ SIG = '', OLD_SIG = '' ] = octokitSign( [
		[ SECRET, BODY ],
		[ OLD_SECRET, BODY ],
	] );
} );

const request = requestBuilder( BODY, SECRET, () => ( {
	'x-hub-signature-256': SIG,
	'x-github-delivery': DELIVERY,
	'x-github-event': 'pull_request',
} ) );

describe( 'github', () => {
	test( 'octokit signs exactly as documented (sha256=<hex HMAC of body>)', () => {
		expect( SIG ).toBe( `sha256=${ createHmac( 'sha256', SECRET ).update( BODY ).digest( 'hex' ) }` );
	} );

	const DIGEST_ID = `sha256:${ createHash( 'sha256' ).update( BODY ).digest( 'hex' ) }`;

	test( 'accepts an octokit signature; event id is the body digest, the delivery header kept for display', () => {
		expect( verifyInbound( 'github', request() ) ).toEqual( {
			ok: true,
			eventId: DIGEST_ID,
			eventIdSource: 'digest',
			deliveryId: DELIVERY,
		} );
	} );

	test( 'without a usable delivery header: the same event id, no delivery id', () => {
		for ( const delivery of [ undefined, '', 'has space', 'x'.repeat( 256 ) ] ) {
			expect( verifyInbound( 'github', request( {}, { 'x-github-delivery': delivery } ) ) ).toEqual( {
				ok: true,
				eventId: DIGEST_ID,
				eventIdSource: 'digest',
			} );
		}
	} );

	test( 'the delivery id is NOT signed: a replay with a new id verifies but keeps the event id, so it is a duplicate', () => {
		expect( verifyInbound( 'github', request( {}, { 'x-github-delivery': 'attacker-chosen' } ) ) ).toEqual( {
			ok: true,
			eventId: DIGEST_ID,
			eventIdSource: 'digest',
			deliveryId: 'attacker-chosen',
		} );
	} );

	schemeCases( {
		scheme: 'github',
		request,
		signatureHeader: 'x-hub-signature-256',
		secret: SECRET,
		otherSecret: OLD_SECRET,
		respelled: [ JSON.stringify( JSON.parse( BODY ), null, 2 ) ],
		tampered: BODY.replace( 'opened', 'closed' ),
		malformed: [
			'',
			'sha256=',
			'sha256=zz',
			'sha1=' + 'a'.repeat( 40 ),
			'a'.repeat( 64 ),
			'sha256=' + 'A'.repeat( 64 ),
			'sha256=' + 'a'.repeat( 63 ),
			'sha256=' + 'a'.repeat( 65 ),
			'SHA256=' + 'a'.repeat( 64 ),
		],
	} );

	test( 'rotation: the old secret, configured second, verifies what it signed', () => {
		expect(
			verifyInbound(
				'github',
				request( { secrets: [ SECRET, OLD_SECRET ] }, { 'x-hub-signature-256': OLD_SIG } )
			).ok
		).toBe( true );
	} );

	test( 'the legacy SHA-1 header alone is missing_signature', () => {
		const sha1 = `sha1=${ createHmac( 'sha1', SECRET ).update( BODY ).digest( 'hex' ) }`;
		expect(
			verifyInbound( 'github', request( {}, { 'x-hub-signature-256': undefined, 'x-hub-signature': sha1 } ) )
		).toMatchObject( { ok: false, code: 'missing_signature' } );
	} );
} );

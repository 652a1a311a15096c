import crypto from 'crypto';
import {
	signaturesMatch,
	signChannelRequest,
	signChannelResponse,
} from '../../../sidecar/src/channel/channel-signature';

describe( 'channel signature', () => {
	const key = 'shared-key-for-tests-0123456789';

	it( 'matches the PHP formula hash_hmac(sha256, "req.ts.id.METHOD.path." . body, key)', () => {
		const expected =
			'v1=' +
			crypto.createHmac( 'sha256', key ).update( 'req.1700000000.abc.POST./v1/events.{"a":1}' ).digest( 'hex' );
		expect( signChannelRequest( key, 1700000000, 'abc', 'post', '/v1/events', Buffer.from( '{"a":1}' ) ) ).toBe(
			expected
		);
	} );

	it( 'binds every part: changing any one changes the signature', () => {
		const base = signChannelRequest( key, 1, 'id', 'GET', '/p', Buffer.from( 'b' ) );
		expect( signChannelRequest( key, 2, 'id', 'GET', '/p', Buffer.from( 'b' ) ) ).not.toBe( base );
		expect( signChannelRequest( key, 1, 'id2', 'GET', '/p', Buffer.from( 'b' ) ) ).not.toBe( base );
		expect( signChannelRequest( key, 1, 'id', 'PUT', '/p', Buffer.from( 'b' ) ) ).not.toBe( base );
		expect( signChannelRequest( key, 1, 'id', 'GET', '/q', Buffer.from( 'b' ) ) ).not.toBe( base );
		expect( signChannelRequest( key, 1, 'id', 'GET', '/p', Buffer.from( 'c' ) ) ).not.toBe( base );
		expect( signChannelRequest( key + 'x', 1, 'id', 'GET', '/p', Buffer.from( 'b' ) ) ).not.toBe( base );
	} );

	it( 'signs responses differently from requests (no reflection)', () => {
		expect( signChannelResponse( key, 1, 'id', 200, Buffer.from( '' ) ) ).not.toBe(
			signChannelRequest( key, 1, 'id', '200', '', Buffer.from( '' ) )
		);
	} );

	it( 'compares without throwing on length mismatch', () => {
		expect( signaturesMatch( 'v1=abc', 'v1=abc' ) ).toBe( true );
		expect( signaturesMatch( 'v1=abc', 'v1=abd' ) ).toBe( false );
		expect( signaturesMatch( 'v1=abc', 'v1=ab' ) ).toBe( false );
		expect( signaturesMatch( 'v1=abc', '' ) ).toBe( false );
	} );
} );

import { constantTimeEqual } from '../../../sidecar/src/inbound/constant-time';

describe( 'constantTimeEqual', () => {
	test.each( [
		[ 'abc', 'abc', true ],
		[ '', '', true ],
		[ 'abc', 'abd', false ],
		[ 'abc', 'abcd', false ],
		[ '', 'a', false ],
		[ 'ü', 'u', false ],
		[ 'sha256=' + 'a'.repeat( 64 ), 'sha256=' + 'a'.repeat( 64 ), true ],
	] )( '%j vs %j -> %s', ( a, b, expected ) => {
		expect( constantTimeEqual( a, b ) ).toBe( expected );
		expect( constantTimeEqual( b, a ) ).toBe( expected );
	} );

	test( 'compares bytes and strings alike', () => {
		expect( constantTimeEqual( Buffer.from( 'héllo' ), 'héllo' ) ).toBe( true );
		expect( constantTimeEqual( new Uint8Array( [ 1, 2, 3 ] ), Buffer.from( [ 1, 2, 3 ] ) ) ).toBe( true );
		expect( constantTimeEqual( new Uint8Array( [ 1, 2, 3 ] ), new Uint8Array( [ 1, 2 ] ) ) ).toBe( false );
	} );

	test( 'never throws on length mismatch (timingSafeEqual alone would)', () => {
		expect( () => constantTimeEqual( 'a'.repeat( 10_000 ), 'b' ) ).not.toThrow();
		expect( constantTimeEqual( 'a'.repeat( 10_000 ), 'b' ) ).toBe( false );
	} );
} );

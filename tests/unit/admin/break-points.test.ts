import { breakSegments } from '../../../plugin/admin/src/components/break-points';

/** Where the admin page lets a code, id or URL wrap (a <wbr> between two segments). */
describe( 'breakSegments', () => {
	test( 'cuts after each run of / . _ - ? & =, and the pieces join back into the text', () => {
		const url = 'https://hooks.example.com/webhook/orders-paid?token=abc&x=1';
		const segments = breakSegments( url );
		expect( segments ).toEqual( [
			'https://',
			'hooks.',
			'example.',
			'com/',
			'webhook/',
			'orders-',
			'paid?',
			'token=',
			'abc&',
			'x=',
			'1',
		] );
		expect( segments.join( '' ) ).toBe( url );
	} );

	test( 'ids and codes', () => {
		expect( breakSegments( 'msg_2ZBd7X' ) ).toEqual( [ 'msg_', '2ZBd7X' ] );
		expect( breakSegments( 'evt-1.json' ) ).toEqual( [ 'evt-', '1.', 'json' ] );
		expect( breakSegments( 'invalid_signature' ) ).toEqual( [ 'invalid_', 'signature' ] );
	} );

	test( 'a text without separators, or ending with one, stays whole', () => {
		expect( breakSegments( 'abcdef' ) ).toEqual( [ 'abcdef' ] );
		expect( breakSegments( 'a/' ) ).toEqual( [ 'a/' ] );
		expect( breakSegments( '/' ) ).toEqual( [ '/' ] );
		expect( breakSegments( '' ) ).toEqual( [ '' ] );
	} );
} );

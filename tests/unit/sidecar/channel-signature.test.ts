import fs from 'fs';
import path from 'path';
import {
	signaturesMatch,
	signChannelRequest,
	signChannelResponse,
} from '../../../sidecar/src/channel/channel-signature';

interface Vector {
	kind: 'request' | 'response';
	key: string;
	timestamp: number;
	request_id: string;
	method?: string;
	path?: string;
	status?: number;
	body: string;
	signature: string;
}

/** Computed by neither implementation; tests/php/ChannelSignatureTest.php signs the same ones. */
const { vectors } = JSON.parse(
	fs.readFileSync( path.join( __dirname, '..', '..', 'fixtures', 'channel-signature-vectors.json' ), 'utf8' )
) as { vectors: Vector[] };

describe( 'channel signature', () => {
	const key = 'shared-key-for-tests-0123456789';

	it.each( vectors.map( ( vector, index ) => [ `${ vector.kind } ${ index }`, vector ] as const ) )(
		'signs the shared vector %s as the PHP side does',
		( _name, vector ) => {
			const body = Buffer.from( vector.body, 'utf8' );
			const signature =
				vector.kind === 'request'
					? signChannelRequest(
							vector.key,
							vector.timestamp,
							vector.request_id,
							vector.method!,
							vector.path!,
							body
						)
					: signChannelResponse( vector.key, vector.timestamp, vector.request_id, vector.status!, body );
			expect( signature ).toBe( vector.signature );
		}
	);

	it( 'upper-cases the method, as the PHP side receives it', () => {
		const vector = vectors[ 0 ]!;
		expect(
			signChannelRequest(
				vector.key,
				vector.timestamp,
				vector.request_id,
				vector.method!.toLowerCase(),
				vector.path!,
				Buffer.from( vector.body )
			)
		).toBe( vector.signature );
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

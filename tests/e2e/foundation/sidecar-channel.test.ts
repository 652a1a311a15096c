import crypto from 'crypto';
import { CHANNEL_HEADERS, signChannelResponse } from '../../../sidecar/src/channel/channel-signature';
import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import { signedHeaders } from '../support/channel';
import { adminClient, anonymousClient } from '../support/clients';
import { readState } from '../support/environment';
import { startSidecar, stopSidecar } from '../support/sidecar-control';

describe( 'the PHP <-> sidecar channel', () => {
	const state = readState();

	it( 'carries a signed round trip from WordPress to the sidecar and back', async () => {
		const status = await adminClient().get< { reachable: boolean; version: string } >(
			'/service-integration/v1/sidecar/status'
		);
		expect( status.status ).toBe( 200 );
		expect( status.body ).toMatchObject( { reachable: true, version: expect.any( String ) } );
	} );

	it( 'is for administrators only', async () => {
		const anonymous = await anonymousClient().get< { code: string } >( '/service-integration/v1/sidecar/status' );
		expect( anonymous.status ).toBe( 401 );
		expect( anonymous.body.code ).toBe( 'rest_forbidden' );
	} );

	it( 'sidecar: accepts a correctly signed call and signs its answer, bound to the request id', async () => {
		const headers = signedHeaders( state.sharedKey, 'GET', '/v1/status', '' );
		const response = await fetch( `${ state.sidecarUrl }/v1/status`, { headers } );
		const body = Buffer.from( await response.arrayBuffer() );
		expect( response.status ).toBe( 200 );
		expect( response.headers.get( CHANNEL_HEADERS.requestId ) ).toBe( headers[ CHANNEL_HEADERS.requestId ] );
		const timestamp = Number( response.headers.get( CHANNEL_HEADERS.timestamp ) );
		expect( response.headers.get( CHANNEL_HEADERS.signature ) ).toBe(
			signChannelResponse( state.sharedKey, timestamp, headers[ CHANNEL_HEADERS.requestId ] as string, 200, body )
		);
	} );

	it.each( [
		[ 'no signature', () => ( {} ), 'channel_signature_missing' ],
		[
			'a wrong key',
			() => signedHeaders( 'not-the-shared-key-at-all', 'GET', '/v1/status', '' ),
			'channel_signature_invalid',
		],
		[
			'a signature for another path',
			() => signedHeaders( state.sharedKey, 'GET', '/v1/other', '' ),
			'channel_signature_invalid',
		],
		[
			'an expired timestamp',
			() => signedHeaders( state.sharedKey, 'GET', '/v1/status', '', Math.floor( Date.now() / 1000 ) - 3600 ),
			'channel_signature_expired',
		],
	] )( 'sidecar: refuses a call with %s (401)', async ( _label, makeHeaders, code ) => {
		const response = await fetch( `${ state.sidecarUrl }/v1/status`, { headers: makeHeaders() } );
		expect( response.status ).toBe( 401 );
		expect( ( ( await response.json() ) as { code: string } ).code ).toBe( code );
	} );

	describe( 'WordPress callback route (sidecar -> WordPress)', () => {
		const route = '/service-integration/v1/sidecar/callback';
		const url = `${ state.siteUrl }/wp-json${ route }`;
		const body = JSON.stringify( { type: 'ping' } );

		it( 'accepts a call signed with the shared key', async () => {
			const response = await fetch( url, {
				method: 'POST',
				headers: {
					cookie: PLAYGROUND_COOKIE,
					'content-type': 'application/json',
					...signedHeaders( state.sharedKey, 'POST', route, body ),
				},
				body,
			} );
			expect( response.status ).toBe( 202 );
		} );

		it.each( [
			[ 'unsigned', {}, 'sidecar_signature_missing' ],
			[
				'signed with another key',
				signedHeaders( crypto.randomBytes( 32 ).toString( 'hex' ), 'POST', route, body ),
				'sidecar_signature_invalid',
			],
			[
				'signed over another body',
				signedHeaders( state.sharedKey, 'POST', route, '{"type":"other"}' ),
				'sidecar_signature_invalid',
			],
		] )( 'refuses a call %s (401)', async ( _label, headers, code ) => {
			const response = await fetch( url, {
				method: 'POST',
				headers: { cookie: PLAYGROUND_COOKIE, 'content-type': 'application/json', ...headers },
				body,
			} );
			expect( response.status ).toBe( 401 );
			expect( ( ( await response.json() ) as { code: string } ).code ).toBe( code );
		} );
	} );

	it( 'reports a stopped sidecar as 503 sidecar_unreachable, and recovers when it is back', async () => {
		await stopSidecar();
		try {
			const down = await adminClient().get< { code: string } >( '/service-integration/v1/sidecar/status' );
			expect( down.status ).toBe( 503 );
			expect( down.body.code ).toBe( 'sidecar_unreachable' );
		} finally {
			await startSidecar();
		}
		const up = await adminClient().get< { reachable: boolean } >( '/service-integration/v1/sidecar/status' );
		expect( up.status ).toBe( 200 );
	} );
} );

import http from 'http';
import type { AddressInfo } from 'net';
import { createDeliveryClient, type AttemptRequest } from '../../../sidecar/src/outbound/delivery-client';
import { sleep } from '../../support/wait-until';

/** The delivery client's transport against real local servers: what each kind of answer becomes. */
describe( 'delivery client', () => {
	let server: http.Server;
	let base: string;
	let handler: http.RequestListener = ( _req, res ) => void res.end( 'ok' );

	beforeAll( async () => {
		server = http.createServer( ( req, res ) => handler( req, res ) );
		await new Promise< void >( ( resolve ) => server.listen( 0, '127.0.0.1', resolve ) );
		base = `http://127.0.0.1:${ ( server.address() as AddressInfo ).port }`;
	} );

	afterAll( async () => {
		server.closeAllConnections();
		await new Promise( ( resolve ) => server.close( resolve ) );
	} );

	const attempt = ( path = '/hook' ): AttemptRequest => ( {
		url: `${ base }${ path }`,
		endpointId: 'ep_1',
		eventId: 'evt_1',
		eventType: 'order.paid',
		payload: '{"type":"order.paid","timestamp":"2026-11-22T00:00:00Z","data":{"é":1}}',
		secrets: [ `whsec_${ Buffer.from( 'k'.repeat( 32 ) ).toString( 'base64' ) }` ],
		wcCompatSignature: false,
	} );

	const loopback = () => createDeliveryClient( { allowCidrs: [ '127.0.0.0/8' ], timeoutMs: 500 } );

	it( 'sends the exact bytes with a content length and returns status, Retry-After and an excerpt', async () => {
		let received = '';
		let length = '';
		handler = ( req, res ) => {
			length = req.headers[ 'content-length' ] ?? '';
			req.setEncoding( 'utf8' );
			req.on( 'data', ( chunk: string ) => ( received += chunk ) );
			req.on( 'end', () => void res.writeHead( 503, { 'retry-after': '7' } ).end( 'x'.repeat( 3000 ) ) );
		};
		const client = loopback();
		const result = await client.send( attempt() );
		client.close();
		expect( received ).toBe( attempt().payload );
		expect( Number( length ) ).toBe( Buffer.byteLength( attempt().payload ) );
		expect( result.outcome ).toEqual( { kind: 'response', status: 503, retryAfterHeader: '7' } );
		expect( result.responseExcerpt ).toHaveLength( 1024 );
	} );

	it( 'returns a redirect as it is, without following it', async () => {
		let followed = false;
		handler = ( req, res ) => {
			if ( req.url === '/elsewhere' ) {
				followed = true;
			}
			req.resume();
			req.on( 'end', () => void res.writeHead( 302, { location: '/elsewhere' } ).end() );
		};
		const client = loopback();
		const result = await client.send( attempt() );
		client.close();
		expect( result.statusCode ).toBe( 302 );
		expect( followed ).toBe( false );
	} );

	it( 'fails an answer larger than 1 MB with ERESPONSETOOLARGE', async () => {
		handler = ( req, res ) => {
			req.resume();
			req.on( 'end', () => {
				res.writeHead( 200 );
				res.end( Buffer.alloc( 2 * 1024 * 1024, 'a' ) );
			} );
		};
		const client = loopback();
		const result = await client.send( attempt() );
		client.close();
		expect( result.errorCode ).toBe( 'ERESPONSETOOLARGE' );
		expect( result.outcome.kind ).toBe( 'network-error' );
	} );

	it( 'bounds the whole exchange: a receiver that trickles its answer times out', async () => {
		handler = ( req, res ) => {
			req.resume();
			res.writeHead( 200 );
			const tick = setInterval( () => res.write( '.' ), 50 );
			res.on( 'close', () => clearInterval( tick ) );
		};
		const client = loopback();
		const result = await client.send( attempt() );
		client.close();
		expect( result.errorCode ).toBe( 'ETIMEDOUT' );
	} );

	it( 'cancels attempts in flight on close()', async () => {
		handler = ( req ) => void req.resume();
		const client = createDeliveryClient( { allowCidrs: [ '127.0.0.0/8' ], timeoutMs: 10_000 } );
		const pending = client.send( attempt() );
		await sleep( 50 );
		client.close();
		expect( ( await pending ).errorCode ).toBe( 'ERR_CANCELED' );
	} );

	it( 'refuses loopback without an allow-list, at connect time (EBLOCKED)', async () => {
		const client = createDeliveryClient( { allowCidrs: [], timeoutMs: 500 } );
		const result = await client.send( attempt() );
		client.close();
		expect( result.errorCode ).toBe( 'EBLOCKED' );
	} );

	it( 'reports an unreachable receiver as a network error', async () => {
		const closed = http.createServer();
		await new Promise< void >( ( resolve ) => closed.listen( 0, '127.0.0.1', resolve ) );
		const port = ( closed.address() as AddressInfo ).port;
		await new Promise( ( resolve ) => closed.close( resolve ) );
		const client = loopback();
		const result = await client.send( { ...attempt(), url: `http://127.0.0.1:${ port }/` } );
		client.close();
		expect( result.errorCode ).toBe( 'ECONNREFUSED' );
	} );
} );

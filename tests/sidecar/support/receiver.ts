import http from 'http';
import type { AddressInfo } from 'net';
import { waitUntil } from '../../support/wait-until';

export interface ReceivedRequest {
	method: string;
	path: string;
	headers: Record< string, string >;
	body: string;
	/** Date.now() when the request arrived. */
	at: number;
}

export type ReceiverHandler = ( request: ReceivedRequest, res: http.ServerResponse ) => void | Promise< void >;

export interface Receiver {
	url: string;
	requests: ReceivedRequest[];
	/** Requests being handled right now (for concurrency checks). */
	active: () => number;
	maxActive: () => number;
	setHandler: ( handler: ReceiverHandler ) => void;
	waitFor: ( predicate: ( requests: ReceivedRequest[] ) => boolean, timeoutMs?: number ) => Promise< void >;
	close: () => Promise< void >;
}

/** A real HTTP server on 127.0.0.1 (random port) that records what it gets; 200 unless told otherwise. */
export async function startReceiver( handler?: ReceiverHandler ): Promise< Receiver > {
	let current: ReceiverHandler = handler ?? ( ( _request, res ) => void res.writeHead( 200 ).end( 'ok' ) );
	const requests: ReceivedRequest[] = [];
	let active = 0;
	let maxActive = 0;
	const server = http.createServer( ( req, res ) => {
		const chunks: Buffer[] = [];
		req.on( 'data', ( chunk: Buffer ) => chunks.push( chunk ) );
		req.on( 'end', () => {
			const headers: Record< string, string > = {};
			for ( const [ name, value ] of Object.entries( req.headers ) ) {
				headers[ name ] = Array.isArray( value ) ? value.join( ', ' ) : String( value );
			}
			const request: ReceivedRequest = {
				method: req.method ?? '',
				path: req.url ?? '',
				headers,
				body: Buffer.concat( chunks ).toString( 'utf8' ),
				at: Date.now(),
			};
			requests.push( request );
			active++;
			maxActive = Math.max( maxActive, active );
			res.on( 'close', () => active-- );
			Promise.resolve( current( request, res ) ).catch( () => res.destroy() );
		} );
	} );
	await new Promise< void >( ( resolve ) => server.listen( 0, '127.0.0.1', resolve ) );
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${ port }`,
		requests,
		active: () => active,
		maxActive: () => maxActive,
		setHandler: ( next ) => {
			current = next;
		},
		waitFor: ( predicate, timeoutMs = 10_000 ) =>
			waitUntil(
				() => predicate( requests ),
				timeoutMs,
				() => `receiver: condition (${ requests.length } requests received)`
			),
		close: async () => {
			server.closeAllConnections();
			await new Promise< void >( ( resolve ) => server.close( () => resolve() ) );
		},
	};
}

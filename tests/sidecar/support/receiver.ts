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
	/** Requests ReceiverOptions.apart picked: answered 202, kept out of `requests` and the handler's way. */
	apart: ReceivedRequest[];
	/** Requests being handled right now (for concurrency checks). */
	active: () => number;
	maxActive: () => number;
	setHandler: ( handler: ReceiverHandler ) => void;
	waitFor: ( predicate: ( requests: ReceivedRequest[] ) => boolean, timeoutMs?: number ) => Promise< void >;
	close: () => Promise< void >;
}

export interface ReceiverOptions {
	/** Picks requests to answer 202 at once and keep in `apart` (see startWordPress()). */
	apart?: ( request: ReceivedRequest ) => boolean;
}

/** A real HTTP server on 127.0.0.1 (random port) that records what it gets; 200 unless told otherwise. */
export async function startReceiver( handler?: ReceiverHandler, options: ReceiverOptions = {} ): Promise< Receiver > {
	let current: ReceiverHandler = handler ?? ( ( _request, res ) => void res.writeHead( 200 ).end( 'ok' ) );
	const requests: ReceivedRequest[] = [];
	const apart: ReceivedRequest[] = [];
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
			if ( options.apart?.( request ) ) {
				apart.push( request );
				res.writeHead( 202 ).end();
				return;
			}
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
		apart,
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

/**
 * A stand-in for WordPress's callback route: `requests` holds the notices the sidecar's queue
 * sends, and `apart` the hand-over request every sidecar sends as it starts (`sidecar.ready`,
 * answered 202), so a test of the notices counts only them.
 */
export function startWordPress( handler?: ReceiverHandler ): Promise< Receiver > {
	return startReceiver( handler, { apart: isHandOverRequest } );
}

/** The `sidecar.ready` notice (outbound/hand-over-request.ts). */
export function isHandOverRequest( request: ReceivedRequest ): boolean {
	try {
		return ( JSON.parse( request.body ) as { type?: unknown } ).type === 'sidecar.ready';
	} catch {
		return false;
	}
}

import http from 'http';
import https from 'https';

/**
 * One POST with node:http, nothing more: no redirects followed (a 3xx is returned as
 * is), no proxy, no body transformation, the response read as text up to a bound.
 * node:http rather than axios on this hot path: axios costs about as much CPU per
 * request as the rest of a delivery (see bench/README.md, "Outbound delivery").
 */
export interface PostOptions {
	headers: Record< string, string >;
	/** Connections go through these (the URL guard lives in their lookup and connect). */
	agents: { httpAgent: http.Agent; httpsAgent: https.Agent };
	/** Cuts the attempt short (the caller's deadline, or close()). */
	signal?: AbortSignal;
	/**
	 * The same without an AbortSignal: postOnce sets `cancel`, which fails the request with the
	 * error given. An AbortController and its listeners per request cost about 3 % of a
	 * delivery's CPU on the dispatcher's hot path (bench/README.md, "Outbound delivery").
	 */
	canceller?: Canceller;
	maxResponseBytes: number;
}

/** Filled in by postOnce while its request runs; calling cancel() after the end does nothing. */
export interface Canceller {
	cancel?: ( error: Error ) => void;
}

export interface PostResponse {
	status: number;
	headers: http.IncomingHttpHeaders;
	text: string;
}

export class ResponseTooLargeError extends Error {
	readonly code = 'ERESPONSETOOLARGE';
}

export function postOnce( url: string, body: Buffer, options: PostOptions ): Promise< PostResponse > {
	return new Promise( ( resolve, reject ) => {
		let target: URL;
		try {
			target = new URL( url );
		} catch {
			reject( Object.assign( new Error( `invalid URL: ${ url }` ), { code: 'ERR_INVALID_URL' } ) );
			return;
		}
		const secure = target.protocol === 'https:';
		if ( ! secure && target.protocol !== 'http:' ) {
			reject(
				Object.assign( new Error( `unsupported protocol ${ target.protocol }` ), { code: 'ERR_BAD_PROTOCOL' } )
			);
			return;
		}
		const send = secure ? https.request : http.request;
		const request = send( target, {
			method: 'POST',
			agent: secure ? options.agents.httpsAgent : options.agents.httpAgent,
			headers: { ...options.headers, 'content-length': String( body.length ) },
			...( options.signal ? { signal: options.signal } : {} ),
		} );
		// The first failure wins (a destroyed request also fails its response).
		const fail = ( error: Error ): void => {
			reject(
				error.name === 'AbortError'
					? Object.assign( new Error( 'the attempt was aborted' ), { code: 'ERR_CANCELED' } )
					: error
			);
		};
		request.on( 'error', fail );
		if ( options.canceller ) {
			options.canceller.cancel = ( error ) => request.destroy( error );
		}
		request.on( 'response', ( response ) => {
			const chunks: Buffer[] = [];
			let size = 0;
			response.on( 'data', ( chunk: Buffer ) => {
				size += chunk.length;
				if ( size > options.maxResponseBytes ) {
					fail( new ResponseTooLargeError( `the response exceeds ${ options.maxResponseBytes } bytes` ) );
					request.destroy();
					return;
				}
				chunks.push( chunk );
			} );
			response.on( 'end', () =>
				resolve( {
					status: response.statusCode ?? 0,
					headers: response.headers,
					text: Buffer.concat( chunks ).toString( 'utf8' ),
				} )
			);
			response.on( 'error', fail );
		} );
		request.end( body );
	} );
}

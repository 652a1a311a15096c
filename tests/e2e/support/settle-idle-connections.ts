/**
 * Runs before each e2e file's own hooks (jest's setupFilesAfterEnv).
 *
 * The files of a run share one pool of keep-alive connections (Node's fetch, in jest's
 * process). Loading the next file (ts-jest compiles it synchronously) can block the event
 * loop for about as long as the server keeps an idle connection open (Playground: 5 s): the
 * server closes it meanwhile, but fetch only learns so once the event loop turns, so the
 * file's first request could go out on the closed connection and fail with "fetch failed:
 * other side closed".
 * - One turn of the event loop before the file lets fetch see a close that already arrived.
 * - A close that arrives while the request is being sent (the server's idle timer ran out at
 *   that moment; on a loaded machine the two timers drift) still fails it. Such a request never
 *   reached the server's handler (a server closes only connections with no request in progress),
 *   so fetch is asked once more, on a new connection, for that error only, and only when the
 *   request's body can be sent again.
 */
const STALE_CONNECTION = 'UND_ERR_SOCKET';

function isStaleConnection( error: unknown ): boolean {
	const cause = ( error as { cause?: { code?: string; message?: string } } )?.cause;
	return error instanceof TypeError && cause?.code === STALE_CONNECTION && cause.message === 'other side closed';
}

function replayable( init?: RequestInit ): boolean {
	const body = init?.body;
	return body === undefined || body === null || typeof body === 'string' || body instanceof URLSearchParams;
}

const fetchOnce = globalThis.fetch;
globalThis.fetch = async ( input: string | URL | Request, init?: RequestInit ): Promise< Response > => {
	try {
		return await fetchOnce( input, init );
	} catch ( error ) {
		if ( ! isStaleConnection( error ) || input instanceof Request || ! replayable( init ) ) {
			throw error;
		}
		return fetchOnce( input, init );
	}
};

beforeAll( () => new Promise< void >( ( resolve ) => setTimeout( resolve, 0 ) ) );

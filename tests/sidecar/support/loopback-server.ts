import type { RequestListener, Server } from 'http';
import type { AddressInfo } from 'net';
import { applyServerTimeouts } from '../../../sidecar/src/http/server-timeouts';

export interface LoopbackServer {
	url: string;
	/** Drops the connections still open (keep-alive) and waits until the server has closed. */
	close: () => Promise< void >;
}

/**
 * Serves a sidecar app in this process on a random 127.0.0.1 port, as each in-process test
 * instance does; `serverTimeouts` gives it the production server's timeouts (applyServerTimeouts).
 */
export async function serveOnLoopback(
	app: { listen: ( port: number, host: string, callback: () => void ) => Server } & RequestListener,
	options: { serverTimeouts?: boolean } = {}
): Promise< LoopbackServer > {
	const server: Server = await new Promise( ( resolve ) => {
		const s = app.listen( 0, '127.0.0.1', () => resolve( s ) );
		if ( options.serverTimeouts ) {
			applyServerTimeouts( s );
		}
	} );
	return {
		url: `http://127.0.0.1:${ ( server.address() as AddressInfo ).port }`,
		close: async () => {
			server.closeAllConnections();
			await new Promise< void >( ( resolve ) => server.close( () => resolve() ) );
		},
	};
}

import type { Server } from 'http';

/**
 * Keep-alive longer than any client's idle pool. Node closes an idle connection after 5 s by
 * default, while a client such as Node's fetch keeps one for about 4 s: on a busy machine its
 * timer fires late, it reuses a connection the server has just closed, and the request fails
 * with ECONNRESET. 65 s outlasts the pools of fetch, axios and curl; headersTimeout must stay
 * above it (Node's rule).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function applyServerTimeouts( server: Server ): Server {
	server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
	server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
	return server;
}

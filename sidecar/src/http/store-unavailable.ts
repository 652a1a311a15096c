/** Seconds WordPress (or an inbound sender) is asked to wait when the shared store does not answer. */
export const STORE_RETRY_AFTER_SECONDS = 5;

// mysql2's codes for a server that is away, refused, too busy or timed out: retry later, nothing is lost.
const UNAVAILABLE_CODES = new Set( [
	'ECONNREFUSED',
	'ECONNRESET',
	'ETIMEDOUT',
	'EHOSTUNREACH',
	'ENOTFOUND',
	'EPIPE',
	'PROTOCOL_CONNECTION_LOST',
	'PROTOCOL_SEQUENCE_TIMEOUT',
	'ER_CON_COUNT_ERROR',
	'ER_SERVER_SHUTDOWN',
	'ER_LOCK_WAIT_TIMEOUT',
	'POOL_CLOSED',
] );

/** Whether an error says the shared store cannot answer now (as opposed to a bug or bad input). */
export function isStoreUnavailable( error: unknown ): boolean {
	if ( typeof error !== 'object' || error === null ) {
		return false;
	}
	const { code, fatal } = error as { code?: unknown; fatal?: unknown };
	return fatal === true || ( typeof code === 'string' && UNAVAILABLE_CODES.has( code ) );
}

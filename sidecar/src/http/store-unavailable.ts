/** Seconds WordPress (or an inbound sender) is asked to wait when the shared store does not answer. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** Seconds to wait when the shared store answered that it is busy: the statement gave up, the server is there. */
export const STORE_BUSY_RETRY_AFTER_SECONDS = 2;

// mysql2's codes for a server that is away, refused the connection or lost it, or gave no answer
// at all, not even its own statement limit's error, within the client's deadline (mysql-deadline.ts).
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
	'POOL_CLOSED',
] );

/**
 * The server's answers that a statement gave up, on a server that is up: a row-lock wait past
 * innodb_lock_wait_timeout (1205), the statement limit (MariaDB's max_statement_time, 1969;
 * MySQL's max_execution_time, 3024), a statement interrupted (1317). By errno: mysql2 has no
 * name for MariaDB's 1969.
 */
const BUSY_ERRNOS = new Set( [ 1205, 1969, 3024, 1317 ] );

/**
 * What an error says of the shared store: `unavailable` when the database cannot be reached
 * (refused, lost, no answer), `busy` when it answered that a statement timed out or waited too
 * long for a lock, null when it is neither (a bug or bad input).
 */
export function storeTrouble( error: unknown ): 'unavailable' | 'busy' | null {
	if ( typeof error !== 'object' || error === null ) {
		return null;
	}
	const { code, errno, fatal } = error as { code?: unknown; errno?: unknown; fatal?: unknown };
	if ( typeof errno === 'number' && BUSY_ERRNOS.has( errno ) ) {
		return 'busy';
	}
	return fatal === true || ( typeof code === 'string' && UNAVAILABLE_CODES.has( code ) ) ? 'unavailable' : null;
}

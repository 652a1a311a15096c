import type { Pool, PoolConnection } from 'mysql2/promise';

/**
 * How long one statement may take on the shared store. A database that does not answer (a
 * frozen server: SIGSTOP, a VM paused, a network that drops packets without a reset) would
 * otherwise hold a request until TCP gives up, minutes later; past this, the statement fails
 * with PROTOCOL_SEQUENCE_TIMEOUT, which the API answers as 503 with Retry-After
 * (http/store-unavailable.ts). The first statement that hangs fails the request, so a request
 * is answered within about this (under 2 s), whatever it was doing.
 */
export const STATEMENT_DEADLINE_MS = 1500;

/**
 * The same deadline on the server, a little shorter so that its answer (ER_STATEMENT_TIMEOUT,
 * a clean error on a connection that stays usable) comes before the client gives up. Without
 * it, a statement the client abandoned kept running on the server with its row locks held (a
 * health sweep's UPDATE of a long queue, a lock wait of up to innodb_lock_wait_timeout, 50 s),
 * and the next statement on those rows waited behind it and was abandoned in turn.
 */
export const SERVER_STATEMENT_LIMIT_MS = STATEMENT_DEADLINE_MS - 200;

/**
 * The session statement that has the server stop every statement past `ms`, lock waits
 * included: MariaDB's max_statement_time (seconds, any statement), MySQL's max_execution_time
 * (milliseconds, SELECTs only: MySQL has no limit for writes, whose lock waits
 * innodb_lock_wait_timeout bounds). `0` lifts it (migrations).
 */
export function statementLimitSql( engine: 'mariadb' | 'mysql', ms: number ): string {
	return engine === 'mariadb'
		? `SET SESSION max_statement_time = ${ ms / 1000 }`
		: `SET SESSION max_execution_time = ${ Math.round( ms ) }`;
}

/** Which engine a VERSION() string names. */
export function engineOf( version: string ): 'mariadb' | 'mysql' {
	return /mariadb/i.test( version ) ? 'mariadb' : 'mysql';
}

/** The error of a statement past its deadline: what mysql2 raises for its own query timeout. */
function deadlineError( what: string, ms: number ): Error {
	return Object.assign( new Error( `${ what }: no answer from the database within ${ ms } ms` ), {
		code: 'PROTOCOL_SEQUENCE_TIMEOUT',
	} );
}

/** Runs work, or rejects at the deadline and calls onLate (the connection is then unusable). */
function beforeDeadline< T >( work: Promise< T >, ms: number, what: string, onLate: () => void ): Promise< T > {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise< never >( ( _resolve, reject ) => {
		timer = setTimeout( () => {
			onLate();
			reject( deadlineError( what, ms ) );
		}, ms );
	} );
	return Promise.race( [ work, late ] ).finally( () => clearTimeout( timer ) );
}

const CONNECTION_CALLS = new Set( [ 'query', 'execute', 'beginTransaction', 'commit', 'rollback' ] );

/**
 * A connection whose every call has a deadline. One past it is destroyed, not released: its
 * protocol state is unknown (the answer may still come), and a ROLLBACK queued behind a frozen
 * statement would wait as long; the pool opens a new one.
 */
function connectionWithDeadlines( connection: PoolConnection, ms: number ): PoolConnection {
	let destroyed = false;
	return new Proxy( connection, {
		get( target, property, receiver ) {
			const value = Reflect.get( target, property, receiver ) as unknown;
			if ( typeof property !== 'string' || typeof value !== 'function' ) {
				return value;
			}
			if ( property === 'release' ) {
				return () => ( destroyed ? undefined : target.release() );
			}
			if ( ! CONNECTION_CALLS.has( property ) ) {
				return value.bind( target );
			}
			return ( ...args: unknown[] ) => {
				if ( destroyed ) {
					return Promise.reject( deadlineError( property, ms ) );
				}
				return beforeDeadline(
					( value as ( ...a: unknown[] ) => Promise< unknown > ).apply( target, args ),
					ms,
					property,
					() => {
						destroyed = true;
						target.destroy();
					}
				);
			};
		},
	} );
}

/**
 * The pool with a deadline on every statement, on its own connections and on those it hands
 * out. Connecting to a frozen server completes in the kernel, then waits for a greeting that
 * never comes: the pool's connectTimeout (the same deadline) bounds that. Migrations use the
 * pool without it: an ALTER TABLE on a large table, or waiting for another instance's
 * migration lock, takes longer.
 */
export function withDeadlines( pool: Pool, ms = STATEMENT_DEADLINE_MS ): Pool {
	return new Proxy( pool, {
		get( target, property, receiver ) {
			const value = Reflect.get( target, property, receiver ) as unknown;
			if ( property === 'getConnection' ) {
				// No deadline on the wait for a free connection: under load that is a queue, not a dead
				// server; each holder's statements have theirs, and connectTimeout bounds a new connection.
				return async () => connectionWithDeadlines( await target.getConnection(), ms );
			}
			if ( property === 'query' || property === 'execute' ) {
				return async ( ...args: unknown[] ) => {
					// Through a connection of its own, so that one past its deadline can be destroyed.
					const connection = await receiver.getConnection();
					try {
						return await ( connection[ property ] as ( ...a: unknown[] ) => Promise< unknown > )( ...args );
					} finally {
						connection.release();
					}
				};
			}
			return typeof value === 'function' ? value.bind( target ) : value;
		},
	} );
}

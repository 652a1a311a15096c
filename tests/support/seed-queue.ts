/**
 * A large queue written straight into a store's tables, in a few multi-row INSERT … SELECT
 * statements (50,000 rows in about a second, a million in under a minute), for the tests and
 * the bench of big queues: `count` events of type order.paid, each with one pending delivery to
 * `endpointId`, due at `dueAt`. Ids are `${ prefix }${ n }`, n from 1.
 */
export interface SeedQueue {
	kind: 'sqlite' | 'mysql';
	/** Runs one statement on the store's database. */
	sql: ( query: string, params: unknown[] ) => Promise< unknown >;
	endpointId: string;
	count: number;
	prefix: string;
	now: number;
	dueAt: number;
}

const PAYLOAD = '{"type":"order.paid","timestamp":"2026-11-24T10:00:00Z","data":{}}';
/** Rows per statement: a MariaDB statement of a few seconds at most (migrations and seeds have no deadline). */
const CHUNK = 100_000;

export async function seedQueue( seed: SeedQueue ): Promise< void > {
	for ( let from = 1; from <= seed.count; from += CHUNK ) {
		const to = Math.min( seed.count, from + CHUNK - 1 );
		await seed.sql(
			withNumbers(
				seed.kind,
				from,
				to,
				'INSERT INTO events (id, type, timestamp, ordering_key, payload, received_at)',
				`SELECT ${ concat( seed.kind ) }, 'order.paid', '2026-11-24T10:00:00Z', NULL, ?, ?`
			),
			[ seed.prefix, PAYLOAD, seed.now ]
		);
		await seed.sql(
			withNumbers(
				seed.kind,
				from,
				to,
				'INSERT INTO deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, created_at, updated_at)',
				`SELECT ${ concat( seed.kind ) }, ?, NULL, 'pending', ?, ?, ?`
			),
			[ seed.prefix, seed.endpointId, seed.dueAt, seed.now, seed.now ]
		);
	}
}

/** `prefix || n` in the engine's spelling (MariaDB reads || as OR). */
function concat( kind: SeedQueue[ 'kind' ] ): string {
	return kind === 'mysql' ? 'CONCAT(?, n)' : '? || n';
}

/**
 * `insert select FROM numbers` with n from `from` to `to`: MariaDB's sequence engine
 * (seq_1_to_N), SQLite's recursive CTE.
 */
function withNumbers( kind: SeedQueue[ 'kind' ], from: number, to: number, insert: string, select: string ): string {
	if ( kind === 'mysql' ) {
		return `${ insert } ${ select } FROM (SELECT seq AS n FROM seq_${ from }_to_${ to }) numbers`;
	}
	return `WITH RECURSIVE numbers (n) AS (SELECT ${ from } UNION ALL SELECT n + 1 FROM numbers WHERE n < ${ to })
		${ insert } ${ select } FROM numbers`;
}

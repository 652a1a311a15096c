import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { InboundOutcome, InboundScheme, SecretOrigin, SourceStatus } from '../../contracts/constants';
import {
	answeredOutcome,
	DEFAULT_LOG_KEEP,
	LOG_PRUNE_EVERY,
	type InboundAnswer,
	type InboundLogEntry,
	type InboundLogQuery,
	InboundSource,
	NewSource,
	SourcePatch,
} from '../../model/inbound';
import type { InboundStore, NewInboundLogEntry } from '../inbound-store';
import { inTransaction } from './mysql-transaction';

type Row = RowDataPacket & Record< string, unknown >;
type Queryable = Pick< Pool, 'query' > | Pick< PoolConnection, 'query' >;

/** Unexpired secrets, newest first: what a verification tries, and what the view masks. */
const LIVE_SECRETS = `(expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC, id DESC`;

/**
 * The shared store's inbound side (see InboundStore) on the tables inbound_sources,
 * inbound_source_secrets and inbound_log, with the embedded store's semantics. Nothing is
 * cached: every verification reads the source and its secrets as committed, so a change made
 * through another instance applies to the very next request. Changes to one source lock its
 * row first, so two instances rotating (or patching) it at once run one after the other.
 */
export class MysqlInboundStore implements InboundStore {
	private writes = 0;

	constructor(
		private readonly pool: Pool,
		/** Log rows kept; each instance prunes every LOG_PRUNE_EVERY of its own writes. */
		private readonly keep = DEFAULT_LOG_KEEP
	) {}

	async getSource( id: string, now: number ): Promise< InboundSource | undefined > {
		return readSource( this.pool, id, now );
	}

	async listSources( now: number ): Promise< InboundSource[] > {
		// Sources first: a source listed was committed with its first secret, so the second read has it.
		const [ rows ] = await this.pool.query< Row[] >( 'SELECT * FROM inbound_sources ORDER BY id' );
		const [ secrets ] = await this.pool.query< Row[] >(
			`SELECT * FROM inbound_source_secrets WHERE ${ LIVE_SECRETS }`,
			[ now ]
		);
		const bySource = new Map< string, Row[] >();
		for ( const secret of secrets ) {
			const id = String( secret.source_id );
			bySource.set( id, [ ...( bySource.get( id ) ?? [] ), secret ] );
		}
		return rows.map( ( row ) => toSource( row, bySource.get( String( row.id ) ) ?? [] ) );
	}

	async createSource( input: NewSource, now: number ): Promise< InboundSource | undefined > {
		try {
			return await inTransaction( this.pool, async ( connection ) => {
				await connection.query(
					`INSERT INTO inbound_sources (id, scheme, status, description, tolerance_seconds, created_at, updated_at)
					 VALUES (?, ?, ?, ?, ?, ?, ?)`,
					[ input.id, input.scheme, input.status, input.description, input.toleranceSeconds, now, now ]
				);
				await connection.query(
					'INSERT INTO inbound_source_secrets (source_id, secret, origin, created_at, expires_at) VALUES (?, ?, ?, ?, NULL)',
					[ input.id, input.secret, input.origin, now ]
				);
				return readSource( connection, input.id, now );
			} );
		} catch ( error ) {
			// The id is taken (perhaps by another instance a moment ago): the transaction wrote nothing.
			if ( ( error as { code?: unknown } ).code === 'ER_DUP_ENTRY' ) {
				return undefined;
			}
			throw error;
		}
	}

	async updateSource( id: string, patch: SourcePatch, now: number ): Promise< InboundSource | undefined > {
		return inTransaction( this.pool, async ( connection ) => {
			// Locked: two instances patching different fields at once both keep their change.
			const [ rows ] = await connection.query< Row[] >( 'SELECT * FROM inbound_sources WHERE id = ? FOR UPDATE', [
				id,
			] );
			const row = rows[ 0 ];
			if ( ! row ) {
				return undefined;
			}
			const current = toSource( row, [] );
			await connection.query(
				`UPDATE inbound_sources SET scheme = ?, status = ?, description = ?, tolerance_seconds = ?, updated_at = ?
				 WHERE id = ?`,
				[
					patch.scheme ?? current.scheme,
					patch.status ?? current.status,
					patch.description ?? current.description,
					patch.toleranceSeconds === undefined ? current.toleranceSeconds : patch.toleranceSeconds,
					now,
					id,
				]
			);
			return readSource( connection, id, now );
		} );
	}

	async deleteSource( id: string ): Promise< boolean > {
		// The secrets go with it (ON DELETE CASCADE).
		const [ result ] = await this.pool.query< ResultSetHeader >( 'DELETE FROM inbound_sources WHERE id = ?', [
			id,
		] );
		return result.affectedRows > 0;
	}

	async rotateSourceSecret(
		id: string,
		secret: string,
		origin: SecretOrigin,
		graceMs: number,
		now: number
	): Promise< InboundSource | undefined > {
		return inTransaction( this.pool, async ( connection ) => {
			const [ rows ] = await connection.query< Row[] >(
				'SELECT id FROM inbound_sources WHERE id = ? FOR UPDATE',
				[ id ]
			);
			if ( rows.length === 0 ) {
				return undefined;
			}
			const graceEnds = now + graceMs;
			const dropExpired =
				'DELETE FROM inbound_source_secrets WHERE source_id = ? AND expires_at IS NOT NULL AND expires_at <= ?';
			await connection.query( dropExpired, [ id, now ] );
			// A rotation shortens the grace of older secrets, never lengthens it.
			await connection.query(
				'UPDATE inbound_source_secrets SET expires_at = ? WHERE source_id = ? AND expires_at > ?',
				[ graceEnds, id, graceEnds ]
			);
			await connection.query(
				'UPDATE inbound_source_secrets SET expires_at = ? WHERE source_id = ? AND expires_at IS NULL',
				[ graceEnds, id ]
			);
			// With no grace the previous secret expired just now: gone at once.
			await connection.query( dropExpired, [ id, now ] );
			await connection.query(
				'INSERT INTO inbound_source_secrets (source_id, secret, origin, created_at, expires_at) VALUES (?, ?, ?, ?, NULL)',
				[ id, secret, origin, now ]
			);
			await connection.query( 'UPDATE inbound_sources SET updated_at = ? WHERE id = ?', [ now, id ] );
			return readSource( connection, id, now );
		} );
	}

	async recordVerification( entry: NewInboundLogEntry ): Promise< number > {
		const [ inserted ] = await this.pool.query< ResultSetHeader >(
			'INSERT INTO inbound_log (at, source, outcome, status, code, event_id, answer_status) VALUES (?, ?, ?, ?, ?, ?, ?)',
			[ entry.at, entry.source, entry.outcome, entry.status, entry.code, entry.eventId, entry.answerStatus ]
		);
		if ( ++this.writes % LOG_PRUNE_EVERY === 0 ) {
			await this.prune();
		}
		return Number( inserted.insertId );
	}

	async recordAnswer( id: number, answer: InboundAnswer ): Promise< InboundLogEntry | undefined > {
		// The first report settles an unconfirmed entry; an entry that already says what the sender got keeps it.
		await this.pool.query(
			"UPDATE inbound_log SET outcome = ?, answer_status = ?, code = ? WHERE id = ? AND outcome = 'unconfirmed'",
			[ answeredOutcome( answer.status ), answer.status, answer.code, id ]
		);
		const [ rows ] = await this.pool.query< Row[] >( 'SELECT * FROM inbound_log WHERE id = ?', [ id ] );
		return rows[ 0 ] ? toLogEntry( rows[ 0 ] ) : undefined;
	}

	async listVerifications( query: InboundLogQuery ): Promise< { entries: InboundLogEntry[]; total: number } > {
		const where: string[] = [];
		const params: unknown[] = [];
		if ( query.source !== undefined ) {
			where.push( 'source = ?' );
			params.push( query.source );
		}
		if ( query.outcome !== undefined ) {
			where.push( 'outcome = ?' );
			params.push( query.outcome );
		}
		const filter = where.length > 0 ? `WHERE ${ where.join( ' AND ' ) }` : '';
		const [ rows ] = await this.pool.query< Row[] >(
			`SELECT * FROM inbound_log ${ filter } ORDER BY id DESC LIMIT ? OFFSET ?`,
			[ ...params, query.perPage, ( query.page - 1 ) * query.perPage ]
		);
		const [ counted ] = await this.pool.query< Row[] >(
			`SELECT COUNT(*) AS n FROM inbound_log ${ filter }`,
			params
		);
		return { entries: rows.map( toLogEntry ), total: Number( counted[ 0 ]?.n ?? 0 ) };
	}

	/** Keeps the newest `keep` rows (by id, as on SQLite), so a flood of forgeries cannot fill the disk. */
	private async prune(): Promise< void > {
		const [ newest ] = await this.pool.query< Row[] >( 'SELECT MAX(id) AS id FROM inbound_log' );
		const newestId = Number( newest[ 0 ]?.id ?? 0 );
		if ( newestId > this.keep ) {
			await this.pool.query( 'DELETE FROM inbound_log WHERE id <= ?', [ newestId - this.keep ] );
		}
	}
}

async function readSource( db: Queryable, id: string, now: number ): Promise< InboundSource | undefined > {
	const [ rows ] = await db.query< Row[] >( 'SELECT * FROM inbound_sources WHERE id = ?', [ id ] );
	const row = rows[ 0 ];
	if ( ! row ) {
		return undefined;
	}
	const [ secrets ] = await db.query< Row[] >(
		`SELECT * FROM inbound_source_secrets WHERE source_id = ? AND ${ LIVE_SECRETS }`,
		[ id, now ]
	);
	return toSource( row, secrets );
}

function nullableNumber( value: unknown ): number | null {
	return value === null || value === undefined ? null : Number( value );
}

function toSource( row: Row, secrets: Row[] ): InboundSource {
	return {
		id: String( row.id ),
		scheme: row.scheme as InboundScheme,
		status: row.status as SourceStatus,
		description: String( row.description ),
		toleranceSeconds: nullableNumber( row.tolerance_seconds ),
		createdAt: Number( row.created_at ),
		updatedAt: Number( row.updated_at ),
		secrets: secrets.map( ( secret ) => ( {
			secret: String( secret.secret ),
			origin: secret.origin as SecretOrigin,
			createdAt: Number( secret.created_at ),
			expiresAt: nullableNumber( secret.expires_at ),
		} ) ),
	};
}

function toLogEntry( row: Row ): InboundLogEntry {
	return {
		id: Number( row.id ),
		at: Number( row.at ),
		source: String( row.source ),
		outcome: row.outcome as InboundOutcome,
		status: Number( row.status ),
		code: ( row.code as string | null ) ?? null,
		eventId: ( row.event_id as string | null ) ?? null,
		answerStatus: nullableNumber( row.answer_status ),
	};
}

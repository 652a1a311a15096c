import { SourcePatch, NewSource, InboundSource } from '../../model/inbound';
import type { Db } from './database';
import type { InboundScheme, SecretOrigin, SourceStatus } from '../../contracts/constants';

interface SourceRow {
	id: string;
	scheme: InboundScheme;
	status: SourceStatus;
	description: string;
	tolerance_seconds: number | null;
	created_at: number;
	updated_at: number;
}

interface SecretRow {
	source_id: string;
	secret: string;
	origin: SecretOrigin;
	created_at: number;
	expires_at: number | null;
}

/** Inbound sources and their secrets, in the sidecar's SQLite (never in the WordPress database). */
export class InboundSourcesStore {
	private readonly statements;

	constructor( private readonly db: Db ) {
		this.statements = {
			insert: db.prepare(
				`INSERT INTO inbound_sources (id, scheme, status, description, tolerance_seconds, created_at, updated_at)
				 VALUES (@id, @scheme, @status, @description, @tolerance_seconds, @now, @now) ON CONFLICT (id) DO NOTHING`
			),
			insertSecret: db.prepare(
				'INSERT INTO inbound_source_secrets (source_id, secret, origin, created_at, expires_at) VALUES (?, ?, ?, ?, NULL)'
			),
			get: db.prepare( 'SELECT * FROM inbound_sources WHERE id = ?' ),
			list: db.prepare( 'SELECT * FROM inbound_sources ORDER BY id' ),
			secretsOf: db.prepare(
				'SELECT * FROM inbound_source_secrets WHERE source_id = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC, id DESC'
			),
			allSecrets: db.prepare(
				'SELECT * FROM inbound_source_secrets WHERE expires_at IS NULL OR expires_at > ? ORDER BY created_at DESC, id DESC'
			),
			update: db.prepare(
				`UPDATE inbound_sources SET scheme = @scheme, status = @status, description = @description,
				 tolerance_seconds = @tolerance_seconds, updated_at = @now WHERE id = @id`
			),
			delete: db.prepare( 'DELETE FROM inbound_sources WHERE id = ?' ),
			touch: db.prepare( 'UPDATE inbound_sources SET updated_at = ? WHERE id = ?' ),
			expireCurrent: db.prepare(
				'UPDATE inbound_source_secrets SET expires_at = ? WHERE source_id = ? AND expires_at IS NULL'
			),
			// A rotation shortens the grace of older secrets, never lengthens it.
			capOlder: db.prepare(
				'UPDATE inbound_source_secrets SET expires_at = ? WHERE source_id = ? AND expires_at > ?'
			),
			dropExpired: db.prepare(
				'DELETE FROM inbound_source_secrets WHERE source_id = ? AND expires_at IS NOT NULL AND expires_at <= ?'
			),
			counts: db.prepare( 'SELECT status, COUNT(*) AS n FROM inbound_sources GROUP BY status' ),
		};
	}

	/** The new source, or undefined when the id is taken. */
	create( input: NewSource, now: number ): InboundSource | undefined {
		const created = this.db
			.transaction( () => {
				const inserted = this.statements.insert.run( {
					id: input.id,
					scheme: input.scheme,
					status: input.status,
					description: input.description,
					tolerance_seconds: input.toleranceSeconds,
					now,
				} );
				if ( inserted.changes === 0 ) {
					return false;
				}
				this.statements.insertSecret.run( input.id, input.secret, input.origin, now );
				return true;
			} )
			.immediate();
		return created ? this.get( input.id, now ) : undefined;
	}

	get( id: string, now: number ): InboundSource | undefined {
		const row = this.statements.get.get( id ) as SourceRow | undefined;
		return row ? toSource( row, this.statements.secretsOf.all( id, now ) as SecretRow[] ) : undefined;
	}

	list( now: number ): InboundSource[] {
		const secrets = new Map< string, SecretRow[] >();
		for ( const secret of this.statements.allSecrets.all( now ) as SecretRow[] ) {
			secrets.set( secret.source_id, [ ...( secrets.get( secret.source_id ) ?? [] ), secret ] );
		}
		return ( this.statements.list.all() as SourceRow[] ).map( ( row ) =>
			toSource( row, secrets.get( row.id ) ?? [] )
		);
	}

	update( id: string, patch: SourcePatch, now: number ): InboundSource | undefined {
		const current = this.get( id, now );
		if ( ! current ) {
			return undefined;
		}
		this.statements.update.run( {
			id,
			scheme: patch.scheme ?? current.scheme,
			status: patch.status ?? current.status,
			description: patch.description ?? current.description,
			tolerance_seconds: patch.toleranceSeconds === undefined ? current.toleranceSeconds : patch.toleranceSeconds,
			now,
		} );
		return this.get( id, now );
	}

	/** Deletes the source and its secrets (the log keeps its rows: they name no secret). */
	delete( id: string ): boolean {
		return this.statements.delete.run( id ).changes > 0;
	}

	/** A new current secret; the previous one is still accepted until now + graceMs. */
	rotateSecret(
		id: string,
		secret: string,
		origin: SecretOrigin,
		graceMs: number,
		now: number
	): InboundSource | undefined {
		const done = this.db
			.transaction( () => {
				if ( ! this.statements.get.get( id ) ) {
					return false;
				}
				this.statements.dropExpired.run( id, now );
				this.statements.capOlder.run( now + graceMs, id, now + graceMs );
				this.statements.expireCurrent.run( now + graceMs, id );
				this.statements.dropExpired.run( id, now );
				this.statements.insertSecret.run( id, secret, origin, now );
				this.statements.touch.run( now, id );
				return true;
			} )
			.immediate();
		return done ? this.get( id, now ) : undefined;
	}

	counts(): Record< SourceStatus, number > {
		const counts: Record< SourceStatus, number > = { active: 0, disabled: 0 };
		for ( const row of this.statements.counts.all() as { status: SourceStatus; n: number }[] ) {
			counts[ row.status ] = row.n;
		}
		return counts;
	}
}

function toSource( row: SourceRow, secrets: SecretRow[] ): InboundSource {
	return {
		id: row.id,
		scheme: row.scheme,
		status: row.status,
		description: row.description,
		toleranceSeconds: row.tolerance_seconds,
		createdAt: row.created_at,
		updatedAt: row.updated_at,
		secrets: secrets.map( ( secret ) => ( {
			secret: secret.secret,
			origin: secret.origin,
			createdAt: secret.created_at,
			expiresAt: secret.expires_at,
		} ) ),
	};
}

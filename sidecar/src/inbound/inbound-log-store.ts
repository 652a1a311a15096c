import type { InboundOutcome } from '../contracts/constants';
import type { Db } from '../store/database';

export type { InboundOutcome };

/** One verification: when, for which source, the verdict, and the event id when there was one. Never a payload, a header or a secret. */
export interface InboundLogEntry {
	id: number;
	at: number;
	source: string;
	outcome: InboundOutcome;
	/** The verifier's answer to WordPress (200 = verified). */
	status: number;
	code: string | null;
	eventId: string | null;
	/** What WordPress answered the sender, once it reported it (verified deliveries only). */
	answerStatus: number | null;
}

export interface InboundLogQuery {
	source?: string;
	outcome?: InboundOutcome;
	page: number;
	perPage: number;
}

/** Rows kept; older ones are pruned every LOG_PRUNE_EVERY writes, so a flood of forgeries cannot fill the disk. */
export const DEFAULT_LOG_KEEP = 10_000;
export const LOG_PRUNE_EVERY = 500;

interface LogRow {
	id: number;
	at: number;
	source: string;
	outcome: InboundOutcome;
	status: number;
	code: string | null;
	event_id: string | null;
	answer_status: number | null;
}

/** The inbound verification log the admin page reads: bounded, newest first. */
export class InboundLogStore {
	private readonly statements;
	private writes = 0;

	constructor(
		db: Db,
		private readonly keep = DEFAULT_LOG_KEEP
	) {
		this.statements = {
			insert: db.prepare(
				'INSERT INTO inbound_log (at, source, outcome, status, code, event_id) VALUES (?, ?, ?, ?, ?, ?)'
			),
			answer: db.prepare( 'UPDATE inbound_log SET answer_status = ? WHERE id = ?' ),
			get: db.prepare( 'SELECT * FROM inbound_log WHERE id = ?' ),
			prune: db.prepare( 'DELETE FROM inbound_log WHERE id <= (SELECT MAX(id) FROM inbound_log) - ?' ),
			page: db.prepare(
				`SELECT * FROM inbound_log WHERE (@source IS NULL OR source = @source) AND (@outcome IS NULL OR outcome = @outcome)
				 ORDER BY id DESC LIMIT @limit OFFSET @offset`
			),
			total: db.prepare(
				'SELECT COUNT(*) AS n FROM inbound_log WHERE (@source IS NULL OR source = @source) AND (@outcome IS NULL OR outcome = @outcome)'
			),
		};
	}

	/** Adds a row; its id, which WordPress reports its answer under (recordAnswer). */
	record( entry: Omit< InboundLogEntry, 'id' | 'answerStatus' > ): number {
		const id = Number(
			this.statements.insert.run( entry.at, entry.source, entry.outcome, entry.status, entry.code, entry.eventId )
				.lastInsertRowid
		);
		if ( ++this.writes % LOG_PRUNE_EVERY === 0 ) {
			this.statements.prune.run( this.keep );
		}
		return id;
	}

	/** Keeps the status WordPress answered the sender with; the updated row, or undefined when there is no such row (any more). */
	recordAnswer( id: number, answerStatus: number ): InboundLogEntry | undefined {
		this.statements.answer.run( answerStatus, id );
		const row = this.statements.get.get( id ) as LogRow | undefined;
		return row ? fromRow( row ) : undefined;
	}

	list( query: InboundLogQuery ): { entries: InboundLogEntry[]; total: number } {
		const filter = { source: query.source ?? null, outcome: query.outcome ?? null };
		const rows = this.statements.page.all( {
			...filter,
			limit: query.perPage,
			offset: ( query.page - 1 ) * query.perPage,
		} ) as LogRow[];
		const { n } = this.statements.total.get( filter ) as { n: number };
		return {
			entries: rows.map( fromRow ),
			total: n,
		};
	}
}

function fromRow( row: LogRow ): InboundLogEntry {
	return {
		id: row.id,
		at: row.at,
		source: row.source,
		outcome: row.outcome,
		status: row.status,
		code: row.code,
		eventId: row.event_id,
		answerStatus: row.answer_status,
	};
}

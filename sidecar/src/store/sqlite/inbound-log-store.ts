import {
	LOG_PRUNE_EVERY,
	DEFAULT_LOG_KEEP,
	InboundLogQuery,
	answeredOutcome,
	InboundAnswer,
	InboundLogEntry,
} from '../../model/inbound';
import type { InboundOutcome } from '../../contracts/constants';
import type { Db } from './database';

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
				'INSERT INTO inbound_log (at, source, outcome, status, code, event_id, answer_status) VALUES (?, ?, ?, ?, ?, ?, ?)'
			),
			// The first report settles an unconfirmed entry; an entry that already says what the sender got keeps it.
			answer: db.prepare(
				"UPDATE inbound_log SET outcome = ?, answer_status = ?, code = ? WHERE id = ? AND outcome = 'unconfirmed'"
			),
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
	record( entry: Omit< InboundLogEntry, 'id' > ): number {
		const id = Number(
			this.statements.insert.run(
				entry.at,
				entry.source,
				entry.outcome,
				entry.status,
				entry.code,
				entry.eventId,
				entry.answerStatus
			).lastInsertRowid
		);
		if ( ++this.writes % LOG_PRUNE_EVERY === 0 ) {
			this.statements.prune.run( this.keep );
		}
		return id;
	}

	/** Keeps what WordPress answered the sender with; the row as it is then, or undefined when there is no such row (any more). */
	recordAnswer( id: number, answer: InboundAnswer ): InboundLogEntry | undefined {
		this.statements.answer.run( answeredOutcome( answer.status ), answer.status, answer.code, id );
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

import type { Db } from '../store/database';

export type InboundOutcome = 'verified' | 'refused';
export const INBOUND_OUTCOMES = [ 'verified', 'refused' ] as const;

/** One verification: when, for which source, the verdict, and the event id when there was one. Never a payload, a header or a secret. */
export interface InboundLogEntry {
	id: number;
	at: number;
	source: string;
	outcome: InboundOutcome;
	status: number;
	code: string | null;
	eventId: string | null;
}

export interface InboundLogQuery {
	source?: string;
	outcome?: InboundOutcome;
	page: number;
	perPage: number;
}

/** Rows kept; older ones are pruned every PRUNE_EVERY writes, so a flood of forgeries cannot fill the disk. */
export const DEFAULT_LOG_KEEP = 10_000;
const PRUNE_EVERY = 500;

interface LogRow {
	id: number;
	at: number;
	source: string;
	outcome: InboundOutcome;
	status: number;
	code: string | null;
	event_id: string | null;
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
			insert: db.prepare( 'INSERT INTO inbound_log (at, source, outcome, status, code, event_id) VALUES (?, ?, ?, ?, ?, ?)' ),
			prune: db.prepare( 'DELETE FROM inbound_log WHERE id <= (SELECT MAX(id) FROM inbound_log) - ?' ),
			page: db.prepare(
				`SELECT * FROM inbound_log WHERE (@source IS NULL OR source = @source) AND (@outcome IS NULL OR outcome = @outcome)
				 ORDER BY id DESC LIMIT @limit OFFSET @offset`
			),
			total: db.prepare( 'SELECT COUNT(*) AS n FROM inbound_log WHERE (@source IS NULL OR source = @source) AND (@outcome IS NULL OR outcome = @outcome)' ),
		};
	}

	record( entry: Omit< InboundLogEntry, 'id' > ): void {
		this.statements.insert.run( entry.at, entry.source, entry.outcome, entry.status, entry.code, entry.eventId );
		if ( ++this.writes % PRUNE_EVERY === 0 ) {
			this.statements.prune.run( this.keep );
		}
	}

	list( query: InboundLogQuery ): { entries: InboundLogEntry[]; total: number } {
		const filter = { source: query.source ?? null, outcome: query.outcome ?? null };
		const rows = this.statements.page.all( { ...filter, limit: query.perPage, offset: ( query.page - 1 ) * query.perPage } ) as LogRow[];
		const { n } = this.statements.total.get( filter ) as { n: number };
		return {
			entries: rows.map( ( row ) => ( {
				id: row.id,
				at: row.at,
				source: row.source,
				outcome: row.outcome,
				status: row.status,
				code: row.code,
				eventId: row.event_id,
			} ) ),
			total: n,
		};
	}
}

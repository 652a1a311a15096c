import type { NoticesStore, QueuedNotice } from './notices-store';

/**
 * The notices for WordPress as the notice sender reads them, async so the queue can sit on the
 * shared database (MysqlNoticeQueue) as well as on the embedded one (SqliteNoticeQueue). The
 * notices themselves are queued by the transactions that change an endpoint.
 */
export interface NoticeQueue {
	/** Up to `limit` unacknowledged notices whose next attempt is due, oldest due first. */
	due: ( now: number, limit: number ) => Promise< QueuedNotice[] >;
	/** Whether the notice still waits for WordPress (it may have been dropped since it was read). */
	isPending: ( id: number ) => Promise< boolean >;
	acknowledge: ( id: number, now: number ) => Promise< void >;
	/** Records a refusal and when to try again. */
	failed: ( id: number, error: string, nextAttemptAt: number ) => Promise< void >;
	/** The earliest unacknowledged notice's next attempt, if any. */
	nextDue: () => Promise< number | undefined >;
	pendingCount: () => Promise< number >;
	/** Deletes up to `limit` acknowledged notices older than `before` (retention); returns how many. */
	prune: ( before: number, limit: number ) => Promise< number >;
}

/** The embedded NoticesStore behind the async interface (the calls stay synchronous inside). */
export class SqliteNoticeQueue implements NoticeQueue {
	constructor( private readonly notices: NoticesStore ) {}

	async due( now: number, limit: number ): Promise< QueuedNotice[] > {
		return this.notices.due( now, limit );
	}
	async isPending( id: number ): Promise< boolean > {
		return this.notices.isPending( id );
	}
	async acknowledge( id: number, now: number ): Promise< void > {
		this.notices.acknowledge( id, now );
	}
	async failed( id: number, error: string, nextAttemptAt: number ): Promise< void > {
		this.notices.failed( id, error, nextAttemptAt );
	}
	async nextDue(): Promise< number | undefined > {
		return this.notices.nextDue();
	}
	async pendingCount(): Promise< number > {
		return this.notices.pendingCount();
	}
	async prune( before: number, limit: number ): Promise< number > {
		return this.notices.prune( before, limit );
	}
}

import type { QueuedNotice } from '../model/notices';

/**
 * The notices for WordPress as the notice sender reads them, async so the queue can sit on the
 * shared database (MysqlNoticeQueue) as well as on the embedded one (NoticesStore, through sqliteQueueStore). The
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

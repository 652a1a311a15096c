import type { NoticesStore } from './notices-store';
import type { QueuedNotice } from '../../model/notices';

import type { NoticeQueue } from '../notice-queue';

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

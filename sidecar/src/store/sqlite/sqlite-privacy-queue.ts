import type { EraseResult, PrivacyRecord } from '../../model/privacy';
import type { PrivacyStore } from './privacy-store';

import type { PrivacyQueue } from '../privacy-queue';

/** The embedded store's privacy requests: its synchronous PrivacyStore, wrapped. */
export class SqlitePrivacyQueue implements PrivacyQueue {
	constructor( private readonly privacy: PrivacyStore ) {}

	async find( email: string ): Promise< PrivacyRecord[] > {
		return this.privacy.find( email );
	}
	async erase( email: string, now: number ): Promise< EraseResult > {
		return this.privacy.erase( email, now );
	}
}

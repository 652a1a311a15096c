import type { EraseResult, PrivacyRecord, PrivacyStore } from './privacy-store';

/**
 * WordPress's personal data export and erasure, on either store (QueueStore.privacy): the
 * same matching and the same redaction markers (personal-data.ts) on both.
 */
export interface PrivacyQueue {
	/** Every record holding the email: events first (oldest first), then attempts. */
	find: ( email: string ) => Promise< PrivacyRecord[] >;
	/** Replaces the customer's data by redaction markers, in one transaction (see PrivacyStore.erase). */
	erase: ( email: string, now: number ) => Promise< EraseResult >;
}

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

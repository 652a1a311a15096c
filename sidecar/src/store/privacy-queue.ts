import type { EraseResult, PrivacyRecord } from '../model/privacy';

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

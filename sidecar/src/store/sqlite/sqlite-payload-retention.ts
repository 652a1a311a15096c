import type { PrivacyStore } from './privacy-store';

import type { PayloadRetention } from '../payload-retention';

/** The embedded PrivacyStore's clearPayloads behind the async interface. */
export class SqlitePayloadRetention implements PayloadRetention {
	constructor( private readonly privacy: PrivacyStore ) {}

	async clearPayloads(
		before: number,
		limit: number,
		now: number
	): Promise< { payloads: number; excerpts: number } > {
		return this.privacy.clearPayloads( before, limit, now );
	}
}

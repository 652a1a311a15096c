import type { PrivacyStore } from '../privacy/privacy-store';

/**
 * Payload retention (SIDECAR_PAYLOAD_RETENTION_DAYS) as maintenance runs it on either store:
 * up to `limit` events received before `before` with nothing left to send get an empty
 * envelope, and up to `limit` attempts made before `before` lose their response excerpt; the
 * rows stay. Returns how many of each were cleared.
 */
export interface PayloadRetention {
	clearPayloads: ( before: number, limit: number, now: number ) => Promise< { payloads: number; excerpts: number } >;
}

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

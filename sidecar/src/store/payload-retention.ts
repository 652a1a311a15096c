/**
 * Payload retention (SIDECAR_PAYLOAD_RETENTION_DAYS) as maintenance runs it on either store:
 * up to `limit` events received before `before` with nothing left to send get an empty
 * envelope, and up to `limit` attempts made before `before` lose their response excerpt; the
 * rows stay. Returns how many of each were cleared.
 */
export interface PayloadRetention {
	clearPayloads: ( before: number, limit: number, now: number ) => Promise< { payloads: number; excerpts: number } >;
}

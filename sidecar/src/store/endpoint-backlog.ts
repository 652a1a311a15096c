/**
 * Rows an endpoint's disable or delete leaves to clear at once, in its own transaction; what is
 * left goes in bounded batches in the background (EndpointBacklog, run by maintenance). A
 * million queued deliveries would otherwise make the disable or delete one statement of many
 * seconds that holds the endpoint's row (and every delivery's) locked while it runs.
 */
export const ENDPOINT_BACKLOG_INLINE_ROWS = 500;

/**
 * The background half of disabling and deleting endpoints, as maintenance runs it on either
 * store. A disabled endpoint's pending deliveries are cancelled (they wait for an enable); a
 * deleted endpoint (hidden from every read, receiving nothing) loses its deliveries and their
 * attempts, and its row goes with the last of them. Each call is one short transaction of at
 * most `limit` deliveries; several instances may call it at once (the endpoint's row is read
 * under a shared lock, so an enable in between is seen).
 */
export interface EndpointBacklog {
	/** Cancels up to `limit` pending deliveries of disabled endpoints; returns how many. */
	cancelDisabled: ( limit: number, now: number ) => Promise< number >;
	/** Deletes up to `limit` deliveries of deleted endpoints, then the endpoints left with none. */
	purgeDeleted: ( limit: number ) => Promise< { deliveries: number; endpoints: number } >;
}

/**
 * How long a failed hand-over keeps /ready at 503 when no other hand-over comes to say the
 * store takes events again: a few Retry-After periods (a balancer that polls /ready sends no
 * hand-over here meanwhile, so the failure must be forgotten on its own). Each new failure
 * starts it again, so an instance whose writes keep failing stays not ready.
 */
export const INGEST_FAILURE_MEMORY_MS = 10_000;

/**
 * Whether this instance's last hand-over of events (POST /v1/events) could be stored. A
 * database that answers a trivial SELECT can still refuse or time out every write (a long
 * queue's lock waits, a full disk, a read-only server): the readiness check asks this too,
 * so /ready does not say 200 while ingest answers 503.
 */
export class IngestHealth {
	private failedAt: number | undefined;

	stored(): void {
		this.failedAt = undefined;
	}

	failed( now: number ): void {
		this.failedAt = now;
	}

	/** Why ingest is not ready, or null: the last hand-over failed and none stored since, recently. */
	problem( now: number ): string | null {
		return this.failedAt !== undefined && now - this.failedAt < INGEST_FAILURE_MEMORY_MS
			? 'the last hand-over of events could not be stored in the database'
			: null;
	}
}

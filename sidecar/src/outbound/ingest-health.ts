/**
 * How long a failed hand-over keeps /ready at 503 when no other hand-over comes to say the
 * store takes events again: WordPress retries its outbox within this, and a balancer polling
 * /ready sends the next hand-over to another instance meanwhile.
 */
export const INGEST_FAILURE_MEMORY_MS = 30_000;

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

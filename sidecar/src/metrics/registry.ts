import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { SIDECAR_VERSION } from '../version';
import type { DeliveryOutcome, DisableReason, GiveUpReason } from './outcomes';

/** Every metric of the sidecar starts with this, the process metrics of collectDefaultMetrics too. */
export const METRIC_PREFIX = 'service_integration_';

/** The source label of a verification for a source that does not exist (source ids are [a-z0-9-]). */
export const UNKNOWN_SOURCE_LABEL = '_unknown';

/** One endpoint's queue, as the scrape-time query reads it. */
export interface QueueSnapshot {
	endpointId: string;
	/** Pending deliveries: due now or waiting for a retry. */
	pending: number;
	/** The earliest next_attempt_at among them (ms), null when none is pending. */
	firstAttemptAt: number | null;
}

export interface MetricsOptions {
	/**
	 * Read at each scrape (one query; a promise on the shared store); the queue gauges are
	 * absent without it.
	 */
	queue?: ( now: number ) => QueueSnapshot[] | Promise< QueueSnapshot[] >;
	/** collectDefaultMetrics: process CPU, memory, event loop lag, GC, handles. Default true. */
	processMetrics?: boolean;
	/** Told when the queue query fails; the scrape then goes on without the queue gauges. */
	onQueueError?: ( error: unknown ) => void;
	now?: () => number;
}

// Sub-millisecond to the longest delivery timeout (120 s).
const DURATION_BUCKETS = [ 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60, 120 ];
// Normally milliseconds (schedule[0] is 0); a backlog or a stopped dispatcher shows in the long buckets.
const FIRST_ATTEMPT_BUCKETS = [ 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600 ];

/**
 * The sidecar's Prometheus registry and every metric in it. One per sidecar, made in the
 * composition root and passed to what records into it (never a global: tests run several
 * sidecars in one process). Recording is a counter increment or a histogram observation; the
 * queue gauges are read from the database at scrape time only.
 */
export class SidecarMetrics {
	readonly registry = new Registry();
	private readonly options: MetricsOptions;

	private readonly eventsIngested: Counter< 'type' >;
	private readonly eventsRejected: Counter< 'reason' >;
	private readonly attempts: Counter< 'endpoint_id' | 'outcome' >;
	private readonly deliveries: Counter< 'endpoint_id' | 'outcome' >;
	private readonly giveUps: Counter< 'endpoint_id' | 'reason' >;
	private readonly disables: Counter< 'reason' >;
	private readonly attemptDuration: Histogram< 'endpoint_id' >;
	private readonly firstAttemptDelay: Histogram< 'endpoint_id' >;
	private readonly inbound: Counter< 'source' | 'outcome' | 'reason' >;
	private readonly queueDepth: Gauge< 'endpoint_id' >;
	private readonly oldestDueAge: Gauge< 'endpoint_id' >;

	constructor( options: MetricsOptions = {} ) {
		this.options = options;
		const registers = [ this.registry ];
		const name = ( suffix: string ) => METRIC_PREFIX + suffix;

		new Gauge( {
			name: name( 'build_info' ),
			help: 'Always 1; the sidecar version as a label.',
			labelNames: [ 'version' ],
			registers,
		} ).set( { version: SIDECAR_VERSION }, 1 );
		this.eventsIngested = new Counter( {
			name: name( 'events_ingested_total' ),
			help: 'Events WordPress handed over and the sidecar stored (duplicates of known ids are not counted), by event type.',
			labelNames: [ 'type' ],
			registers,
		} );
		this.eventsRejected = new Counter( {
			name: name( 'events_rejected_total' ),
			help: 'Events of a batch the sidecar refused (invalid_body, invalid_event_type).',
			labelNames: [ 'reason' ],
			registers,
		} );
		this.attempts = new Counter( {
			name: name( 'delivery_attempts_total' ),
			help: 'Outbound delivery attempts, by endpoint and outcome.',
			labelNames: [ 'endpoint_id', 'outcome' ],
			registers,
		} );
		this.deliveries = new Counter( {
			name: name( 'deliveries_total' ),
			help: 'Outbound deliveries that reached a final state (delivered, or failed for good), by endpoint and the outcome of their last attempt.',
			labelNames: [ 'endpoint_id', 'outcome' ],
			registers,
		} );
		this.giveUps = new Counter( {
			name: name( 'delivery_give_ups_total' ),
			help: 'Outbound deliveries failed for good, by endpoint and reason (attempts_exhausted, blocked, endpoint_gone).',
			labelNames: [ 'endpoint_id', 'reason' ],
			registers,
		} );
		this.disables = new Counter( {
			name: name( 'endpoint_disables_total' ),
			help: 'Endpoints disabled, by reason (gone: HTTP 410; failing: no success for SIDECAR_DISABLE_AFTER_HOURS; owner: the disable route).',
			labelNames: [ 'reason' ],
			registers,
		} );
		this.attemptDuration = new Histogram( {
			name: name( 'delivery_duration_seconds' ),
			help: 'How long one delivery attempt took, from its start to the answer or failure, by endpoint.',
			labelNames: [ 'endpoint_id' ],
			buckets: DURATION_BUCKETS,
			registers,
		} );
		this.firstAttemptDelay = new Histogram( {
			name: name( 'event_to_first_attempt_seconds' ),
			help: 'From an event reaching the sidecar to the start of the first attempt of its delivery to an endpoint, by endpoint.',
			labelNames: [ 'endpoint_id' ],
			buckets: FIRST_ATTEMPT_BUCKETS,
			registers,
		} );
		this.inbound = new Counter( {
			name: name( 'inbound_verifications_total' ),
			help: `Inbound webhook verifications, by source (${ UNKNOWN_SOURCE_LABEL } for a source that does not exist), outcome (verified, refused, timed_out: asked after WordPress's deadline) and reason (none, the refusal code, or deadline_passed).`,
			labelNames: [ 'source', 'outcome', 'reason' ],
			registers,
		} );
		this.queueDepth = new Gauge( {
			name: name( 'queue_depth' ),
			help: 'Pending outbound deliveries (due now or waiting for a retry), by endpoint; read at scrape time.',
			labelNames: [ 'endpoint_id' ],
			registers,
		} );
		this.oldestDueAge = new Gauge( {
			name: name( 'queue_oldest_due_age_seconds' ),
			help: 'How long the oldest due pending delivery has been waiting past its due time (0 when nothing is due), by endpoint; read at scrape time.',
			labelNames: [ 'endpoint_id' ],
			registers,
		} );
		if ( options.processMetrics ?? true ) {
			collectDefaultMetrics( { register: this.registry, prefix: METRIC_PREFIX } );
		}
	}

	get contentType(): string {
		return this.registry.contentType;
	}

	recordEventIngested( type: string ): void {
		this.eventsIngested.inc( { type } );
	}

	recordEventRejected( reason: 'invalid_body' | 'invalid_event_type' ): void {
		this.eventsRejected.inc( { reason } );
	}

	/** One finished attempt; `firstAttemptDelaySeconds` only for a delivery's first attempt. */
	recordAttempt(
		endpointId: string,
		outcome: DeliveryOutcome,
		durationSeconds: number,
		firstAttemptDelaySeconds: number | null
	): void {
		const endpoint = { endpoint_id: endpointId };
		this.attempts.inc( { endpoint_id: endpointId, outcome } );
		this.attemptDuration.observe( endpoint, durationSeconds );
		if ( firstAttemptDelaySeconds !== null ) {
			this.firstAttemptDelay.observe( endpoint, Math.max( 0, firstAttemptDelaySeconds ) );
		}
	}

	/** A delivery reached a final state: delivered (outcome success), or failed for good (with the reason). */
	recordDeliveryFinished( endpointId: string, outcome: DeliveryOutcome, giveUp: GiveUpReason | null ): void {
		this.deliveries.inc( { endpoint_id: endpointId, outcome } );
		if ( giveUp !== null ) {
			this.giveUps.inc( { endpoint_id: endpointId, reason: giveUp } );
		}
	}

	recordEndpointDisabled( reason: DisableReason ): void {
		this.disables.inc( { reason } );
	}

	/** `source` is the id from the URL: used as a label only when the source exists. */
	recordInboundVerification( source: string, verdict: { ok: true } | { ok: false; code: string } ): void {
		if ( verdict.ok ) {
			this.inbound.inc( { source, outcome: 'verified', reason: 'none' } );
			return;
		}
		const known = verdict.code !== 'unknown_source';
		this.inbound.inc( { source: known ? source : UNKNOWN_SOURCE_LABEL, outcome: 'refused', reason: verdict.code } );
	}

	/** A verification asked for after WordPress's deadline: not made, WordPress had answered the sender already. */
	recordInboundTimeout( source: string, known: boolean ): void {
		this.inbound.inc( {
			source: known ? source : UNKNOWN_SOURCE_LABEL,
			outcome: 'timed_out',
			reason: 'deadline_passed',
		} );
	}

	/** The text exposition, with the queue gauges read now. */
	async render(): Promise< string > {
		await this.refreshQueue();
		return this.registry.metrics();
	}

	private async refreshQueue(): Promise< void > {
		const read = this.options.queue;
		if ( ! read ) {
			return;
		}
		const now = ( this.options.now ?? Date.now )();
		let rows: QueueSnapshot[] | undefined;
		try {
			rows = await read( now );
		} catch ( error ) {
			this.options.onQueueError?.( error );
		}
		// Reset after the read, not before: a scrape that overlaps this one must not see half the endpoints.
		this.queueDepth.reset();
		this.oldestDueAge.reset();
		if ( rows === undefined ) {
			return;
		}
		for ( const row of rows ) {
			const labels = { endpoint_id: row.endpointId };
			this.queueDepth.set( labels, row.pending );
			const due = row.firstAttemptAt !== null && row.firstAttemptAt <= now;
			this.oldestDueAge.set( labels, due ? ( now - ( row.firstAttemptAt as number ) ) / 1000 : 0 );
		}
	}
}

export function createMetrics( options: MetricsOptions = {} ): SidecarMetrics {
	return new SidecarMetrics( options );
}

/**
 * The registry of one sidecar, as the start wires it: its own counters, the queue gauges read
 * from its store at each scrape (on the shared store, the queue of every instance).
 */
export function storeMetrics(
	store: { queueByEndpoint: () => Promise< QueueSnapshot[] > },
	log: { warn: ( context: object, message: string ) => void },
	options: Pick< MetricsOptions, 'processMetrics' > = {}
): SidecarMetrics {
	return createMetrics( {
		...options,
		queue: () => store.queueByEndpoint(),
		onQueueError: ( error ) => log.warn( { err: error }, 'metrics: cannot read the queue' ),
	} );
}

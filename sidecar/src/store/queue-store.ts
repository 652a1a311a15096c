import {
	type Attempt,
	type ClaimedDelivery,
	type Completion,
	type Delivery,
	type DeliveryFilter,
} from '../model/deliveries';
import { type DeliveryStatus, DisabledBy } from '../contracts/constants';
import { type EndpointHealth } from '../model/health';
import type { EnableResult, Endpoint, EndpointPatch, NewEndpoint } from '../model/endpoints';
import type { InsertResult, NewEvent, StoredEvent } from '../model/events';
import type { HealthInput, HealthResult } from '../model/round-health';
import { type EndpointBacklog } from './endpoint-backlog';
import { type FailureStreaks } from './failure-streaks';
import { type InboundStore } from './inbound-store';
import { type NoticeQueue } from './notice-queue';
import { type PayloadRetention } from './payload-retention';
import { type PrivacyQueue } from './privacy-queue';
import { type ReplayQueue } from './replay-queue';
import type { QueueSnapshot } from '../metrics/registry';

/** A claimed delivery with the instance lease it was taken under. */
export interface Lease {
	instanceId: string;
	/** How long the claim holds (Unix ms after now); past it another instance may take the delivery. */
	leaseMs: number;
}

/** One round of the dispatcher: what the store does in it, in this order. */
export interface RoundInput extends HealthInput {
	/** Events POST /v1/events hands over (never with `finished`: a failure to record attempts must not refuse events). */
	ingest?: { events: NewEvent[]; firstAttemptAt: number };
	/** Endpoints that may have work; the round adds those the ingest stored deliveries for. */
	claimOn: string[];
	/** How many deliveries this instance may take on an endpoint now (0: not active here, or full). */
	limit: ( endpointId: string ) => number;
	lease: Lease;
}

/** The round's health part (recorded, failingSince, disabled, recovered) is model/round-health.ts's. */
export interface RoundResult extends HealthResult {
	ingested?: InsertResult;
	claimed: ClaimedDelivery[];
	/**
	 * The shared store's round is several transactions: the error that stopped it after the
	 * attempts were recorded (and the ingest stored). What is in this result is committed, and
	 * must not be recorded again; the rest of the round (health moves, claims) did not happen.
	 */
	cutShort?: unknown;
}

/** An attempt as the shared store records it: who made it, and when it started and ended. */
export interface RecordedAttempt {
	deliveryId: number;
	instanceId: string | null;
	startedAt: number;
	endedAt: number;
	statusCode: number | null;
}

/**
 * The store every instance shares: what the outbound path (the HTTP hand-over of events,
 * endpoint management, the dispatcher) needs, async so it can sit on a database server.
 * Two implementations: sqliteQueueStore() (the embedded default, over the synchronous stores)
 * and MysqlStore (MySQL/MariaDB, several instances at once).
 */
export interface QueueStore {
	readonly kind: 'sqlite' | 'mysql';
	/** Inbound sources, their secrets and the verification log. */
	readonly inbound: InboundStore;
	/** Manual replays of events, by id, by failure time or by range. */
	readonly replays: ReplayQueue;
	/** WordPress's personal data export and erasure. */
	readonly privacy: PrivacyQueue;
	insertBatch: ( events: NewEvent[], now: number, firstAttemptAt: number ) => Promise< InsertResult >;
	getEvent: ( id: string ) => Promise< StoredEvent | undefined >;
	deliveriesOfEvent: ( eventId: string ) => Promise< ( Delivery & { attempts: Attempt[] } )[] >;
	listEndpoints: ( now: number ) => Promise< Endpoint[] >;
	getEndpoint: ( id: string, now: number ) => Promise< Endpoint | undefined >;
	createEndpoint: ( input: NewEndpoint, now: number ) => Promise< Endpoint >;
	/** Changes the given fields; undefined if there is no such endpoint. */
	updateEndpoint: ( id: string, patch: EndpointPatch, now: number ) => Promise< Endpoint | undefined >;
	/** New current secret; the old one keeps signing until now + graceMs. Undefined if there is no such endpoint. */
	rotateEndpointSecret: (
		id: string,
		secret: string,
		graceMs: number,
		now: number
	) => Promise< Endpoint | undefined >;
	/**
	 * Disables an active endpoint and cancels its pending deliveries (at once up to a bound, the
	 * rest through endpointBacklog); false if it was not active.
	 */
	disableEndpoint: ( id: string, reason: string, by: DisabledBy, now: number ) => Promise< boolean >;
	/**
	 * Enables a disabled endpoint (see EndpointsStore.enable for `redeliver`) and, in the same
	 * transaction, replaces the notices to WordPress still queued about it with one
	 * endpoint.enabled notice: also when it was active already, so that an owner's enable
	 * always clears a disabled notice WordPress may still show.
	 */
	enableEndpoint: ( id: string, now: number, redeliver?: boolean ) => Promise< EnableResult >;
	/**
	 * Deletes the endpoint with its deliveries and attempts (at once up to a bound; past it the
	 * endpoint is marked deleted, gone for every reader, and endpointBacklog removes the rest in
	 * the background) and, in the same transaction,
	 * replaces the notices still queued about it with one endpoint.deleted notice (a late
	 * disabled notice would show WordPress's owner an endpoint that is gone).
	 */
	deleteEndpoint: ( id: string, now: number ) => Promise< { deleted: boolean; droppedNotices: number } >;
	/** The delivery log, newest first, one page of it and the total. */
	listDeliveries: ( filter: DeliveryFilter ) => Promise< { deliveries: Delivery[]; total: number } >;
	/** The endpoint's last `limit` attempts since `since`, summed up for its view. */
	endpointHealth: ( endpointId: string, since: number, limit: number ) => Promise< EndpointHealth >;
	/**
	 * Takes up to `limit` due deliveries of an endpoint: pending and due, or (shared store)
	 * in flight under an expired lease; never one behind an unfinished earlier delivery of
	 * its ordering key.
	 */
	claimDue: ( endpointId: string, now: number, limit: number, lease: Lease ) => Promise< ClaimedDelivery[] >;
	/**
	 * The dispatcher's hot path, the size of one transaction on SQLite (one synchronous
	 * transaction: many deliveries share a commit): store what ingest brings, record the
	 * finished attempts and move their endpoints' health, then claim what is due.
	 */
	round: ( input: RoundInput ) => Promise< RoundResult >;
	/**
	 * Puts back in the queue what this instance left in flight when it last stopped (all of it
	 * on SQLite, whose one process owns the file): at-least-once, it is sent again.
	 */
	recoverInFlight: ( lease: Lease, now: number ) => Promise< number >;
	/** Records the attempt and moves the delivery on; false if the delivery is gone or no longer ours. */
	complete: ( completion: Completion, lease: Lease ) => Promise< boolean >;
	/** The earliest retry strictly after now. */
	nextDueAfter: ( now: number ) => Promise< number | undefined >;
	countByStatus: () => Promise<
		Record< Extract< DeliveryStatus, 'pending' | 'in_flight' | 'failed' | 'cancelled' >, number >
	>;
	/** Every endpoint's pending deliveries and their earliest due time: the queue gauges of /metrics. */
	queueByEndpoint: () => Promise< QueueSnapshot[] >;
	/** Deletes finished deliveries and unreferenced events older than `before` (retention). */
	prune: ( before: number, limit: number ) => Promise< { deliveries: number; events: number } >;
	/**
	 * Runs fn only if no other instance runs it under the same name now (a database lock on
	 * the shared store, taken without waiting); false if another instance holds it.
	 */
	exclusively: ( name: string, fn: () => Promise< void > ) => Promise< boolean >;
	/** Throws when the store cannot answer a trivial query. */
	ping: () => Promise< void >;
	/** Schema version applied, and the latest this code knows. */
	schemaVersion: () => Promise< { current: number; latest: number } >;
	close: () => Promise< void >;
	/** The notices for WordPress, as the notice sender reads them. */
	readonly notices: NoticeQueue;
	/** Endpoints' failure streaks and their automatic disabling (dispatcher, health sweep). */
	readonly failureStreaks: FailureStreaks;
	/** Payload retention (maintenance). */
	readonly payloadRetention: PayloadRetention;
	/** What disabling and deleting endpoints leave to clear in the background (maintenance). */
	readonly endpointBacklog: EndpointBacklog;
}

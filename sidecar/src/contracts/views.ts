/**
 * The sidecar API's answers as they travel (snake_case, ISO 8601 times), as zod schemas with a
 * description per field. The sidecar's views are typed with the types inferred from them and the
 * WordPress admin page imports those types (`import type`, nothing bundled), so a shape that
 * changes on one side fails the type check of the other. `npm run contracts` turns the answers of
 * the proxied routes (responses.ts) into those routes' response schemas in PHP, descriptions
 * included, which WordPress shows in OPTIONS and translates.
 */
import { z } from 'zod';
import {
	ATTEMPT_TRIGGERS,
	DELIVERED_EVENT_TYPES,
	DELIVERY_STATUSES,
	DISABLED_BY,
	ENDPOINT_STATUSES,
	EVENT_TYPES,
	INBOUND_OUTCOMES,
	INBOUND_SCHEMES,
	SECRET_ORIGINS,
	SOURCE_STATUSES,
	TEST_EVENT_TYPE,
} from './constants';

const time = ( description: string ) => z.iso.datetime( { offset: true } ).describe( description );
const maybeTime = ( description: string ) => z.iso.datetime( { offset: true } ).nullable().describe( description );
const count = ( description: string ) => z.number().int().min( 0 ).describe( description );
const httpStatus = ( description: string ) => z.number().int().nullable().describe( description );

const CREATED_AT = time( 'When it was created.' );
const UPDATED_AT = time( 'When it last changed.' );
const PAGE_FIELDS = {
	total: count( 'Items matching the filters, on every page.' ),
	page: z.number().int().min( 1 ).describe( 'Page, from 1.' ),
	per_page: z.number().int().min( 1 ).describe( 'Items per page.' ),
};

export const SECRET_INFO = z.object( {
	masked: z.string().describe( 'The secret, its first and last characters only.' ),
	created_at: maybeTime( 'When the secret was made.' ),
	expires_at: maybeTime(
		"null for the current secret; for the previous one, the end of the rotation's grace period."
	),
} );
export type SecretInfoView = z.infer< typeof SECRET_INFO >;

/** A failed attempt as the API, the admin page and the site owner's alert show it (status null: a network error). */
export const ATTEMPT_ERROR = z.object( {
	at: time( 'When the attempt was made.' ),
	status: httpStatus( 'The HTTP status answered; null for a network error.' ),
	message: z.string().describe( 'What went wrong.' ),
} );
export type AttemptErrorView = z.infer< typeof ATTEMPT_ERROR >;

/** An endpoint's last attempts of the last 24 h. */
export const ENDPOINT_HEALTH = z.object( {
	recent_attempts: count( 'Attempts in the last 24 hours.' ),
	recent_success_rate: z
		.number()
		.min( 0 )
		.max( 1 )
		.nullable()
		.describe( 'Share of those that succeeded, 0 to 1; null without recent attempts.' ),
	last_error: ATTEMPT_ERROR.nullable().describe( 'The newest failed attempt among them.' ),
} );
export type EndpointHealthView = z.infer< typeof ENDPOINT_HEALTH >;

export const ENDPOINT = z.object( {
	id: z.string().describe( 'Endpoint id.' ),
	url: z.url().describe( 'Where deliveries are POSTed.' ),
	description: z.string().describe( 'A note for the site owner.' ),
	event_types: z.array( z.enum( EVENT_TYPES ) ).describe( 'Event types it receives; empty: all.' ),
	status: z.enum( ENDPOINT_STATUSES ).describe( 'Whether deliveries go out to it.' ),
	disabled_reason: z.string().nullable().describe( 'Why it was disabled.' ),
	disabled_at: maybeTime( 'When it was disabled.' ),
	disabled_by: z
		.enum( DISABLED_BY )
		.nullable()
		.describe( 'Who disabled it: auto (a 410 or a failure streak) or owner.' ),
	failing_since: maybeTime( 'Since when every attempt has failed; null while it succeeds.' ),
	max_concurrency: z.number().int().min( 1 ).describe( 'Deliveries in flight to it at most.' ),
	wc_compat_signature: z.boolean().describe( "Also sign as WooCommerce's own webhooks do (X-WC-Webhook-Signature)." ),
	resend_failed_on_recovery: z
		.boolean()
		.describe( 'When it succeeds again after failing, what ran out of attempts during the failure is sent again.' ),
	secrets: z
		.array( SECRET_INFO )
		.describe( 'Its signing secrets, masked: the current one, and the previous one during a rotation.' ),
	created_at: CREATED_AT,
	updated_at: UPDATED_AT,
	health: ENDPOINT_HEALTH.describe( 'Its attempts of the last 24 hours.' ),
} );
export type EndpointView = z.infer< typeof ENDPOINT >;

export const ENDPOINT_LIST = z.object( {
	endpoints: z.array( ENDPOINT ).describe( 'The endpoints.' ),
} );
export type EndpointListView = z.infer< typeof ENDPOINT_LIST >;

/** Creation and rotation answers: the secret in full, this once. */
export const ENDPOINT_WITH_SECRET = ENDPOINT.extend( {
	secret: z.string().describe( 'The new signing secret, shown only in this answer.' ),
} );
export type EndpointWithSecretView = z.infer< typeof ENDPOINT_WITH_SECRET >;

/** Enabling: how much of what the endpoint missed went out again, or was left out. */
export const ENABLED_ENDPOINT = ENDPOINT.extend( {
	redelivered: z.boolean().describe( 'Whether what it missed while disabled was queued again.' ),
	requeued: count( 'Deliveries queued again.' ),
	skipped: count( 'Deliveries it missed that were left out.' ),
} );
export type EnabledEndpointView = z.infer< typeof ENABLED_ENDPOINT >;

/** A test event queued to one endpoint: its delivery shows in the log like any other. */
export const ENDPOINT_TEST_RESULT = z.object( {
	event_id: z.string().describe( "The test event's id, to find its delivery in the log." ),
	endpoint_id: z.string().describe( 'The endpoint it goes to, and only there.' ),
	type: z.literal( TEST_EVENT_TYPE ).describe( "The test event's type." ),
} );
export type EndpointTestView = z.infer< typeof ENDPOINT_TEST_RESULT >;

export const DELETED = z.object( {
	deleted: z.literal( true ).describe( 'Always true: it is deleted.' ),
	id: z.string().describe( 'The id of what was deleted.' ),
} );
export type DeletedView = z.infer< typeof DELETED >;

export const DELIVERY = z.object( {
	id: z.number().int().describe( 'Delivery id.' ),
	event_id: z.string().describe( 'The event delivered.' ),
	event_type: z.enum( DELIVERED_EVENT_TYPES ).describe( "The event's type." ),
	endpoint_id: z.string().describe( 'The endpoint it goes to.' ),
	status: z.enum( DELIVERY_STATUSES ).describe( "The delivery's status." ),
	attempt_count: count( 'Attempts made.' ),
	next_attempt_at: maybeTime( 'When the next attempt is due; null when none is.' ),
	last_status_code: httpStatus( 'The HTTP status of the last attempt; null without one.' ),
	last_error: z.string().nullable().describe( "The last attempt's error." ),
	resent_on_recovery_at: maybeTime(
		'When it was last sent again because its endpoint succeeded again after failing; null if never.'
	),
	created_at: CREATED_AT,
	updated_at: UPDATED_AT,
} );
export type DeliveryView = z.infer< typeof DELIVERY >;

export const DELIVERY_PAGE = z.object( {
	deliveries: z.array( DELIVERY ).describe( 'The deliveries of this page, newest first.' ),
	...PAGE_FIELDS,
} );
export type DeliveryPageView = z.infer< typeof DELIVERY_PAGE >;

export const ATTEMPT = z.object( {
	attempt_number: z.number().int().min( 1 ).describe( 'Its rank among the attempts, from 1.' ),
	started_at: time( 'When it started.' ),
	duration_ms: count( 'How long it took, in milliseconds.' ),
	status_code: httpStatus( 'The HTTP status answered; null for a network error.' ),
	error_code: z.string().nullable().describe( 'Why it failed, as a code; null when it succeeded.' ),
	response_excerpt: z.string().nullable().describe( "The start of the endpoint's answer." ),
	next_attempt_at: maybeTime( 'When the next attempt was scheduled; null when none was.' ),
	trigger: z
		.enum( ATTEMPT_TRIGGERS )
		.describe( "scheduled: the retry policy's; manual: a replay asked for by the site owner." ),
} );
export type AttemptView = z.infer< typeof ATTEMPT >;

export const EVENT_DETAILS = z.object( {
	event: z
		.object( {
			id: z.string().describe( 'Event id.' ),
			type: z.enum( DELIVERED_EVENT_TYPES ).describe( "The event's type." ),
			timestamp: time( 'When it happened in WordPress.' ),
			ordering_key: z.string().nullable().describe( 'Events with the same key are delivered in order.' ),
			received_at: time( 'When the sidecar received it.' ),
			payload_cleared_at: maybeTime( 'When its payload was cleared, past its retention (data is then null).' ),
			redacted_at: maybeTime( 'When personal data was removed from its payload.' ),
			data: z
				.unknown()
				.meta( { type: [ 'object', 'null' ] } )
				.describe( "The payload's data; null once cleared." ),
		} )
		.describe( 'The event.' ),
	deliveries: z
		.array(
			DELIVERY.extend( {
				attempts: z.array( ATTEMPT ).describe( 'Its attempts, oldest first.' ),
			} )
		)
		.describe( 'Its deliveries, each with its attempts.' ),
} );
export type EventDetailsView = z.infer< typeof EVENT_DETAILS >;

export const REQUEUED = z.object( {
	requeued: count( 'Deliveries queued again.' ),
} );
export type RequeuedView = z.infer< typeof REQUEUED >;

export const RANGE_REPLAY_RESULT = z.object( {
	matched: count( 'Events in the range, at most limit.' ),
	queued: count( 'Of those, deliveries this request queued: new ones and finished ones queued again.' ),
	already_queued: count( 'Of those, deliveries already pending or in flight: they go out once.' ),
	more: z.boolean().describe( 'Whether events beyond limit remain in the range.' ),
	next_from: maybeTime( 'When more: where to start the next replay.' ),
	types: z.array( z.enum( EVENT_TYPES ) ).readonly().describe( 'The event types replayed.' ),
	dry_run: z.boolean().describe( 'Whether this only counted what would be replayed.' ),
} );
export type RangeReplayView = z.infer< typeof RANGE_REPLAY_RESULT >;

export const INBOUND_SECRET_INFO = SECRET_INFO.extend( {
	origin: z
		.enum( SECRET_ORIGINS )
		.describe( "generated: made here, shown once; provided: the remote service's own, pasted in." ),
} );
export type InboundSecretInfoView = z.infer< typeof INBOUND_SECRET_INFO >;

export const INBOUND_SOURCE = z.object( {
	id: z.string().describe( "The source's slug." ),
	scheme: z.enum( INBOUND_SCHEMES ).describe( 'How the provider signs.' ),
	status: z.enum( SOURCE_STATUSES ).describe( 'Whether deliveries from it are accepted.' ),
	description: z.string().describe( 'A note for the site owner.' ),
	tolerance_seconds: count(
		"How old a signed timestamp may be: the source's own, or the sidecar's default (then tolerance_is_default)."
	),
	tolerance_is_default: z.boolean().describe( "Whether tolerance_seconds is the sidecar's default." ),
	secrets: z
		.array( INBOUND_SECRET_INFO )
		.describe( 'Its secrets, masked: the current one, and the previous one during a rotation.' ),
	created_at: CREATED_AT,
	updated_at: UPDATED_AT,
} );
export type InboundSourceView = z.infer< typeof INBOUND_SOURCE >;

export const INBOUND_SOURCE_LIST = z.object( {
	sources: z.array( INBOUND_SOURCE ).describe( 'The sources.' ),
} );
export type InboundSourceListView = z.infer< typeof INBOUND_SOURCE_LIST >;

/** Creation and rotation answers carry the secret in full, once, when it was generated here. */
export const INBOUND_SOURCE_WITH_SECRET = INBOUND_SOURCE.extend( {
	secret: z.string().optional().describe( 'The secret, only in the answer that generated it.' ),
} );
export type InboundSourceWithSecretView = z.infer< typeof INBOUND_SOURCE_WITH_SECRET >;

export const INBOUND_LOG_ENTRY = z.object( {
	id: z.number().int().describe( 'Entry id.' ),
	at: time( 'When the delivery was verified.' ),
	source: z.string().describe( "The source's slug." ),
	outcome: z
		.enum( INBOUND_OUTCOMES )
		.describe( 'What the sender was told: verified only once WordPress reported a 2xx.' ),
	status: z
		.number()
		.int()
		.describe(
			"The verifier's answer to WordPress: 200 (a good signature), the refusal's 4xx, or 503 past WordPress's deadline."
		),
	answer_status: httpStatus(
		'The HTTP status the sender got (202 stored, 200 duplicate, 4xx refused, 5xx not stored); null while unconfirmed.'
	),
	code: z
		.string()
		.nullable()
		.describe( 'The code of the error the sender got (why it was refused, or not stored); null for a 2xx.' ),
	event_id: z.string().nullable().describe( "The provider's event id, when the signature was good." ),
} );
export type InboundLogEntryView = z.infer< typeof INBOUND_LOG_ENTRY >;

export const INBOUND_LOG_PAGE = z.object( {
	entries: z.array( INBOUND_LOG_ENTRY ).describe( 'The entries of this page, newest first.' ),
	...PAGE_FIELDS,
} );
export type InboundLogPageView = z.infer< typeof INBOUND_LOG_PAGE >;

/** GET /status: what WordPress shows on its status screen. */
export const STATUS = z.object( {
	version: z.string().describe( "The sidecar's version." ),
	uptime_s: count( 'Seconds since it started.' ),
	queue: z
		.record( z.enum( [ 'pending', 'in_flight', 'failed', 'cancelled' ] ), z.number().int() )
		.describe( 'Deliveries by state.' ),
	endpoints: z.record( z.enum( ENDPOINT_STATUSES ), z.number().int() ).describe( 'Endpoints by state.' ),
} );
export type StatusView = z.infer< typeof STATUS >;

/**
 * The values the sidecar's API and the WordPress admin page share. This module is bundled into
 * the admin page too (plugin/admin/src/api), so it imports nothing: no Node module may enter it.
 * The PHP side keeps its own copies in one class of constants (ServiceIntegration\Contracts), which
 * tests/php/ContractsTest.php reads against this file.
 */

/** The events WordPress hands over; an endpoint subscribes to a subset (none listed = all). */
export const EVENT_TYPES = [ 'order.created', 'order.paid', 'order.refunded' ] as const;
export type EventType = ( typeof EVENT_TYPES )[ number ];

/**
 * The type of a test event (POST /v1/endpoints/:id/test): signed and delivered like any event,
 * to the one endpoint it was asked for only. WordPress never hands one over, no endpoint
 * subscribes to it, and no replay or redelivery sends it to another endpoint.
 */
export const TEST_EVENT_TYPE = 'service_integration.test';

/** What a delivery or a stored event can be: an order event or a test event. */
export const DELIVERED_EVENT_TYPES = [ ...EVENT_TYPES, TEST_EVENT_TYPE ] as const;
export type DeliveredEventType = ( typeof DELIVERED_EVENT_TYPES )[ number ];

export function isEventType( value: unknown ): value is EventType {
	return typeof value === 'string' && ( EVENT_TYPES as readonly string[] ).includes( value );
}

/**
 * Event ids become the Standard Webhooks `webhook-id`, which is signed as
 * `${id}.${timestamp}.${body}`: a '.' in an id would make that ambiguous.
 */
export const EVENT_ID_PATTERN = /^[A-Za-z0-9_:-]{1,100}$/;

export const DELIVERY_STATUSES = [ 'pending', 'in_flight', 'succeeded', 'failed', 'cancelled' ] as const;
export type DeliveryStatus = ( typeof DELIVERY_STATUSES )[ number ];

/** scheduled: the retry policy's; manual: a replay asked for by the site owner. */
export const ATTEMPT_TRIGGERS = [ 'scheduled', 'manual' ] as const;
export type AttemptTrigger = ( typeof ATTEMPT_TRIGGERS )[ number ];

export const ENDPOINT_STATUSES = [ 'active', 'disabled' ] as const;
export type EndpointStatus = ( typeof ENDPOINT_STATUSES )[ number ];
/** auto: a 410 or a failure streak; owner: the disable route. */
export const DISABLED_BY = [ 'auto', 'owner' ] as const;
export type DisabledBy = ( typeof DISABLED_BY )[ number ];

export const INBOUND_SCHEMES = [ 'standard-webhooks', 'stripe', 'github', 'shopify', 'woocommerce' ] as const;
export type InboundScheme = ( typeof INBOUND_SCHEMES )[ number ];

export const SOURCE_STATUSES = [ 'active', 'disabled' ] as const;
export type SourceStatus = ( typeof SOURCE_STATUSES )[ number ];
/** generated: here, shown once; provided: the remote service's own, pasted in. */
export const SECRET_ORIGINS = [ 'generated', 'provided' ] as const;
export type SecretOrigin = ( typeof SECRET_ORIGINS )[ number ];

/** The slug in the receiving URL; the same rule as the WordPress route. */
export const SOURCE_ID_PATTERN = /^[a-z0-9-]{1,64}$/;

/**
 * What an entry of the inbound verification log says the sender was told, never more than it knows:
 * - verified: the signature is good and the sender got a 2xx (202 stored, 200 duplicate), as
 *   WordPress reported after answering;
 * - refused: the sender got the refusal's 4xx (its code says why);
 * - not_stored: the signature is good but WordPress answered 5xx (its database failed), so the
 *   sender sends it again;
 * - timed_out: the verdict came after WordPress had stopped waiting for it: the sender got 503
 *   sidecar_unreachable and sends it again;
 * - unconfirmed: the signature is good, and WordPress has not reported what it answered (it is
 *   answering, or its report was lost).
 */
export const INBOUND_OUTCOMES = [ 'verified', 'refused', 'not_stored', 'timed_out', 'unconfirmed' ] as const;
export type InboundOutcome = ( typeof INBOUND_OUTCOMES )[ number ];

/**
 * The refusals of an inbound verification (receive.ts), which WordPress passes to the sender
 * unchanged: docs/api/inbound-webhooks.md lists them. Any other answer of the sidecar is not the
 * sender's business: WordPress answers 503 sidecar_unreachable and logs it.
 */
export const INBOUND_REFUSAL_CODES = [
	'unknown_source',
	'source_disabled',
	'missing_signature',
	'malformed_signature',
	'invalid_signature',
	'stale_timestamp',
	'missing_event_id',
	'invalid_utf8',
	'invalid_json',
	'invalid_payload',
] as const;
export type InboundRefusalCode = ( typeof INBOUND_REFUSAL_CODES )[ number ];

/**
 * The sidecar's 503 codes about its own database (shared store), with Retry-After:
 * - store_unavailable: the database cannot be reached (connection refused or lost, or no
 *   answer at all within the statement deadline);
 * - store_busy: the database answered that a statement timed out or waited too long for a row
 *   lock (or chose it as a deadlock's victim); it is up, retry shortly.
 * Nothing was stored in either case. The admin page translates them (ErrorNotice).
 */
export const STORE_ERROR_CODES = [ 'store_unavailable', 'store_busy' ] as const;
export type StoreErrorCode = ( typeof STORE_ERROR_CODES )[ number ];

/**
 * The codes of the sidecar API's refusals that reach the admin page and WP-CLI through
 * WordPress (with an English message WordPress replaces by its translation, Sidecar_Messages):
 * a new code added to an answer belongs here, and tests/php/SidecarMessagesTest.php fails
 * while it has no translated message.
 */
export const API_ERROR_CODES = [
	'invalid_json',
	'invalid_body',
	'invalid_query',
	'invalid_url',
	'unsupported_scheme',
	'credentials_in_url',
	'port_not_allowed',
	'blocked_address',
	'invalid_event_type',
	'invalid_secret',
	'invalid_to',
	'invalid_from',
	'invalid_limit',
	'invalid_types',
	'invalid_dry_run',
	'endpoint_not_found',
	'endpoint_disabled',
	'event_not_found',
	'source_not_found',
	'source_exists',
	'log_entry_not_found',
	'replay_conflict',
	'payload_cleared',
	'body_too_large',
	'bad_request',
	'not_found',
	'method_not_allowed',
	'internal_error',
	'store_unavailable',
	'store_busy',
] as const;
export type ApiErrorCode = ( typeof API_ERROR_CODES )[ number ];

/**
 * WordPress's deadline for a verdict, Unix milliseconds: the receiving route stops waiting then and
 * answers the sender 503 sidecar_unreachable, so a verdict reached after it is logged as timed_out.
 */
export const INBOUND_DEADLINE_HEADER = 'x-si-deadline-ms';

/** WordPress forwards the provider's headers under this prefix (`x-si-fwd-stripe-signature`). */
export const FORWARDED_HEADER_PREFIX = 'x-si-fwd-';

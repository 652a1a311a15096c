<?php
/**
 * The patterns, prefixes and value lists the plugin shares with the sidecar, in one place.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Each value mirrors the sidecar's own (named next to it); the routes, the receiving route and
 * the argument schemas read them from here.
 */
final class Contracts {

	/** An event id: 1 to 100 of A-Z a-z 0-9 _ : - (no dot: ids are signed as id.timestamp.body). Sidecar: EVENT_ID_PATTERN. */
	const EVENT_ID_PATTERN = '[A-Za-z0-9_:-]{1,100}';

	/** An endpoint id (the sidecar makes them, ep_…; the same characters as event ids). */
	const ENDPOINT_ID_PATTERN = '[A-Za-z0-9_:-]{1,100}';

	/** An inbound source's slug, the last segment of its receiving URL. Sidecar: SOURCE_ID_PATTERN. */
	const SOURCE_SLUG_PATTERN = '[a-z0-9-]{1,64}';

	/** The prefix under which the receiving route forwards a provider's headers to the sidecar. */
	const FORWARD_HEADER_PREFIX = 'x-si-fwd-';

	/** The outbound event types. Sidecar: EVENT_TYPES (sidecar/src/outbound/event-types.ts). */
	const EVENT_TYPES = array( 'order.created', 'order.paid', 'order.refunded' );

	/** A delivery's statuses. Sidecar: DELIVERY_STATUSES. */
	const DELIVERY_STATUSES = array( 'pending', 'in_flight', 'succeeded', 'failed', 'cancelled' );

	/** The signature schemes of inbound sources. Sidecar: INBOUND_SCHEMES. */
	const INBOUND_SCHEMES = array( 'standard-webhooks', 'stripe', 'github', 'shopify', 'woocommerce' );

	/** An inbound source's statuses. Sidecar: SOURCE_STATUSES. */
	const SOURCE_STATUSES = array( 'active', 'disabled' );

	/** What an entry of the sidecar's inbound verification log says the sender was told. Sidecar: INBOUND_OUTCOMES. */
	const INBOUND_OUTCOMES = array( 'verified', 'refused', 'not_stored', 'timed_out', 'unconfirmed' );

	/** The refusals of an inbound verification, passed to the sender unchanged. Sidecar: INBOUND_REFUSAL_CODES. */
	const INBOUND_REFUSAL_CODES = array( 'unknown_source', 'source_disabled', 'missing_signature', 'malformed_signature', 'invalid_signature', 'stale_timestamp', 'missing_event_id', 'invalid_utf8', 'invalid_json', 'invalid_payload' );

	/** The header carrying the receiving route's deadline for a verdict (Unix milliseconds). Sidecar: INBOUND_DEADLINE_HEADER. */
	const INBOUND_DEADLINE_HEADER = 'x-si-deadline-ms';

	/**
	 * A pattern as a whole-value JSON Schema pattern.
	 *
	 * @param string $pattern One of the patterns above.
	 */
	public static function anchored( string $pattern ): string {
		return '^' . $pattern . '$';
	}
}

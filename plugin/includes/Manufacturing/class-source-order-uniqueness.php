<?php
/**
 * Optionally, one live manufacturing order per commerce order (`source_order_id`).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

use ServiceIntegration\Support\Clock;
use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Support\Option_Lock;
use ServiceIntegration\Support\Options;
use WP_Error;
use WP_REST_Request;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Off by default (a site may make several manufacturing orders from one commerce order).
 * On (the setting, or the filter), the REST routes refuse a record whose `source_order_id`
 * another live record (any status but trash) already has: 409 `manufacturing_order_exists`
 * with that record's id, which an automation can read instead of creating.
 *
 * The check and the write run under a lock per source order (Option_Lock), so concurrent
 * requests for one commerce order, with or without an Idempotency-Key, make one record.
 * `0`, the field's default, names no commerce order and is never checked.
 *
 * One instance, built in Plugin with WordPress's connection, the system clock (the locks'
 * expiry) and options; the decisions are Source_Order_Rule's. A failed query (the lock, the
 * live records) is a WP_Error (Database_Error), never "none": the write does not run on a check
 * that did not happen.
 */
final class Source_Order_Uniqueness {

	/**
	 * The setting (a boolean; in REST at /wp/v2/settings, for administrators).
	 */
	const OPTION = 'service_integration_unique_source_order_id';

	/**
	 * The filter that decides, given the setting.
	 */
	const FILTER = 'service_integration_unique_source_order_id';

	/**
	 * How long a lock holds if its request dies, and how long a request waits for it.
	 */
	const LOCK_TTL  = 60;
	const LOCK_WAIT = 10.0;

	/**
	 * The lock's option name, before the source order's id.
	 */
	const LOCK_PREFIX = 'service_integration_source_order_lock_';

	/**
	 * Constructor.
	 *
	 * @param \wpdb   $db      The database (the live records, read past any cache, and the locks).
	 * @param Clock   $clock   Time of the locks' expiry.
	 * @param Options $options The setting.
	 */
	public function __construct( private \wpdb $db, private Clock $clock, private Options $options ) {
	}

	/**
	 * Registers the setting.
	 */
	public function register(): void {
		add_action( 'init', array( $this, 'register_setting' ) );
	}

	/**
	 * The setting, so administrators switch it from REST (`/wp/v2/settings`) or WP-CLI
	 * (`wp option update`).
	 */
	public function register_setting(): void {
		register_setting(
			'service_integration',
			self::OPTION,
			array(
				'type'              => 'boolean',
				'description'       => __( 'Refuse a manufacturing order whose source order already has a live one.', 'service-integration' ),
				'default'           => false,
				'sanitize_callback' => 'rest_sanitize_boolean',
				'show_in_rest'      => true,
			)
		);
	}

	/**
	 * Whether source_order_id is unique among live records.
	 */
	public function is_enabled(): bool {
		/**
		 * Filters whether a manufacturing order's source_order_id must be unique among live
		 * records (not trashed). Default: the `service_integration_unique_source_order_id` setting.
		 *
		 * @since 0.3.0
		 *
		 * @param bool $unique Whether it must be unique.
		 */
		return (bool) apply_filters( 'service_integration_unique_source_order_id', (bool) $this->options->get( self::OPTION, false ) );
	}

	/**
	 * Runs a write of a record unless it would give a second live record the same source order.
	 *
	 * @param WP_REST_Request $request Request (its `meta.source_order_id`).
	 * @param int             $own_id  The record being updated (0 for a new one): it does not count.
	 * @param callable        $write   Does the write: WP_REST_Request => WP_REST_Response|WP_Error.
	 * @return \WP_REST_Response|WP_Error
	 */
	public function guard( WP_REST_Request $request, int $own_id, callable $write ) {
		$source = Source_Order_Rule::source_of( $request->get_param( 'meta' ) );
		if ( ! Source_Order_Rule::applies( $source, $this->is_enabled() ) ) {
			return $write( $request );
		}
		$lock  = new Option_Lock( $this->db, $this->clock, self::LOCK_PREFIX . $source );
		$taken = $lock->acquire( self::LOCK_TTL, self::LOCK_WAIT );
		if ( is_wp_error( $taken ) ) {
			return $taken;
		}
		if ( ! $taken ) {
			return new WP_Error(
				'manufacturing_order_locked',
				__( 'Another request is writing a manufacturing order for this source order. Retry in a moment.', 'service-integration' ),
				array( 'status' => 409 )
			);
		}
		try {
			$existing = $this->live_record( $source, $own_id );
			if ( is_wp_error( $existing ) ) {
				return $existing;
			}
			$refusal = Source_Order_Rule::refusal( $source, $existing );
			if ( $refusal ) {
				return $refusal;
			}
			return $write( $request );
		} finally {
			$lock->release();
		}
	}

	/**
	 * The oldest live record of a source order, other than $own_id; read from the database,
	 * not a cache, since a concurrent request may have written it a moment ago.
	 *
	 * @param int $source Source order id.
	 * @param int $own_id Record to leave out.
	 * @return int|WP_Error The record's id, 0 for none.
	 */
	public function live_record( int $source, int $own_id ) {
		$id = $this->db->get_var(
			$this->db->prepare(
				"SELECT p.ID FROM {$this->db->posts} p INNER JOIN {$this->db->postmeta} m ON m.post_id = p.ID AND m.meta_key = 'source_order_id' WHERE p.post_type = %s AND p.post_status NOT IN ('trash', 'auto-draft', 'inherit') AND m.meta_value = %s AND p.ID <> %d ORDER BY p.ID ASC LIMIT 1",
				Manufacturing_Order_Type::POST_TYPE,
				(string) $source,
				$own_id
			)
		);
		return Database_Error::of( $this->db, $id, 'manufacturing orders: find the live record of a source order' ) ?? (int) $id;
	}
}

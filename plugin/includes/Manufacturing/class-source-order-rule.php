<?php
/**
 * The one-live-record-per-source-order rule's decisions, on plain values.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Pure (tests/php/SourceOrderTest.php, tests/php/SourceOrderRuleTest.php): which source order a
 * request names, whether the rule looks at it, and the refusal when another live record has it.
 * Source_Order_Uniqueness reads the setting and the database, and holds the lock.
 */
final class Source_Order_Rule {

	/**
	 * The source order a request's meta names: a positive id (a numeric one cut to its whole
	 * part), or 0 for none (absent, not a number, zero or below), which the rule leaves alone.
	 *
	 * @param mixed $meta The request's meta parameter.
	 */
	public static function source_of( $meta ): int {
		$source = is_array( $meta ) && isset( $meta['source_order_id'] ) && is_numeric( $meta['source_order_id'] ) ? (int) $meta['source_order_id'] : 0;
		return max( 0, $source );
	}

	/**
	 * Whether a write naming $source is checked: the rule is on and the source names an order.
	 *
	 * @param int  $source  Source order id (source_of()).
	 * @param bool $enabled Whether source orders are unique on the site.
	 */
	public static function applies( int $source, bool $enabled ): bool {
		return $enabled && $source > 0;
	}

	/**
	 * The refusal of a write whose source order already has the live record $existing, or null
	 * when it has none (0): 409 `manufacturing_order_exists`, with that record's id for the
	 * automation to use instead.
	 *
	 * @param int $source   Source order id.
	 * @param int $existing The oldest other live record with it, 0 for none.
	 */
	public static function refusal( int $source, int $existing ): ?WP_Error {
		if ( $existing <= 0 ) {
			return null;
		}
		return new WP_Error(
			'manufacturing_order_exists',
			/* translators: 1: the source order id, 2: the existing manufacturing order's id. */
			sprintf( __( 'Source order %1$d already has a manufacturing order: %2$d.', 'service-integration' ), $source, $existing ),
			array(
				'status'          => 409,
				'id'              => $existing,
				'source_order_id' => $source,
			)
		);
	}
}

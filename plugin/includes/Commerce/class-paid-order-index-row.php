<?php
/**
 * One row of the paid-orders index, to and from its columns.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What Paid_Order_Index writes for an order (its sort keys, the walk's generation and the
 * snapshot as JSON) and what it accepts back as a snapshot. Pure.
 */
final class Paid_Order_Index_Row {

	/** The columns' wpdb formats, in the order of().
	 */
	const FORMATS = array( '%d', '%d', '%d', '%d', '%d', '%s' );

	/**
	 * The row's columns.
	 *
	 * @param int                  $order_id    Order id.
	 * @param int                  $paid_at     Paid moment (UTC timestamp; 0 for none).
	 * @param int                  $created_at  Creation time (UTC timestamp).
	 * @param int                  $modified_at Last modification (UTC timestamp).
	 * @param int                  $generation  The walk the row is written during.
	 * @param array<string, mixed> $snapshot    Paid_Order_Snapshot::of() the order.
	 * @return array{order_id: int, paid_at: int, created_at: int, modified_at: int, generation: int, snapshot: string}
	 */
	public static function of( int $order_id, int $paid_at, int $created_at, int $modified_at, int $generation, array $snapshot ): array {
		return array(
			'order_id'    => $order_id,
			'paid_at'     => $paid_at,
			'created_at'  => $created_at,
			'modified_at' => $modified_at,
			'generation'  => $generation,
			// As the route serves it: UTF-8 as is, slashes unescaped.
			'snapshot'    => (string) wp_json_encode( $snapshot, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ),
		);
	}

	/**
	 * The snapshot a snapshot column holds, or null when it holds none (not JSON, not an
	 * object, or without the order's id): such a row is never served as an order.
	 *
	 * @param mixed $json The column's value.
	 * @return array<string, mixed>|null
	 */
	public static function snapshot( $json ): ?array {
		$snapshot = json_decode( (string) $json, true );
		return is_array( $snapshot ) && isset( $snapshot['id'] ) ? $snapshot : null;
	}
}

<?php
/**
 * The paid moment as wc_get_orders() arguments, on both order storages.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * "Paid moment within a range" is two sets WooCommerce can each be asked for, and whose union it
 * is (Paid_Moment::of()): orders whose recorded moment is in the range, and orders with none
 * recorded whose date_paid is. They never share an order, so counts add up.
 *
 * The recorded moment is order meta. HPOS takes a `meta_query` in wc_get_orders() (its
 * OrdersTableMetaQuery); the posts storage refuses one there (WC_Order_Data_Store_CPT::query()
 * lists it as unsupported) and takes it through its documented query filter,
 * `woocommerce_order_data_store_cpt_get_orders_query`, as WooCommerce's guide to custom query
 * variables shows: the clause travels as the query variable QUERY_VAR and joins the WP_Query's
 * meta_query there.
 */
final class Paid_Moment_Query {

	/**
	 * The query variable carrying a meta clause to the posts storage.
	 */
	const QUERY_VAR = 'service_integration_paid_moment';

	/**
	 * Registers the posts storage's query filter.
	 */
	public static function register(): void {
		add_filter( 'woocommerce_order_data_store_cpt_get_orders_query', array( self::class, 'posts_query' ), 10, 2 );
	}

	/**
	 * The filter sets whose union is "paid moment within the range".
	 *
	 * @param int      $from First second (UTC timestamp), inclusive.
	 * @param int|null $to   Last second, inclusive; null for none.
	 * @return array<int, array<string, mixed>> wc_get_orders() arguments, one set each.
	 */
	public static function sets( int $from, ?int $to ): array {
		$recorded   = array(
			'key'     => Paid_Moment::META_KEY,
			'value'   => null === $to ? $from : array( $from, $to ),
			'compare' => null === $to ? '>=' : 'BETWEEN',
			'type'    => 'NUMERIC',
		);
		$unrecorded = array(
			'key'     => Paid_Moment::META_KEY,
			'compare' => 'NOT EXISTS',
		);
		return array(
			self::meta( $recorded ),
			self::meta( $unrecorded ) + array( 'date_paid' => self::date_argument( $from, $to ) ),
		);
	}

	/**
	 * A wc_get_orders() date argument of inclusive bounds in UTC timestamps ('>=A' or 'A...B'),
	 * the forms both order storages read with second precision.
	 *
	 * @param int      $from First second.
	 * @param int|null $to   Last second, if any.
	 */
	public static function date_argument( int $from, ?int $to ): string {
		return null === $to ? '>=' . $from : $from . '...' . $to;
	}

	/**
	 * A meta clause as the storage WooCommerce reads takes it.
	 *
	 * @param array<string, mixed> $clause Meta clause.
	 * @return array<string, mixed>
	 */
	private static function meta( array $clause ): array {
		$hpos = class_exists( '\Automattic\WooCommerce\Utilities\OrderUtil' ) && \Automattic\WooCommerce\Utilities\OrderUtil::custom_orders_table_usage_is_enabled();
		// phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_query -- bounded by the paid statuses and a limit.
		return $hpos ? array( 'meta_query' => array( $clause ) ) : array( self::QUERY_VAR => $clause );
	}

	/**
	 * The posts storage's WP_Query arguments: the clause joins its meta_query.
	 *
	 * @param array<string, mixed> $args       WP_Query arguments.
	 * @param array<string, mixed> $query_vars wc_get_orders() arguments.
	 * @return array<string, mixed>
	 */
	public static function posts_query( $args, $query_vars ) {
		if ( is_array( $args ) && is_array( $query_vars ) && isset( $query_vars[ self::QUERY_VAR ] ) ) {
			unset( $args[ self::QUERY_VAR ] );
			$args['meta_query']   = isset( $args['meta_query'] ) ? (array) $args['meta_query'] : array(); // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_query -- the same clause as above, bounded by the paid statuses and a limit.
			$args['meta_query'][] = $query_vars[ self::QUERY_VAR ];
		}
		return $args;
	}
}

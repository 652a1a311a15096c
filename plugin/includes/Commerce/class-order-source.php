<?php
/**
 * Where the site's orders are read from now: what decides which orders exist.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The paid-orders index records the source it was walked from, and does not serve once the
 * source differs: a site switched from HPOS to posts storage (or back, or to another order data
 * store) reads other orders, and rows of the orders it no longer has must not be served.
 *
 * - commerce: whether WooCommerce is loaded;
 * - storage: its authoritative order storage, HPOS or posts
 *   (OrderUtil::custom_orders_table_usage_is_enabled(), the woocommerce_custom_orders_table_enabled
 *   option; with compatibility mode's sync on, the other storage is a copy, not the source);
 * - data_store: the order data store WooCommerce loads (WC_Data_Store::load( 'order' ), which
 *   the woocommerce_order_data_store filter can replace altogether).
 *
 * The table prefix and the database are not recorded: the index table and its state live in the
 * same database, under the same prefix, as the orders.
 */
final class Order_Source {

	/**
	 * The source now.
	 *
	 * @return array{commerce: string, storage: string, data_store: string}
	 */
	public static function current(): array {
		if ( ! Paid_Orders::is_available() ) {
			return array(
				'commerce'   => 'none',
				'storage'    => '',
				'data_store' => '',
			);
		}
		$hpos = class_exists( '\Automattic\WooCommerce\Utilities\OrderUtil' ) && \Automattic\WooCommerce\Utilities\OrderUtil::custom_orders_table_usage_is_enabled();
		try {
			$data_store = \WC_Data_Store::load( 'order' )->get_current_class_name();
		} catch ( \Exception $e ) {
			$data_store = '';
		}
		return array(
			'commerce'   => 'woocommerce',
			'storage'    => $hpos ? 'hpos' : 'posts',
			'data_store' => (string) $data_store,
		);
	}
}

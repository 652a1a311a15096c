<?php
/**
 * Plugin Name: Service Integration – local environment order storage
 * Description: Mounted only by `npm start` and the end-to-end suite (never shipped): runs real WooCommerce on the order storage the environment asks for (WOOCOMMERCE_HPOS, passed as the constant SERVICE_INTEGRATION_LOCAL_ORDER_STORAGE): 'hpos' (custom order tables) or 'legacy' (posts).
 *
 * @package ServiceIntegration
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

$service_integration_order_storage = defined( 'SERVICE_INTEGRATION_LOCAL_ORDER_STORAGE' ) ? (string) SERVICE_INTEGRATION_LOCAL_ORDER_STORAGE : 'hpos';

if ( 'legacy' === $service_integration_order_storage ) {
	/*
	 * Legacy post storage: WooCommerce reads its storage switch through get_option()
	 * (OrderUtil::custom_orders_table_usage_is_enabled() → CustomOrdersTableController), so
	 * the option's pre-filter decides. WooCommerce would also switch a new shop to HPOS on
	 * its first admin request (WC_Install::newly_installed() → maybe_enable_hpos()); its
	 * filter keeps the stored option saying what the site runs.
	 */
	add_filter(
		'pre_option_woocommerce_custom_orders_table_enabled',
		static function (): string {
			return 'no';
		}
	);
	add_filter( 'woocommerce_enable_hpos_by_default_for_new_shops', '__return_false' );
	return;
}

/*
 * HPOS: the default for a new WooCommerce 8.2+ shop, but WooCommerce switches it on only in
 * WC_Install::newly_installed(), on admin_init, i.e. on a wp-admin or admin-ajax request after
 * activation, and only while the shop has no order (should_enable_hpos_for_new_shop()). Under
 * Playground, with only REST requests from outside, an admin request none of our clients made
 * (auto-login or a loopback; not pinned down) switched it a few requests after activation
 * (10.0.2 on WordPress 7.1): orders created before that land in posts and keep the shop there. So, once WooCommerce has loaded
 * normally (not in the request that activated it), switch it on the way that handler does:
 * FeaturesController::change_feature_enable( 'custom_order_tables', true ), whose option
 * pre-update handler (CustomOrdersTableController::process_pre_update_option) creates the
 * tables and refuses while orders are out of sync.
 */
add_action(
	'wp_loaded',
	static function (): void {
		// A plugin that pre-filters the switch (a test fixture running the other storage) decides.
		if ( ! did_action( 'woocommerce_init' ) || ! function_exists( 'wc_get_container' )
			|| ! class_exists( 'Automattic\WooCommerce\Internal\Features\FeaturesController' )
			|| has_filter( 'pre_option_woocommerce_custom_orders_table_enabled' )
			|| 'yes' === get_option( 'woocommerce_custom_orders_table_enabled' ) ) {
			return;
		}
		try {
			wc_get_container()->get( 'Automattic\WooCommerce\Internal\Features\FeaturesController' )->change_feature_enable( 'custom_order_tables', true );
			$problem = 'yes' === get_option( 'woocommerce_custom_orders_table_enabled' ) ? '' : 'WooCommerce kept the option off (its tables could not be created?)';
		} catch ( \Exception $e ) {
			$problem = $e->getMessage();
		}
		if ( '' !== $problem ) {
			error_log( 'service-integration local environment: cannot switch WooCommerce to HPOS: ' . $problem ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log
		}
	},
	20
);

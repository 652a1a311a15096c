<?php
/**
 * Plugin Name: BENCH ONLY – WooCommerce order seeder
 * Description: For bench/paid-orders.ts: an administrator-only REST route that sets up a shop (EUR, a 20 % VAT rate, simple products), and the seeding that seed-cli.php runs, which creates orders through WooCommerce's own API (wc_create_order(), add_product(), addresses, payment method, calculate_totals(), status, date paid). Linked into the benchmark's own site by the benchmark only. Never ship it, never activate it on a real site.
 * Version: 1.0.0
 * Requires Plugins: woocommerce
 *
 * @package ServiceIntegrationBench
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/*
 * The seeding sends no mail: WooCommerce would otherwise build (and try to send) its
 * new-order and processing/completed e-mails for every order. WooCommerce registers its
 * e-mail triggers on `init` from this filter, so it is added here, at plugin load, for this
 * plugin's requests only (seed-cli.php presents itself as one).
 */
if ( isset( $_SERVER['REQUEST_URI'] ) && false !== strpos( (string) $_SERVER['REQUEST_URI'], 'si-bench-wc/v1/' ) ) { // phpcs:ignore WordPress.Security.ValidatedSanitizedInput
	add_filter( 'woocommerce_email_actions', '__return_empty_array', PHP_INT_MAX );
	add_filter( 'pre_wp_mail', '__return_false' );
}

add_action(
	'rest_api_init',
	static function (): void {
		$admin_only = static function (): bool {
			return current_user_can( 'manage_woocommerce' );
		};
		register_rest_route(
			'si-bench-wc/v1',
			'/setup',
			array(
				'methods'             => 'POST',
				'permission_callback' => $admin_only,
				'callback'            => 'si_bench_wc_setup',
			)
		);
	}
);

/**
 * The shop as an EU shop runs it: euros, taxes on (one 20 % rate for every country, shipping
 * taxed too), and the catalogue given ({name, sku, price}), as simple products.
 *
 * @param WP_REST_Request $request Request: {products: [{name, sku, price}]}.
 * @return array<string, mixed>
 */
function si_bench_wc_setup( WP_REST_Request $request ): array {
	update_option( 'woocommerce_currency', 'EUR' );
	update_option( 'woocommerce_default_country', 'FR' );
	update_option( 'woocommerce_calc_taxes', 'yes' );
	update_option( 'woocommerce_prices_include_tax', 'no' );
	// No cancelling of unpaid orders (WooCommerce's hold-stock cron): the pending templates must
	// stay pending while their copies are written, in a run hours after they were seeded.
	update_option( 'woocommerce_hold_stock_minutes', '' );
	if ( array() === WC_Tax::find_rates( array( 'country' => 'FR' ) ) ) {
		WC_Tax::_insert_tax_rate(
			array(
				'tax_rate_country'  => '',
				'tax_rate_state'    => '',
				'tax_rate'          => '20.0000',
				'tax_rate_name'     => 'TVA',
				'tax_rate_priority' => 1,
				'tax_rate_compound' => 0,
				'tax_rate_shipping' => 1,
				'tax_rate_order'    => 0,
				'tax_rate_class'    => '',
			)
		);
	}
	$products = array();
	foreach ( (array) $request['products'] as $spec ) {
		// A restored seed cache already has the catalogue: the same SKUs, the same products.
		$existing = wc_get_product_id_by_sku( (string) $spec['sku'] );
		if ( $existing ) {
			$products[] = array(
				'id'    => $existing,
				'price' => wc_get_product( $existing )->get_price(),
			);
			continue;
		}
		$product = new WC_Product_Simple();
		$product->set_name( (string) $spec['name'] );
		$product->set_sku( (string) $spec['sku'] );
		$product->set_regular_price( (string) $spec['price'] );
		$product->set_status( 'publish' );
		$product->save();
		$products[] = array(
			'id'    => $product->get_id(),
			'price' => $product->get_price(),
		);
	}
	return array( 'products' => $products );
}

/**
 * Hooks a seeding request turns off: WooCommerce Analytics' import of each new or updated
 * order (OrdersScheduler::possibly_schedule_import schedules an Action Scheduler job per
 * order; WooCommerce 9.4 and 10.0 have no option for it), and the plugin's outbound order
 * events (order.created / order.paid for tens of thousands of orders would flood the
 * outbox and the sidecar). Everything else WooCommerce and the plugin hook on orders runs.
 */
function si_bench_wc_quiet_hooks(): void {
	$scheduler = 'Automattic\WooCommerce\Internal\Admin\Schedulers\OrdersScheduler';
	remove_action( 'woocommerce_update_order', array( $scheduler, 'possibly_schedule_import' ) );
	remove_filter( 'woocommerce_create_order', array( $scheduler, 'possibly_schedule_import' ) );
	$events = 'ServiceIntegration\Outbound\Order_Events';
	foreach ( array(
		'woocommerce_new_order'                => 'on_created',
		'woocommerce_payment_complete'         => 'on_payment_complete',
		'woocommerce_order_status_changed'     => 'on_status_changed',
		'woocommerce_order_partially_refunded' => 'on_partial_refund',
		'woocommerce_order_fully_refunded'     => 'on_full_refund',
		'woocommerce_order_refunded'           => 'on_refunded',
	) as $hook => $method ) {
		remove_action( $hook, array( $events, $method ), 20 );
	}
}

/**
 * Creates the orders given (any iterable of specs, e.g. a generator reading a stream), one by
 * one, through WooCommerce's API, each in a database transaction of its own (so MariaDB syncs
 * its log once an order, not once a statement), with the seeding hooks quiet. Run by
 * seed-cli.php (one PHP process for a whole checkpoint of orders).
 *
 * Each spec: status, customer_note, cart_hash, billing{}, shipping{}, payment_method,
 * payment_method_title, transaction_id, customer_ip_address, customer_user_agent,
 * date_created (ISO 8601), date_paid (ISO 8601, paid orders), line_items [{product_id,
 * quantity, meta_data [{key, value}]}], shipping_lines [{method_id, method_title,
 * instance_id, total}], meta_data [{key, value}]. Totals and taxes are WooCommerce's own
 * (calculate_totals()).
 *
 * @param iterable<array<string, mixed>> $specs    Order specs.
 * @param callable|null                  $progress Called with the count created so far after each order.
 * @return int[] The ids created.
 * @throws Throwable What WooCommerce or MariaDB threw; the order being created is rolled back.
 */
function si_bench_wc_seed( iterable $specs, ?callable $progress = null ): array {
	global $wpdb;
	si_bench_wc_quiet_hooks();
	/*
	 * Transients as a site with a persistent object cache keeps them: in the cache, not in
	 * wp_options. Every order save clears WooCommerce's report transients
	 * (wc_delete_shop_order_transients(): some 85 delete_transient() calls, each a SELECT and
	 * DELETEs on wp_options without an object cache), about 40 % of a seeded order's queries.
	 * Seeding only: the cache here is the process's own, so nothing is kept or served from it.
	 */
	$was_using_cache = wp_using_ext_object_cache( true );
	$products        = array();
	$ids             = array();
	try {
		foreach ( $specs as $spec ) {
			// One transaction an order: its statements synced once, and no row lock (a product's
			// total_sales) held for longer than an order against the site's own cron runs.
			$wpdb->query( 'START TRANSACTION' ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
			$ids[] = si_bench_wc_create_order( (array) $spec, $products );
			if ( preg_match( '/deadlock|lock wait timeout/i', (string) $wpdb->last_error ) ) {
				throw new RuntimeException( 'MariaDB: ' . $wpdb->last_error );
			}
			$wpdb->query( 'COMMIT' ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
			if ( 0 === count( $ids ) % 25 ) {
				// The runtime cache would otherwise hold every order seeded so far.
				wp_cache_flush_runtime();
			}
			if ( $progress ) {
				$progress( count( $ids ) );
			}
		}
	} catch ( Throwable $error ) {
		$wpdb->query( 'ROLLBACK' ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
		wp_using_ext_object_cache( $was_using_cache );
		throw $error;
	}
	wp_using_ext_object_cache( $was_using_cache );
	return $ids;
}

/**
 * One order, the way a checkout leaves it.
 *
 * @param array<string, mixed>    $spec     Order spec.
 * @param array<int, WC_Product>  $products Products loaded so far, by id.
 * @return int The order's id.
 * @throws RuntimeException When WooCommerce refuses.
 */
function si_bench_wc_create_order( array $spec, array &$products ): int {
	$order = wc_create_order(
		array(
			'status'        => 'pending',
			'customer_id'   => 0,
			'customer_note' => (string) ( $spec['customer_note'] ?? '' ),
			'created_via'   => 'checkout',
			'cart_hash'     => (string) ( $spec['cart_hash'] ?? '' ),
		)
	);
	if ( is_wp_error( $order ) ) {
		throw new RuntimeException( 'wc_create_order: ' . $order->get_error_message() );
	}
	foreach ( (array) ( $spec['line_items'] ?? array() ) as $line ) {
		$id = (int) $line['product_id'];
		if ( ! isset( $products[ $id ] ) ) {
			$product = wc_get_product( $id );
			if ( ! $product ) {
				throw new RuntimeException( "no product {$id}" );
			}
			$products[ $id ] = $product;
		}
		$item_id = $order->add_product( $products[ $id ], (int) $line['quantity'] );
		$item    = $order->get_item( $item_id );
		if ( $item ) {
			foreach ( (array) ( $line['meta_data'] ?? array() ) as $meta ) {
				$item->add_meta_data( (string) $meta['key'], $meta['value'], true );
			}
		}
	}
	foreach ( array( 'billing', 'shipping' ) as $type ) {
		foreach ( (array) ( $spec[ $type ] ?? array() ) as $key => $value ) {
			$setter = "set_{$type}_{$key}";
			if ( is_callable( array( $order, $setter ) ) ) {
				$order->$setter( (string) $value );
			}
		}
	}
	foreach ( (array) ( $spec['shipping_lines'] ?? array() ) as $line ) {
		$shipping = new WC_Order_Item_Shipping();
		$shipping->set_method_id( (string) $line['method_id'] );
		$shipping->set_method_title( (string) $line['method_title'] );
		$shipping->set_instance_id( (string) $line['instance_id'] );
		$shipping->set_total( (string) $line['total'] );
		$order->add_item( $shipping );
	}
	$order->set_currency( (string) ( $spec['currency'] ?? 'EUR' ) );
	$order->set_payment_method( (string) ( $spec['payment_method'] ?? '' ) );
	$order->set_payment_method_title( (string) ( $spec['payment_method_title'] ?? '' ) );
	$order->set_transaction_id( (string) ( $spec['transaction_id'] ?? '' ) );
	$order->set_customer_ip_address( (string) ( $spec['customer_ip_address'] ?? '' ) );
	$order->set_customer_user_agent( (string) ( $spec['customer_user_agent'] ?? '' ) );
	foreach ( (array) ( $spec['meta_data'] ?? array() ) as $meta ) {
		$order->add_meta_data( (string) $meta['key'], $meta['value'], true );
	}
	$order->set_date_created( (int) strtotime( (string) $spec['date_created'] ) );
	if ( ! empty( $spec['date_paid'] ) ) {
		$paid = (int) strtotime( (string) $spec['date_paid'] );
		// Before the status: WooCommerce stamps "now" on an order turning paid without a date.
		$order->set_date_paid( $paid );
		if ( 'completed' === $spec['status'] ) {
			$order->set_date_completed( $paid + 2 * DAY_IN_SECONDS );
		}
	}
	$order->set_status( (string) $spec['status'] );
	// Taxes from the shop's rate, totals, then one save (with the status transition's hooks).
	$order->calculate_totals( true );
	return $order->get_id();
}

<?php
/**
 * BENCH ONLY: checks a shop seeded by bench/support/wc-sql-multiply.ts, through WooCommerce's
 * own API, in one php-cli process against the bench's site. Prints one JSON object.
 *
 * Usage:
 *   php verify-cli.php <docroot> index
 *       The plugin's paid-orders index against WooCommerce's own paid-status query
 *       (wc_get_orders() for wc_get_is_paid_statuses(), ids only): how many ids each holds,
 *       and the ids in one and not the other (the first ten).
 *   php verify-cli.php <docroot> copies '<json [[copy id, template id], ...]>'
 *       Each copy read back through wc_get_order(), its get_data() with its items' and meta's
 *       (ids dropped), against its template's: the keys that differ, per pair.
 *
 * @package ServiceIntegrationBench
 */

if ( 'cli' !== PHP_SAPI ) {
	exit( 1 );
}
$si_bench_docroot = $argv[1] ?? '';
$si_bench_command = $argv[2] ?? '';
if ( '' === $si_bench_docroot || ! is_file( $si_bench_docroot . '/wp-load.php' ) ) {
	fwrite( STDERR, "Usage: php verify-cli.php <WordPress docroot> index|copies [pairs]\n" );
	exit( 2 );
}
$_SERVER['HTTP_HOST'] = $_SERVER['HTTP_HOST'] ?? 'localhost';
define( 'WP_USE_THEMES', false );
require $si_bench_docroot . '/wp-load.php';

/**
 * An order as WooCommerce loads it, as plain data: get_data() with its items' data and meta,
 * meta and item ids left out (they are the copy's own by construction).
 *
 * @param WC_Order $order Order.
 * @return array<string, mixed>
 */
function si_bench_order_data( WC_Order $order ): array {
	$data              = $order->get_data();
	$meta              = static function ( array $entries ): array {
		$out = array();
		foreach ( $entries as $entry ) {
			$values                = $entry->get_data();
			$out[ $values['key'] ] = $values['value'];
		}
		ksort( $out );
		return $out;
	};
	$data['meta_data'] = $meta( $order->get_meta_data() );
	$items             = array();
	foreach ( $order->get_items( array( 'line_item', 'shipping', 'tax', 'fee', 'coupon' ) ) as $item ) {
		$values              = $item->get_data();
		$values['meta_data'] = $meta( $item->get_meta_data() );
		unset( $values['id'], $values['order_id'] );
		$items[] = $values;
	}
	unset( $data['line_items'], $data['tax_lines'], $data['shipping_lines'], $data['fee_lines'], $data['coupon_lines'] );
	$data['items'] = $items;
	return $data;
}

/**
 * Keys (dotted paths) whose values differ between two arrays.
 *
 * @param mixed  $a    One.
 * @param mixed  $b    The other.
 * @param string $path Where they are.
 * @return string[]
 */
function si_bench_differences( $a, $b, string $path = '' ): array {
	if ( $a instanceof WC_DateTime || $b instanceof WC_DateTime ) {
		$a = $a ? $a->getTimestamp() : null;
		$b = $b ? $b->getTimestamp() : null;
	}
	if ( is_array( $a ) && is_array( $b ) ) {
		$out = array();
		foreach ( array_unique( array_merge( array_keys( $a ), array_keys( $b ) ) ) as $key ) {
			$out = array_merge( $out, si_bench_differences( $a[ $key ] ?? null, $b[ $key ] ?? null, ltrim( "{$path}.{$key}", '.' ) ) );
		}
		return $out;
	}
	return $a === $b ? array() : array( $path );
}

if ( 'index' === $si_bench_command ) {
	global $wpdb;
	$si_bench_store = array_map(
		'intval',
		wc_get_orders(
			array(
				'type'    => 'shop_order',
				'status'  => wc_get_is_paid_statuses(),
				'limit'   => -1,
				'return'  => 'ids',
				'orderby' => 'ID',
				'order'   => 'ASC',
			)
		)
	);
	$si_bench_index = array_map( 'intval', $wpdb->get_col( "SELECT order_id FROM {$wpdb->prefix}si_paid_orders ORDER BY order_id" ) ); // phpcs:ignore WordPress.DB
	echo wp_json_encode(
		array(
			'store'          => count( $si_bench_store ),
			'index'          => count( $si_bench_index ),
			'only_store'     => array_slice( array_values( array_diff( $si_bench_store, $si_bench_index ) ), 0, 10 ),
			'only_index'     => array_slice( array_values( array_diff( $si_bench_index, $si_bench_store ) ), 0, 10 ),
			'paid_statuses'  => wc_get_is_paid_statuses(),
			'memory_peak_mb' => round( memory_get_peak_usage() / 1048576 ),
		)
	) . "\n";
	exit( 0 );
}

if ( 'copies' === $si_bench_command ) {
	$si_bench_out = array();
	foreach ( (array) json_decode( (string) ( $argv[3] ?? '[]' ), true ) as $si_bench_pair ) {
		list( $si_bench_copy_id, $si_bench_template_id ) = array_map( 'intval', (array) $si_bench_pair );
		$si_bench_copy                                   = wc_get_order( $si_bench_copy_id );
		$si_bench_template                               = wc_get_order( $si_bench_template_id );
		if ( ! $si_bench_copy instanceof WC_Order || ! $si_bench_template instanceof WC_Order ) {
			$si_bench_out[] = array(
				'copy'     => $si_bench_copy_id,
				'template' => $si_bench_template_id,
				'error'    => 'not an order',
			);
			continue;
		}
		$si_bench_out[] = array(
			'copy'        => $si_bench_copy_id,
			'template'    => $si_bench_template_id,
			'differences' => si_bench_differences( si_bench_order_data( $si_bench_copy ), si_bench_order_data( $si_bench_template ) ),
			'copy_email'  => $si_bench_copy->get_billing_email(),
			'copy_paid'   => $si_bench_copy->get_date_paid() ? $si_bench_copy->get_date_paid()->getTimestamp() : null,
			'copy_made'   => $si_bench_copy->get_date_created() ? $si_bench_copy->get_date_created()->getTimestamp() : null,
		);
	}
	echo wp_json_encode( $si_bench_out ) . "\n";
	exit( 0 );
}
fwrite( STDERR, "Unknown command {$si_bench_command}\n" );
exit( 2 );

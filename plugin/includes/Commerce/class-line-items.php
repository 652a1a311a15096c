<?php
/**
 * The line items of an order, as the minimal representation shows them.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Reads an order's product lines (product, variation, name, quantity) and their products' SKUs.
 *
 * One order at a time, through WooCommerce's objects: `$order->get_items()` builds each line
 * (WC_Order_Item_Product), and building a line reads its meta with one query
 * (Abstract_WC_Order_Item_Type_Data_Store::read() → WC_Data::read_meta_data(), which WooCommerce
 * caches only per item and offers no bulk form of).
 *
 * A page of orders: prime() loads the items and their meta in one query each through
 * WooCommerce's own WC_Order_Data_Store_CPT::prime_caches_for_orders() (public, "call this if you
 * are going to be fetching orders in a loop"; its legacy store calls it itself, HPOS does not).
 * lines() then reads those orders' lines from what was primed: the
 * item rows WooCommerce cached under 'order-items-<id>' (the key its read_items() reads) and the
 * item meta through wc_get_order_item_meta(), without building the objects, so a page costs the
 * same few queries whatever its number of lines. The objects are still built when anything could
 * make them differ from the rows:
 * - an order that was not primed (an outbound event's order may hold lines not saved yet);
 * - a site that filters items or their classes (woocommerce_order_get_items,
 *   woocommerce_get_order_item_classname, the item getters' filters);
 * - rows missing from the cache, or not shaped as WooCommerce stores them.
 *
 * SKUs belong to the products, not to the order, so they are read when lines are shown
 * (read_skus() for a whole page in one query, then with_skus()), never kept with the lines.
 */
final class Line_Items {

	/**
	 * Orders primed in this request, by id.
	 *
	 * @var array<int, true>
	 */
	private static $primed = array();

	/**
	 * SKUs read in this request, by product (or variation) id; null for a product that is gone.
	 *
	 * @var array<int, string|null>
	 */
	private static $skus = array();

	/**
	 * Filters under which a line's fields could differ from its stored rows.
	 */
	const FILTERS = array(
		'woocommerce_order_get_items',
		'woocommerce_get_order_item_classname',
		'woocommerce_order_item_get_name',
		'woocommerce_order_item_get_product_id',
		'woocommerce_order_item_get_variation_id',
		'woocommerce_order_item_get_quantity',
	);

	/**
	 * Loads these orders' items and their meta in one query each, instead of a few per line.
	 *
	 * @param \WC_Order[] $orders Orders, as just loaded from the store.
	 */
	public static function prime( array $orders ): void {
		if ( ! $orders || ! class_exists( 'WC_Order_Data_Store_CPT' ) || ! method_exists( 'WC_Order_Data_Store_CPT', 'prime_caches_for_orders' ) ) {
			return;
		}
		$ids = array_map( static fn( \WC_Order $order ): int => $order->get_id(), $orders );
		// fields = line_items only: no post meta (HPOS keeps none) and no refunds.
		( new \WC_Order_Data_Store_CPT() )->prime_caches_for_orders( $ids, array( 'fields' => array( 'line_items' ) ) );
		foreach ( $ids as $id ) {
			self::$primed[ $id ] = true;
		}
	}

	/**
	 * Reads the SKUs of these lines' products (variations) in one query, so with_skus() reads
	 * nothing more.
	 *
	 * @param array<int, array{product_id: int, variation_id: int}> $lines Lines, of any orders.
	 */
	public static function read_skus( array $lines ): void {
		$products = array();
		foreach ( $lines as $line ) {
			$key = self::product_key( $line );
			if ( $key && ! array_key_exists( $key, self::$skus ) ) {
				$products[ $key ] = $key;
			}
		}
		self::prime_skus( array_values( $products ) );
	}

	/**
	 * The lines as the minimal representation shows them: each with its product's SKU.
	 *
	 * @param array<int, array{product_id: int, variation_id: int, name: string, quantity: int}> $lines Lines.
	 * @return array<int, array{product_id: int, variation_id: int, sku: string|null, name: string, quantity: int}>
	 */
	public static function with_skus( array $lines ): array {
		$shown = array();
		foreach ( $lines as $line ) {
			$shown[] = array(
				'product_id'   => (int) $line['product_id'],
				'variation_id' => (int) $line['variation_id'],
				'sku'          => self::sku( self::product_key( $line ) ),
				'name'         => (string) $line['name'],
				'quantity'     => (int) $line['quantity'],
			);
		}
		return $shown;
	}

	/**
	 * The product whose SKU a line shows: its variation's when there is one.
	 *
	 * @param array{product_id: int, variation_id: int} $line Line.
	 */
	private static function product_key( array $line ): int {
		return (int) ( $line['variation_id'] ? $line['variation_id'] : $line['product_id'] );
	}

	/**
	 * Product, variation, name and quantity of each of the order's product lines, in
	 * WooCommerce's order (by item id): from the primed rows when they stand for the objects,
	 * else from the objects.
	 *
	 * @param \WC_Order $order Order.
	 * @return array<int, array{product_id: int, variation_id: int, name: string, quantity: int}>
	 */
	public static function lines( \WC_Order $order ): array {
		$rows = self::primed_rows( $order );
		if ( null !== $rows ) {
			return $rows;
		}
		$lines = array();
		foreach ( $order->get_items( 'line_item' ) as $item ) {
			if ( $item instanceof \WC_Order_Item_Product ) {
				$lines[] = array(
					'product_id'   => (int) $item->get_product_id(),
					'variation_id' => (int) $item->get_variation_id(),
					'name'         => (string) $item->get_name(),
					'quantity'     => (int) $item->get_quantity(),
				);
			}
		}
		return $lines;
	}

	/**
	 * The lines of a primed order read from WooCommerce's caches, as the objects would show them
	 * (WC_Order_Item_Product_Data_Store::read() reads these meta keys; the setters absint() the
	 * ids, wc_stock_amount() the quantity, filtered, and wp_check_invalid_utf8() the name); null when the
	 * objects must be built instead.
	 *
	 * @param \WC_Order $order Order.
	 * @return array<int, array{product_id: int, variation_id: int, name: string, quantity: int}>|null
	 */
	private static function primed_rows( \WC_Order $order ): ?array {
		if ( ! isset( self::$primed[ $order->get_id() ] ) || ! function_exists( 'wc_get_order_item_meta' ) ) {
			return null;
		}
		foreach ( self::FILTERS as $filter ) {
			if ( has_filter( $filter ) ) {
				return null;
			}
		}
		$rows = wp_cache_get( 'order-items-' . $order->get_id(), 'orders' );
		if ( ! is_array( $rows ) ) {
			return null;
		}
		$lines = array();
		foreach ( $rows as $row ) {
			if ( ! is_object( $row ) || ! isset( $row->order_item_id, $row->order_item_type, $row->order_item_name ) ) {
				return null;
			}
			if ( 'line_item' !== $row->order_item_type ) {
				continue;
			}
			$id      = (int) $row->order_item_id;
			$lines[] = array(
				'product_id'   => absint( wc_get_order_item_meta( $id, '_product_id', true ) ),
				'variation_id' => absint( wc_get_order_item_meta( $id, '_variation_id', true ) ),
				'name'         => (string) wp_check_invalid_utf8( (string) $row->order_item_name ),
				'quantity'     => (int) ( function_exists( 'wc_stock_amount' ) ? wc_stock_amount( wc_get_order_item_meta( $id, '_qty', true ) ) : wc_get_order_item_meta( $id, '_qty', true ) ),
			);
		}
		return $lines;
	}

	/**
	 * Reads these products' SKUs in one query (wc_get_products, their posts primed first as
	 * WooCommerce's own product lists do, so building each product reads nothing more).
	 *
	 * @param int[] $ids Product or variation ids.
	 */
	private static function prime_skus( array $ids ): void {
		if ( ! $ids || ! function_exists( 'wc_get_products' ) ) {
			return;
		}
		if ( is_callable( '_prime_post_caches' ) ) {
			_prime_post_caches( $ids );
		}
		$types    = function_exists( 'wc_get_product_types' ) ? array_keys( wc_get_product_types() ) : array( 'simple', 'grouped', 'external', 'variable' );
		$products = wc_get_products(
			array(
				'include' => $ids,
				'type'    => array_merge( $types, array( 'variation' ) ),
				'limit'   => count( $ids ),
			)
		);
		// A product not found here (trashed, say) is loaded alone by sku(), as its line would.
		foreach ( (array) $products as $product ) {
			if ( $product instanceof \WC_Product ) {
				self::$skus[ $product->get_id() ] = (string) $product->get_sku();
			}
		}
	}

	/**
	 * SKU of a line's product (its variation's when there is one); null if it no longer exists.
	 * Read once per product: a page often repeats the same products.
	 *
	 * @param int $id Product or variation id (0: none).
	 */
	private static function sku( int $id ): ?string {
		if ( ! $id ) {
			return null;
		}
		if ( ! array_key_exists( $id, self::$skus ) ) {
			$product           = function_exists( 'wc_get_product' ) ? wc_get_product( $id ) : null;
			self::$skus[ $id ] = $product instanceof \WC_Product ? (string) $product->get_sku() : null;
		}
		return self::$skus[ $id ];
	}
}

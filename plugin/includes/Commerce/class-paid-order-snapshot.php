<?php
/**
 * What the minimal representation of an order says, in two steps: the order's own fields (a
 * snapshot, which the paid-orders index stores) and what is added when it is served.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A snapshot holds the fields the order itself determines, as WooCommerce's getters give them:
 * id, number, status, date_paid, paid_at (its paid moment, Paid_Moment), date_modified,
 * currency, total (unformatted), customer and the product lines without their SKU. present() adds what belongs to the store rather than the
 * order, read fresh each time: the lines' SKUs (a product's SKU can change after the order) and
 * the total's formatting (the store's price decimals).
 *
 * The same two steps serve both sources: orders WooCommerce loads (of()) and the rows of the
 * paid-orders index (Paid_Order_Index), so the endpoint and the outbound payloads have one
 * mapping.
 */
final class Paid_Order_Snapshot {

	/**
	 * Fields of the minimal representation, in their order.
	 */
	const FIELDS = array( 'id', 'number', 'status', 'date_paid', 'paid_at', 'date_modified', 'currency', 'total', 'customer', 'line_items' );

	/**
	 * Filters through which a site can make WooCommerce's getters answer differently than they
	 * did when a snapshot was taken (WC_Data::get_prop() applies 'woocommerce_order_get_<prop>';
	 * WC_Order::get_order_number() 'woocommerce_order_number'), with the lines' own
	 * (Line_Items::FILTERS). While any is hooked, stored snapshots are not served: orders are
	 * loaded and mapped instead. WooCommerce's own callback on two of them is no filter of the
	 * value (see is_filtered()).
	 */
	const ORDER_FILTERS = array(
		'woocommerce_order_number',
		'woocommerce_order_get_status',
		'woocommerce_order_get_date_paid',
		'woocommerce_order_get_date_modified',
		'woocommerce_order_get_date_created',
		'woocommerce_order_get_currency',
		'woocommerce_order_get_total',
		'woocommerce_order_get_billing_first_name',
		'woocommerce_order_get_billing_last_name',
		'woocommerce_order_get_billing_email',
	);

	/**
	 * Whether a stored snapshot says what the order's getters would say now: no filter that
	 * could change their answers is hooked on this request.
	 */
	public static function stored_ones_hold(): bool {
		foreach ( array_merge( self::ORDER_FILTERS, Line_Items::FILTERS ) as $filter ) {
			if ( self::is_filtered( $filter ) ) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether anything filters this hook's value. WooCommerce hooks
	 * WC_Deprecated_Hooks::maybe_handle_deprecated_hook() on every request on
	 * woocommerce_order_get_currency and woocommerce_order_get_total (the constructor of
	 * WC_Deprecated_Filter_Hooks, built by WooCommerce::includes()), to run the filters of their
	 * pre-3.0 names; it returns the value unchanged unless an old name is hooked.
	 *
	 * @param string $filter Hook name.
	 */
	private static function is_filtered( string $filter ): bool {
		global $wp_filter;
		if ( ! has_filter( $filter ) ) {
			return false;
		}
		if ( ! ( $wp_filter[ $filter ] ?? null ) instanceof \WP_Hook ) {
			return true;
		}
		foreach ( $wp_filter[ $filter ]->callbacks as $callbacks ) {
			foreach ( $callbacks as $callback ) {
				$function = $callback['function'] ?? null;
				$bridge   = is_array( $function ) && isset( $function[0], $function[1] ) && $function[0] instanceof \WC_Deprecated_Hooks && 'maybe_handle_deprecated_hook' === $function[1];
				if ( ! $bridge ) {
					return true;
				}
				foreach ( $function[0]->get_old_hooks( $filter ) as $old ) {
					if ( has_filter( $old ) ) {
						return true;
					}
				}
			}
		}
		return false;
	}

	/**
	 * The snapshot of an order. id, date_paid and paid_at are always there (the sync cursor
	 * needs them); the other fields only when asked for, so a narrow _fields request computes no
	 * more.
	 *
	 * @param \WC_Order                $order   Order.
	 * @param array<string, bool>|null $fields  Field => whether to include it; null for all.
	 * @return array<string, mixed>
	 */
	public static function of( \WC_Order $order, ?array $fields = null ): array {
		return self::of_order( new Wc_Order_Port( $order ), $fields );
	}

	/**
	 * The snapshot of an order behind the Order_Port (of() for a WooCommerce order).
	 *
	 * @param Order_Port               $order   Order.
	 * @param array<string, bool>|null $fields  Field => whether to include it; null for all.
	 * @return array<string, mixed>
	 */
	public static function of_order( Order_Port $order, ?array $fields = null ): array {
		$wants = static fn( string $field ): bool => null === $fields || ! empty( $fields[ $field ] );
		$data  = array(
			'id'        => $order->get_id(),
			'date_paid' => self::iso8601( $order->get_date_paid() ),
			'paid_at'   => self::iso8601_of( Paid_Moment::of_order( $order ) ),
		);
		if ( $wants( 'number' ) ) {
			$data['number'] = (string) $order->get_order_number();
		}
		if ( $wants( 'status' ) ) {
			$data['status'] = $order->get_status();
		}
		if ( $wants( 'date_modified' ) ) {
			$data['date_modified'] = self::iso8601( $order->get_date_modified() );
		}
		if ( $wants( 'currency' ) ) {
			$data['currency'] = $order->get_currency();
		}
		if ( $wants( 'total' ) ) {
			$data['total'] = (string) $order->get_total();
		}
		if ( $wants( 'customer' ) ) {
			$data['customer'] = array(
				'first_name' => $order->get_billing_first_name(),
				'last_name'  => $order->get_billing_last_name(),
				'email'      => $order->get_billing_email(),
			);
		}
		if ( $wants( 'line_items' ) ) {
			$data['line_items'] = $order->line_items();
		}
		return $data;
	}

	/**
	 * The minimal representation of one order, every field: an outbound event's payload, the
	 * same view a page of the paid-orders route gives of it.
	 *
	 * @param \WC_Order $order Order.
	 * @return array<string, mixed>
	 */
	public static function view_of( \WC_Order $order ): array {
		return self::present( array( self::of( $order ) ) )[0];
	}

	/**
	 * The minimal representations of these snapshots: the total formatted, the SKUs read (for
	 * all of them in one query), the fields in their order, only those asked for.
	 *
	 * @param array<int, array<string, mixed>> $snapshots Snapshots.
	 * @param array<string, bool>|null         $fields    Field => whether to include it; null for all.
	 * @return array<int, array<string, mixed>>
	 */
	public static function present( array $snapshots, ?array $fields = null ): array {
		$wants = static fn( string $field ): bool => null === $fields || ! empty( $fields[ $field ] );
		if ( $wants( 'line_items' ) ) {
			self::read_skus( $snapshots );
		}
		$decimals = function_exists( 'wc_get_price_decimals' ) ? (int) wc_get_price_decimals() : 2;
		$items    = array();
		foreach ( $snapshots as $snapshot ) {
			$item = array();
			foreach ( self::FIELDS as $field ) {
				if ( ! $wants( $field ) || ! array_key_exists( $field, $snapshot ) ) {
					continue;
				}
				$value = $snapshot[ $field ];
				if ( 'total' === $field ) {
					$value = function_exists( 'wc_format_decimal' ) ? wc_format_decimal( $value, $decimals ) : (string) $value;
				} elseif ( 'line_items' === $field ) {
					$value = Line_Items::with_skus( (array) $value );
				}
				$item[ $field ] = $value;
			}
			$items[] = $item;
		}
		return $items;
	}

	/**
	 * Reads the SKUs of all these snapshots' lines in one query, so presenting them one by one
	 * reads none.
	 *
	 * @param array<int, array<string, mixed>> $snapshots Snapshots.
	 */
	public static function read_skus( array $snapshots ): void {
		Line_Items::read_skus( array_merge( array(), ...array_map( static fn( array $s ): array => array_values( (array) ( $s['line_items'] ?? array() ) ), $snapshots ) ) );
	}

	/**
	 * ISO 8601 in UTC (Z), or null.
	 *
	 * @param \DateTimeInterface|null $date Date (WC_DateTime).
	 */
	public static function iso8601( $date ): ?string {
		return $date instanceof \DateTimeInterface ? self::iso8601_of( $date->getTimestamp() ) : null;
	}

	/**
	 * ISO 8601 in UTC (Z) of a UTC timestamp, or null for 0 (none).
	 *
	 * @param int $timestamp UTC timestamp.
	 */
	public static function iso8601_of( int $timestamp ): ?string {
		return $timestamp > 0 ? gmdate( 'Y-m-d\TH:i:s\Z', $timestamp ) : null;
	}
}

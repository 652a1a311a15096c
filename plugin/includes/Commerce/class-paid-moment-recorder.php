<?php
/**
 * Records each order's paid moment when it first enters a paid status, and announces it.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

use ServiceIntegration\Support\Logger;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Every status change reaches the store through a save of the order, on both storages and for
 * every way in (a gateway's payment_complete(), an offline gateway's update_status(), the owner's
 * change in wp-admin or through the REST API, an order created in a status). Before the save
 * (`woocommerce_before_order_object_save`), the order's pending changes hold the new status and
 * its stored data the old one (as WooCommerce's own HPOS store reads them,
 * OrdersTableDataStore::update()): a move from a status WooCommerce does not count as paid into
 * one it does (wc_get_is_paid_statuses()) is an entry, and Paid_Moment decides what it records.
 * The moment is set as order meta on the order being saved, so the same save stores it with the
 * status, and the index row the save writes has it. Once the save is done
 * (`woocommerce_after_order_object_save`), a first payment fires `service_integration_order_paid`
 * (order.paid listens to it).
 */
final class Paid_Moment_Recorder {

	/**
	 * When the plugin began recording paid moments (UTC timestamp), set once.
	 */
	const SINCE_OPTION = 'service_integration_paid_moments_since';

	/**
	 * Orders being saved whose payment is to be announced once saved, with their moment.
	 *
	 * @var \WeakMap<\WC_Order, int>|null
	 */
	private static ?\WeakMap $announcing = null;

	/**
	 * Registers the hooks: late before the save, so the status other listeners set is the one
	 * seen.
	 */
	public static function register(): void {
		add_action( 'woocommerce_before_order_object_save', array( self::class, 'before_save' ), 1000, 1 );
		add_action( 'woocommerce_after_order_object_save', array( self::class, 'after_save' ), 10, 1 );
	}

	/**
	 * Sets when recording began, on install and on the upgrade that brings it: payments before it
	 * keep their date_paid as their moment.
	 */
	public static function install(): void {
		add_option( self::SINCE_OPTION, (string) time(), '', false );
	}

	/**
	 * An order is about to be saved: records its moment if this save moves it into a paid status.
	 *
	 * @param mixed $order The order (WC_Order for shop orders; refunds are WC_Order_Refund).
	 */
	public static function before_save( $order ): void {
		if ( ! $order instanceof \WC_Order || Paid_Orders::ORDER_TYPE !== $order->get_type() ) {
			return;
		}
		$changes = $order->get_changes();
		if ( ! isset( $changes['status'] ) ) {
			return;
		}
		try {
			$paid = Paid_Orders::paid_statuses();
			$from = (string) ( $order->get_base_data()['status'] ?? '' );
			if ( in_array( (string) $changes['status'], $paid, true ) && ! in_array( $from, $paid, true ) ) {
				self::record( $order );
			}
		} catch ( \Throwable $e ) {
			// Never break the order's save: the order keeps its date_paid as its moment.
			Logger::error( sprintf( 'Service Integration: the paid moment of order %d could not be recorded (%s).', (int) $order->get_id(), $e->getMessage() ) ); // An operator must see it.
		}
	}

	/**
	 * An order was saved: announces the payment recorded before the save, if any.
	 *
	 * @param mixed $order The order.
	 */
	public static function after_save( $order ): void {
		if ( ! $order instanceof \WC_Order || null === self::$announcing || ! isset( self::$announcing[ $order ] ) ) {
			return;
		}
		$paid_at = self::$announcing[ $order ];
		unset( self::$announcing[ $order ] );
		/**
		 * Fires once per order, when it is paid: it first entered a status WooCommerce counts as
		 * paid, at its paid moment, and the order is saved.
		 *
		 * @since 0.3.0
		 *
		 * @param int       $order_id Order id.
		 * @param int       $paid_at  The paid moment (UTC timestamp).
		 * @param \WC_Order $order    The order.
		 */
		do_action( 'service_integration_order_paid', $order->get_id(), $paid_at, $order );
	}

	/**
	 * Sets the moment of an order entering a paid status, if it has none, on the order being
	 * saved, and remembers a first payment for after the save.
	 *
	 * @param \WC_Order $order The order being saved.
	 */
	private static function record( \WC_Order $order ): void {
		$date_paid = $order->get_date_paid();
		$entry     = Paid_Moment::on_entry(
			Paid_Moment::parse( $order->get_meta( Paid_Moment::META_KEY ) ),
			$date_paid ? (int) $date_paid->getTimestamp() : null,
			self::since(),
			time()
		);
		if ( null === $entry ) {
			return;
		}
		$order->update_meta_data( Paid_Moment::META_KEY, (string) $entry['at'] );
		if ( $entry['announce'] ) {
			self::$announcing           = self::$announcing ?? new \WeakMap();
			self::$announcing[ $order ] = $entry['at'];
		}
	}

	/**
	 * When recording began (set now if the install step has not run yet).
	 */
	private static function since(): int {
		$since = (int) get_option( self::SINCE_OPTION, 0 );
		if ( $since <= 0 ) {
			$since = time();
			add_option( self::SINCE_OPTION, (string) $since, '', false );
		}
		return $since;
	}
}

<?php
/**
 * Turns WooCommerce order hooks into outbox events.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

use ServiceIntegration\Commerce\Paid_Orders;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * order.created, order.paid, order.refunded (partial and full), each with a payload
 * snapshotted when the event happens (not rebuilt at send time, as WooCommerce's own
 * webhooks do). Ids are derived from the business event, so the same payment seen
 * through woocommerce_payment_complete and a status change is one event.
 * Nothing here may break the order flow: every failure is caught and logged.
 */
final class Order_Events {

	const TYPES = array( 'order.created', 'order.paid', 'order.refunded' );

	/**
	 * Registers the WooCommerce hooks (public API only, HPOS on or off).
	 */
	public static function register(): void {
		add_action( 'woocommerce_new_order', array( self::class, 'on_created' ), 20, 2 );
		add_action( 'woocommerce_payment_complete', array( self::class, 'on_payment_complete' ), 20 );
		add_action( 'woocommerce_order_status_changed', array( self::class, 'on_status_changed' ), 20, 4 );
		add_action( 'woocommerce_order_partially_refunded', array( self::class, 'on_partial_refund' ), 20, 2 );
		add_action( 'woocommerce_order_fully_refunded', array( self::class, 'on_full_refund' ), 20, 2 );
	}

	/**
	 * New order.
	 *
	 * @param int            $order_id Order id.
	 * @param \WC_Order|null $order    Order (older data stores pass only the id).
	 */
	public static function on_created( $order_id, $order = null ): void {
		self::record( 'order.created', (int) $order_id, $order, 'created' );
	}

	/**
	 * Payment completed through a gateway.
	 *
	 * @param int $order_id Order id.
	 */
	public static function on_payment_complete( $order_id ): void {
		self::record_paid( (int) $order_id, null );
	}

	/**
	 * A status change into a paid status (offline gateways, manual changes).
	 *
	 * @param int            $order_id Order id.
	 * @param string         $from     Previous status.
	 * @param string         $to       New status.
	 * @param \WC_Order|null $order    Order.
	 */
	public static function on_status_changed( $order_id, $from, $to, $order = null ): void {
		$paid = Paid_Orders::paid_statuses();
		if ( in_array( $to, $paid, true ) && ! in_array( $from, $paid, true ) ) {
			self::record_paid( (int) $order_id, $order );
		}
	}

	/**
	 * Partial refund.
	 *
	 * @param int $order_id  Order id.
	 * @param int $refund_id Refund id.
	 */
	public static function on_partial_refund( $order_id, $refund_id ): void {
		self::record_refund( (int) $order_id, (int) $refund_id, false );
	}

	/**
	 * Full refund.
	 *
	 * @param int $order_id  Order id.
	 * @param int $refund_id Refund id.
	 */
	public static function on_full_refund( $order_id, $refund_id ): void {
		self::record_refund( (int) $order_id, (int) $refund_id, true );
	}

	/**
	 * One payment, one event: the id is keyed on the payment time.
	 *
	 * @param int            $order_id Order id.
	 * @param \WC_Order|null $order    Order.
	 */
	private static function record_paid( int $order_id, $order ): void {
		$order = $order instanceof \WC_Order ? $order : wc_get_order( $order_id );
		if ( ! $order instanceof \WC_Order ) {
			return;
		}
		$paid_at = $order->get_date_paid();
		self::record( 'order.paid', $order_id, $order, 'paid-' . ( $paid_at ? $paid_at->getTimestamp() : 'unknown' ) );
	}

	/**
	 * Refund event.
	 *
	 * @param int  $order_id  Order id.
	 * @param int  $refund_id Refund id.
	 * @param bool $full      Whether the order is now fully refunded.
	 */
	private static function record_refund( int $order_id, int $refund_id, bool $full ): void {
		$refund = wc_get_order( $refund_id );
		$extra  = array(
			'refund' => array(
				'id'     => $refund_id,
				'amount' => $refund && method_exists( $refund, 'get_amount' ) ? (string) $refund->get_amount() : null,
				'reason' => $refund && method_exists( $refund, 'get_reason' ) ? (string) $refund->get_reason() : '',
				'full'   => $full,
			),
		);
		self::record( 'order.refunded', $order_id, null, 'refund-' . $refund_id, $extra );
	}

	/**
	 * Writes the event to the outbox and asks for a hand-over at the end of the request.
	 *
	 * @param string         $type     Event type.
	 * @param int            $order_id Order id.
	 * @param \WC_Order|null $order    Order.
	 * @param string         $occurrence What makes this event unique for the order.
	 * @param array          $extra    Extra data.
	 */
	private static function record( string $type, int $order_id, $order, string $occurrence, array $extra = array() ): void {
		try {
			$order = $order instanceof \WC_Order ? $order : wc_get_order( $order_id );
			if ( ! $order instanceof \WC_Order ) {
				return;
			}
			$event_id = 'evt_' . substr( hash( 'sha256', home_url() . '|' . $order_id . '|' . $type . '|' . $occurrence ), 0, 32 );
			$payload  = array(
				'type'      => $type,
				'timestamp' => gmdate( 'Y-m-d\TH:i:s\Z' ),
				'data'      => array_merge(
					array( 'order' => Paid_Orders::to_array( $order, '__return_true' ) ),
					$extra
				),
			);
			/**
			 * Filters an outbound event's payload before it is stored.
			 *
			 * @param array     $payload {type, timestamp, data}.
			 * @param \WC_Order $order   Order.
			 */
			$payload = apply_filters( 'service_integration_outbound_payload', $payload, $order );
			if ( Outbox::add( $event_id, $type, 'order:' . $order_id, $payload ) ) {
				Hand_Over::schedule_at_shutdown();
			}
		} catch ( \Throwable $error ) {
			error_log( 'service-integration: could not record ' . $type . ' for order ' . $order_id . ': ' . $error->getMessage() ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log
		}
	}
}

<?php
/**
 * WooCommerce's order as the snapshot's Order_Port.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Hands each question to the WC_Order (its getters in the view context, so filters apply as
 * before), and the lines to Line_Items (primed rows or the order's items).
 */
final class Wc_Order_Port implements Order_Port {

	/**
	 * The order.
	 *
	 * @var \WC_Order
	 */
	private \WC_Order $order;

	/**
	 * Wraps an order.
	 *
	 * @param \WC_Order $order Order.
	 */
	public function __construct( \WC_Order $order ) {
		$this->order = $order;
	}

	/**
	 * The order's id.
	 */
	public function get_id() {
		return $this->order->get_id();
	}

	/**
	 * The order number.
	 */
	public function get_order_number() {
		return $this->order->get_order_number();
	}

	/**
	 * Status.
	 */
	public function get_status() {
		return $this->order->get_status();
	}

	/**
	 * Date paid.
	 */
	public function get_date_paid() {
		return $this->order->get_date_paid();
	}

	/**
	 * Date modified.
	 */
	public function get_date_modified() {
		return $this->order->get_date_modified();
	}

	/**
	 * Currency.
	 */
	public function get_currency() {
		return $this->order->get_currency();
	}

	/**
	 * Total.
	 */
	public function get_total() {
		return $this->order->get_total();
	}

	/**
	 * Billing first name.
	 */
	public function get_billing_first_name() {
		return $this->order->get_billing_first_name();
	}

	/**
	 * Billing last name.
	 */
	public function get_billing_last_name() {
		return $this->order->get_billing_last_name();
	}

	/**
	 * Billing email.
	 */
	public function get_billing_email() {
		return $this->order->get_billing_email();
	}

	/**
	 * One meta value (single).
	 *
	 * @param string $key Meta key.
	 */
	public function get_meta( string $key ) {
		return $this->order->get_meta( $key );
	}

	/**
	 * The product lines.
	 */
	public function line_items(): array {
		return Line_Items::lines( $this->order );
	}
}

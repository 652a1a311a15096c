<?php
/**
 * What the paid-order snapshot reads of an order.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The part of WooCommerce's order API the snapshot and the paid moment read, with WC_Order's
 * own method names and answers. Wc_Order_Port is WooCommerce's order behind it; the unit tests
 * give an order of their own (tests/php/support/class-in-memory-order.php).
 */
interface Order_Port {

	/**
	 * The order's id.
	 *
	 * @return int
	 */
	public function get_id();

	/**
	 * The order number shown to the customer.
	 *
	 * @return string|int
	 */
	public function get_order_number();

	/**
	 * Status, without its wc- prefix.
	 *
	 * @return string
	 */
	public function get_status();

	/**
	 * When WooCommerce recorded the payment, if it did.
	 *
	 * @return \DateTimeInterface|null
	 */
	public function get_date_paid();

	/**
	 * Last modification.
	 *
	 * @return \DateTimeInterface|null
	 */
	public function get_date_modified();

	/**
	 * Currency code.
	 *
	 * @return string
	 */
	public function get_currency();

	/**
	 * Total, unformatted.
	 *
	 * @return string|float
	 */
	public function get_total();

	/**
	 * Billing first name.
	 *
	 * @return string
	 */
	public function get_billing_first_name();

	/**
	 * Billing last name.
	 *
	 * @return string
	 */
	public function get_billing_last_name();

	/**
	 * Billing email.
	 *
	 * @return string
	 */
	public function get_billing_email();

	/**
	 * One meta value of the order.
	 *
	 * @param string $key Meta key.
	 * @return mixed
	 */
	public function get_meta( string $key );

	/**
	 * The product lines (Line_Items::lines()).
	 *
	 * @return array<int, array{product_id: int, variation_id: int, name: string, quantity: int}>
	 */
	public function line_items(): array;
}

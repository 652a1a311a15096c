<?php
/**
 * An order held in memory, for the snapshot's unit tests.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Tests;

use ServiceIntegration\Commerce\Order_Port;

/**
 * Answers Order_Port's questions from the values it was given, as WC_Order's getters answer
 * them (dates as DateTimeInterface or null, meta '' when absent).
 */
final class In_Memory_Order implements Order_Port {

	/**
	 * Properties: id, number, status, date_paid, date_modified, currency, total, first_name,
	 * last_name, email, meta (key => value), lines.
	 *
	 * @var array<string, mixed>
	 */
	private array $props;

	/**
	 * An order with these properties over a plain paid order's.
	 *
	 * @param array<string, mixed> $props Properties.
	 */
	public function __construct( array $props = array() ) {
		$this->props = array_merge(
			array(
				'id'            => 101,
				'number'        => 101,
				'status'        => 'processing',
				'date_paid'     => null,
				'date_modified' => null,
				'currency'      => 'EUR',
				'total'         => '42.50',
				'first_name'    => 'Ada',
				'last_name'     => 'Lovelace',
				'email'         => 'ada@example.com',
				'meta'          => array(),
				'lines'         => array(),
			),
			$props
		);
	}

	/** The id. */
	public function get_id() {
		return $this->props['id'];
	}

	/** The number. */
	public function get_order_number() {
		return $this->props['number'];
	}

	/** The status. */
	public function get_status() {
		return $this->props['status'];
	}

	/** Date paid. */
	public function get_date_paid() {
		return $this->props['date_paid'];
	}

	/** Date modified. */
	public function get_date_modified() {
		return $this->props['date_modified'];
	}

	/** Currency. */
	public function get_currency() {
		return $this->props['currency'];
	}

	/** Total. */
	public function get_total() {
		return $this->props['total'];
	}

	/** Billing first name. */
	public function get_billing_first_name() {
		return $this->props['first_name'];
	}

	/** Billing last name. */
	public function get_billing_last_name() {
		return $this->props['last_name'];
	}

	/** Billing email. */
	public function get_billing_email() {
		return $this->props['email'];
	}

	/**
	 * A meta value, '' when absent (as WC_Data::get_meta() with $single).
	 *
	 * @param string $key Meta key.
	 */
	public function get_meta( string $key ) {
		return $this->props['meta'][ $key ] ?? '';
	}

	/** The lines. */
	public function line_items(): array {
		return $this->props['lines'];
	}
}

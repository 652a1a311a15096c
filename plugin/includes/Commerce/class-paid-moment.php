<?php
/**
 * The paid moment of an order: when it first entered a status WooCommerce counts as paid (pure:
 * no WordPress, no I/O).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One definition of "paid", for the listing, the sync order, the paid-orders index and
 * order.paid. WooCommerce's date_paid cannot be it: cash on delivery puts the order in
 * processing (a paid status) without one, and WooCommerce stamps it only at completion, days
 * later; so the moment an order first enters a paid status is recorded once, as order meta, and
 * never moves:
 *
 * - WooCommerce's date_paid when it is set by then (a gateway's payment_complete(), or the move
 *   to processing that stamps it, as for bank transfer and cheque), else the time of that move;
 * - an order paid before moments were recorded (no meta) keeps its date_paid as its moment, and
 *   its payment was announced then: it is not announced again when it comes back to a paid
 *   status;
 * - later changes (completion stamping date_paid, refunds, a move to on-hold and back) change
 *   nothing: the moment is recorded already.
 */
final class Paid_Moment {

	/**
	 * Order meta holding the moment, a UTC timestamp (written through the WC_Order API, so it
	 * lives where the order does, HPOS or posts).
	 */
	const META_KEY = '_service_integration_paid_at';

	/**
	 * A recorded moment from the meta's value: a positive whole number of seconds, else none.
	 *
	 * @param mixed $value Meta value.
	 */
	public static function parse( $value ): ?int {
		if ( is_int( $value ) ) {
			return $value > 0 ? $value : null;
		}
		return is_string( $value ) && preg_match( '/^[1-9]\d{0,17}$/', $value ) ? (int) $value : null;
	}

	/**
	 * An order's paid moment: the recorded one, else its date_paid, else 0 (none: in a paid
	 * status without either, it is in the plain listing only).
	 *
	 * @param int|null $recorded  Recorded moment.
	 * @param int|null $date_paid WooCommerce's date_paid (UTC timestamp).
	 */
	public static function of( ?int $recorded, ?int $date_paid ): int {
		return $recorded ?? $date_paid ?? 0;
	}

	/**
	 * An order's paid moment (of()), from its meta and its date_paid.
	 *
	 * @param Order_Port $order Order.
	 */
	public static function of_order( Order_Port $order ): int {
		$date = $order->get_date_paid();
		return self::of( self::parse( $order->get_meta( self::META_KEY ) ), $date ? (int) $date->getTimestamp() : null );
	}

	/**
	 * What an order's entry into a paid status records: its moment, and whether this is its
	 * payment, to announce (order.paid). Nothing once a moment is recorded.
	 *
	 * @param int|null $recorded  Recorded moment.
	 * @param int|null $date_paid WooCommerce's date_paid as the order now has it.
	 * @param int      $since     When the plugin began recording moments: a date_paid before it
	 *                            is an earlier payment (announced by the version that saw it, or
	 *                            made before the plugin was installed), not this one.
	 * @param int      $now       Now (UTC timestamp).
	 * @return array{at: int, announce: bool}|null
	 */
	public static function on_entry( ?int $recorded, ?int $date_paid, int $since, int $now ): ?array {
		if ( null !== $recorded ) {
			return null;
		}
		if ( null !== $date_paid && $date_paid < $since ) {
			return array(
				'at'       => $date_paid,
				'announce' => false,
			);
		}
		return array(
			'at'       => $date_paid ?? $now,
			'announce' => true,
		);
	}
}

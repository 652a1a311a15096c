<?php
/**
 * The set of paid orders one sync request reads: after a cursor, paid before a bound.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Orders paid strictly after the cursor (after_ts, after_id) in the order (date_paid, id),
 * before $before_ts, optionally last modified within [modified_from, modified_to].
 */
final class Paid_Order_Range {

	/**
	 * Cursor second (UTC timestamp).
	 *
	 * @var int
	 */
	public int $after_ts;

	/**
	 * Cursor id: orders paid in the cursor's second count only above it (0: the whole second).
	 *
	 * @var int
	 */
	public int $after_id;

	/**
	 * Exclusive upper bound on the payment second.
	 *
	 * @var int
	 */
	public int $before_ts;

	/**
	 * Inclusive lower bound on the last modification, if any.
	 *
	 * @var int|null
	 */
	public ?int $modified_from;

	/**
	 * Inclusive upper bound on the last modification, if any.
	 *
	 * @var int|null
	 */
	public ?int $modified_to;

	/**
	 * A range.
	 *
	 * @param int      $after_ts      Cursor second.
	 * @param int      $after_id      Cursor id.
	 * @param int      $before_ts     Exclusive bound.
	 * @param int|null $modified_from Inclusive lower bound on the modification second.
	 * @param int|null $modified_to   Inclusive upper bound on the modification second.
	 */
	public function __construct( int $after_ts, int $after_id, int $before_ts, ?int $modified_from = null, ?int $modified_to = null ) {
		$this->after_ts      = $after_ts;
		$this->after_id      = $after_id;
		$this->before_ts     = $before_ts;
		$this->modified_from = $modified_from;
		$this->modified_to   = $modified_to;
	}

	/**
	 * The range for a wc_get_orders date_modified argument as the controller builds it
	 * ('>=A' or 'A...B', UTC timestamps), or without one.
	 *
	 * @param int         $after_ts  Cursor second.
	 * @param int         $after_id  Cursor id.
	 * @param int         $before_ts Exclusive bound.
	 * @param string|null $modified  date_modified argument.
	 */
	public static function from_filter( int $after_ts, int $after_id, int $before_ts, ?string $modified ): self {
		$from = null;
		$to   = null;
		if ( null !== $modified && preg_match( '/^(?:>=(\d+)|(\d+)\.\.\.(\d+))$/', $modified, $m ) ) {
			$from = (int) ( '' !== $m[1] ? $m[1] : $m[2] );
			$to   = isset( $m[3] ) && '' !== $m[3] ? (int) $m[3] : null;
		}
		return new self( $after_ts, $after_id, $before_ts, $from, $to );
	}

	/**
	 * Whether an order paid at $paid_at (its id $id), modified at $modified_at, is in the range.
	 *
	 * @param int $id          Order id.
	 * @param int $paid_at     Payment second.
	 * @param int $modified_at Modification second.
	 */
	public function contains( int $id, int $paid_at, int $modified_at ): bool {
		return $paid_at >= Paid_Orders::FIRST_SECOND
			&& $paid_at < $this->before_ts
			&& ( $paid_at > $this->after_ts || ( $paid_at === $this->after_ts && $id > $this->after_id ) )
			&& ( null === $this->modified_from || $modified_at >= $this->modified_from )
			&& ( null === $this->modified_to || $modified_at <= $this->modified_to );
	}

	/**
	 * The SQL condition on the index table's columns (integers only, no placeholders left).
	 */
	public function where(): string {
		// Not (paid_at, order_id) > (a, b): the SQLite integration does not translate row values.
		$where = sprintf(
			'paid_at >= %d AND paid_at < %d AND ( paid_at > %d OR ( paid_at = %d AND order_id > %d ) )',
			Paid_Orders::FIRST_SECOND,
			$this->before_ts,
			$this->after_ts,
			$this->after_ts,
			$this->after_id
		);
		if ( null !== $this->modified_from ) {
			$where .= sprintf( ' AND modified_at >= %d', $this->modified_from );
		}
		if ( null !== $this->modified_to ) {
			$where .= sprintf( ' AND modified_at <= %d', $this->modified_to );
		}
		return $where;
	}
}

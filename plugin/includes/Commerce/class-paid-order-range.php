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
 * Orders paid strictly after the cursor (after_ts, after_id) in the order (paid moment, id),
 * before $before_ts, optionally last modified within [modified_from, modified_to]. The paid
 * moment (Paid_Moment) is the index's paid_at column.
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
		list( $from, $to ) = self::bounds( $modified );
		return new self( $after_ts, $after_id, $before_ts, $from, $to );
	}

	/**
	 * The inclusive bounds of a wc_get_orders date argument as the controller builds it ('>=A'
	 * or 'A...B', UTC timestamps): [A, null] or [A, B]; [null, null] without one.
	 *
	 * @param string|null $filter Date argument.
	 * @return array{0: int|null, 1: int|null}
	 */
	public static function bounds( ?string $filter ): array {
		if ( null === $filter || ! preg_match( '/^(?:>=(\d+)|(\d+)\.\.\.(\d+))$/', $filter, $m ) ) {
			return array( null, null );
		}
		return array(
			(int) ( '' !== $m[1] ? $m[1] : $m[2] ),
			isset( $m[3] ) && '' !== $m[3] ? (int) $m[3] : null,
		);
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

	/**
	 * The sync order, on the index table's columns.
	 */
	public function order_by(): string {
		return 'paid_at ASC, order_id ASC';
	}
}

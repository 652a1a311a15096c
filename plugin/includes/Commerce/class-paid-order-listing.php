<?php
/**
 * The set of paid orders one plain listing request reads, in its order.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Paid orders optionally paid (their paid moment, Paid_Moment) and last modified within
 * inclusive bounds, sorted by creation, id or last modification, the id breaking ties in the
 * same direction: the order Paid_Orders::page() asks wc_get_orders() for, on the index table's
 * columns.
 */
final class Paid_Order_Listing {

	/**
	 * Index column of each sort key.
	 */
	const COLUMNS = array(
		'date'     => 'created_at',
		'id'       => 'order_id',
		'modified' => 'modified_at',
	);

	/**
	 * Sort column.
	 *
	 * @var string
	 */
	private string $column;

	/**
	 * ASC or DESC.
	 *
	 * @var string
	 */
	private string $direction;

	/**
	 * Bounds on the payment and modification seconds, inclusive, null for none.
	 *
	 * @var array<string, array{0: int|null, 1: int|null}>
	 */
	private array $bounds;

	/**
	 * A listing.
	 *
	 * @param string                $orderby date|id|modified (anything else: date).
	 * @param string                $order   asc|desc (anything else: desc).
	 * @param array<string, string> $filters Date ranges as the controller builds them (paid_at,
	 *                                       date_modified: '>=A' or 'A...B').
	 */
	public function __construct( string $orderby, string $order, array $filters ) {
		$this->column    = self::COLUMNS[ $orderby ] ?? self::COLUMNS['date'];
		$this->direction = 'asc' === $order ? 'ASC' : 'DESC';
		$this->bounds    = array(
			'paid_at'     => Paid_Order_Range::bounds( $filters['paid_at'] ?? null ),
			'modified_at' => Paid_Order_Range::bounds( $filters['date_modified'] ?? null ),
		);
	}

	/**
	 * The SQL condition on the index table's columns (integers only).
	 */
	public function where(): string {
		$where = '1 = 1';
		foreach ( $this->bounds as $column => list( $from, $to ) ) {
			if ( null !== $from ) {
				$where .= sprintf( ' AND %s >= %d', $column, $from );
			}
			if ( null !== $to ) {
				$where .= sprintf( ' AND %s <= %d', $column, $to );
			}
		}
		return $where;
	}

	/**
	 * The sort, on the index table's columns.
	 */
	public function order_by(): string {
		if ( 'order_id' === $this->column ) {
			return 'order_id ' . $this->direction;
		}
		return $this->column . ' ' . $this->direction . ', order_id ' . $this->direction;
	}
}

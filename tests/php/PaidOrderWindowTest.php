<?php
/**
 * The conditions and orders of the index's pages.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Commerce\Paid_Order_Index;
use ServiceIntegration\Commerce\Paid_Order_Query;
use ServiceIntegration\Commerce\Paid_Orders;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * Which rows a page of the sync order (after a cursor, before a bound) and of a plain listing
 * takes from the index table (Paid_Order_Index::where() and order_by() of a Paid_Order_Query),
 * in which order, and the bounds the route's parameters make (Paid_Order_Query::from_request()).
 */
final class PaidOrderWindowTest extends TestCase {

	/**
	 * The index whose SQL is read (no query runs).
	 *
	 * @var Paid_Order_Index
	 */
	private Paid_Order_Index $index;

	/**
	 * An index over a database that records.
	 */
	protected function setUp(): void {
		$this->index = new Paid_Order_Index( new Recording_Wpdb(), new Fixed_Clock( 0 ), new In_Memory_Options() );
	}

	/**
	 * A page of the sync order.
	 *
	 * @param int      $cursor_at     Cursor second.
	 * @param int      $cursor_id     Cursor id.
	 * @param int      $paid_before   Exclusive bound.
	 * @param int|null $modified_from Modified at or after.
	 * @param int|null $modified_to   Modified at or before.
	 */
	private static function sync( int $cursor_at, int $cursor_id, int $paid_before, ?int $modified_from = null, ?int $modified_to = null ): Paid_Order_Query {
		return new Paid_Order_Query( 1, 10, 'paid_at', 'asc', cursor_at: $cursor_at, cursor_id: $cursor_id, paid_before: $paid_before, modified_from: $modified_from, modified_to: $modified_to );
	}

	/**
	 * The sync window starts after the cursor and stops before the bound.
	 */
	public function test_the_sync_window_starts_after_the_cursor_and_stops_before_the_bound(): void {
		$this->assertSame(
			'paid_at >= ' . Paid_Orders::FIRST_SECOND . ' AND paid_at < 1767225540 AND ( paid_at > 1767000000 OR ( paid_at = 1767000000 AND order_id > 42 ) )',
			$this->index->where( self::sync( 1767000000, 42, 1767225540 ) )
		);
	}

	/**
	 * A cursor without an id keeps its whole second.
	 */
	public function test_a_cursor_without_an_id_keeps_its_whole_second(): void {
		$this->assertStringContainsString( '( paid_at = 1767000000 AND order_id > 0 )', $this->index->where( self::sync( 1767000000, 0, 1767225540 ) ) );
	}

	/**
	 * Orders without a paid moment are never in the sync order.
	 */
	public function test_orders_without_a_paid_moment_are_never_in_the_sync_order(): void {
		// Rows with paid_at 0 (paid status, no moment) sit below FIRST_SECOND, whatever the cursor.
		$this->assertStringStartsWith( 'paid_at >= 1000000000 AND', $this->index->where( self::sync( 0, 0, 1767225540 ) ) );
	}

	/**
	 * The sync order is paid moment then id ascending.
	 */
	public function test_the_sync_order_is_paid_moment_then_id_ascending(): void {
		$this->assertSame( 'paid_at ASC, order_id ASC', $this->index->order_by( self::sync( 0, 0, 1 ) ) );
	}

	/**
	 * A modification range bounds the sync window inclusively.
	 */
	public function test_a_modification_range_bounds_the_sync_window_inclusively(): void {
		$where = $this->index->where( self::sync( 1767000000, 0, 1767225540, 1767100000, 1767199999 ) );
		$this->assertStringEndsWith( ' AND modified_at >= 1767100000 AND modified_at <= 1767199999', $where );
	}

	/**
	 * A modification lower bound alone has no upper bound.
	 */
	public function test_a_modification_lower_bound_alone_has_no_upper_bound(): void {
		$where = $this->index->where( self::sync( 1767000000, 0, 1767225540, 1767100000 ) );
		$this->assertStringEndsWith( ' AND modified_at >= 1767100000', $where );
	}

	/**
	 * The route's date parameters and the inclusive bounds they make.
	 *
	 * @return array<string, array{0: string|null, 1: string|null, 2: array{0: int|null, 1: int|null}|false}>
	 */
	public static function date_arguments(): array {
		return array(
			'none'                      => array( null, null, array( null, null ) ),
			'from'                      => array( '2026-01-30T12:53:20Z', null, array( 1769777600, null ) ),
			'between'                   => array( '2026-01-30T12:53:20Z', '2026-01-31T16:40:00Z', array( 1769777600, 1769877599 ) ),
			'before only'               => array( null, '2026-01-31T16:40:00Z', array( Paid_Orders::FIRST_SECOND, 1769877599 ) ),
			'a fraction rounds up'      => array( '2026-01-30T12:53:19.5Z', '2026-01-31T16:39:59.5Z', array( 1769777600, 1769877599 ) ),
			'before the first second'   => array( '1970-01-02T00:00:00Z', null, array( Paid_Orders::FIRST_SECOND, null ) ),
			'an empty range'            => array( '2026-01-31T16:40:00Z', '2026-01-31T16:40:00Z', false ),
			'ending before any payment' => array( null, '2001-09-09T01:46:40Z', false ),
		);
	}

	/**
	 * The route's [after, before) parameters make inclusive bounds in whole seconds, clamped to
	 * ten-digit timestamps, or a range no order can be in; the same for payment and modification.
	 *
	 * @dataProvider date_arguments
	 * @param string|null                           $after  paid_after / modified_after.
	 * @param string|null                           $before paid_before / modified_before.
	 * @param array{0: int|null, 1: int|null}|false $bounds Their inclusive bounds.
	 */
	public function test_a_date_argument_has_inclusive_bounds( ?string $after, ?string $before, $bounds ): void {
		$args  = array(
			'page'       => 1,
			'per_page'   => 20,
			'orderby'    => 'date',
			'order'      => null,
			'with_total' => true,
		);
		$paid  = Paid_Order_Query::from_request(
			array(
				'paid_after'      => $after,
				'paid_before'     => $before,
				'modified_after'  => null,
				'modified_before' => null,
			) + $args,
			1767225540
		);
		$moved = Paid_Order_Query::from_request(
			array(
				'paid_after'      => null,
				'paid_before'     => null,
				'modified_after'  => $after,
				'modified_before' => $before,
			) + $args,
			1767225540
		);
		$this->assertSame( $bounds, $paid->matches_nothing ? false : array( $paid->paid_from, $paid->paid_to ) );
		$this->assertSame( $bounds, $moved->matches_nothing ? false : array( $moved->modified_from, $moved->modified_to ) );
		$this->assertSame( array( 'date', 'desc', null ), array( $paid->orderby, $paid->order, $paid->paid_before ) );
	}

	/**
	 * The sync order's cursor and bound: the settle bound unless paid_before is earlier.
	 */
	public function test_the_sync_order_takes_its_cursor_and_its_bound_from_the_request(): void {
		$args  = array(
			'page'            => 2,
			'per_page'        => 20,
			'orderby'         => 'date_paid',
			'order'           => null,
			'paid_after'      => '2026-01-30T12:53:20Z',
			'after_id'        => 42,
			'paid_before'     => null,
			'modified_after'  => null,
			'modified_before' => null,
			'with_total'      => false,
		);
		$query = Paid_Order_Query::from_request( $args, 1769877600 );
		$this->assertSame( array( 'paid_at', 'asc', 1769777600, 42, 1769877600, false, 20 ), array( $query->orderby, $query->order, $query->cursor_at, $query->cursor_id, $query->paid_before, $query->with_total, $query->offset() ) );
		$this->assertSame( 1769800000, Paid_Order_Query::from_request( array( 'paid_before' => '2026-01-30T19:06:40Z' ) + $args, 1769877600 )->paid_before );
		$this->assertSame( 0, Paid_Order_Query::from_request( array( 'paid_after' => null ) + $args, 1769877600 )->cursor_at );
	}

	/**
	 * A plain listing without filters takes every row.
	 */
	public function test_a_plain_listing_without_filters_takes_every_row(): void {
		$this->assertSame( '1 = 1', $this->index->where( new Paid_Order_Query( 1, 10, 'date', 'desc' ) ) );
	}

	/**
	 * A plain listing bounds the paid moment and the modification.
	 */
	public function test_a_plain_listing_bounds_the_paid_moment_and_the_modification(): void {
		$listing = new Paid_Order_Query( 1, 10, 'date', 'desc', paid_from: 1767000000, paid_to: 1767099999, modified_from: 1767100000 );
		$this->assertSame( '1 = 1 AND paid_at >= 1767000000 AND paid_at <= 1767099999 AND modified_at >= 1767100000', $this->index->where( $listing ) );
	}

	/**
	 * Sort arguments and the index's order.
	 *
	 * @return array<string, array{0: string, 1: string, 2: string}>
	 */
	public static function sorts(): array {
		return array(
			'date, newest first'   => array( 'date', 'desc', 'created_at DESC, order_id DESC' ),
			'date, oldest first'   => array( 'date', 'asc', 'created_at ASC, order_id ASC' ),
			'modified'             => array( 'modified', 'asc', 'modified_at ASC, order_id ASC' ),
			'id'                   => array( 'id', 'desc', 'order_id DESC' ),
			'an unknown key'       => array( 'total', 'asc', 'created_at ASC, order_id ASC' ),
			'an unknown direction' => array( 'id', 'sideways', 'order_id DESC' ),
		);
	}

	/**
	 * The id breaks ties in the sort's own direction, so pages never overlap.
	 *
	 * @dataProvider sorts
	 * @param string $orderby  The route's orderby.
	 * @param string $order    The route's order.
	 * @param string $order_by The index's ORDER BY.
	 */
	public function test_a_plain_listing_breaks_ties_by_id_in_its_direction( string $orderby, string $order, string $order_by ): void {
		$this->assertSame( $order_by, $this->index->order_by( new Paid_Order_Query( 1, 10, $orderby, $order ) ) );
	}
}

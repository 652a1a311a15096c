<?php
/**
 * The conditions and orders of the index's pages.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Commerce\Paid_Order_Listing;
use ServiceIntegration\Commerce\Paid_Order_Range;
use ServiceIntegration\Commerce\Paid_Orders;

/**
 * Which rows a page of the sync order (Paid_Order_Range: after a cursor, before a bound) and of
 * a plain listing (Paid_Order_Listing) takes from the index table, and in which order.
 */
final class PaidOrderWindowTest extends TestCase {

	/**
	 * The sync window starts after the cursor and stops before the bound.
	 */
	public function test_the_sync_window_starts_after_the_cursor_and_stops_before_the_bound(): void {
		$this->assertSame(
			'paid_at >= ' . Paid_Orders::FIRST_SECOND . ' AND paid_at < 1767225540 AND ( paid_at > 1767000000 OR ( paid_at = 1767000000 AND order_id > 42 ) )',
			( new Paid_Order_Range( 1767000000, 42, 1767225540 ) )->where()
		);
	}

	/**
	 * A cursor without an id keeps its whole second.
	 */
	public function test_a_cursor_without_an_id_keeps_its_whole_second(): void {
		$this->assertStringContainsString( '( paid_at = 1767000000 AND order_id > 0 )', ( new Paid_Order_Range( 1767000000, 0, 1767225540 ) )->where() );
	}

	/**
	 * Orders without a paid moment are never in the sync order.
	 */
	public function test_orders_without_a_paid_moment_are_never_in_the_sync_order(): void {
		// Rows with paid_at 0 (paid status, no moment) sit below FIRST_SECOND, whatever the cursor.
		$this->assertStringStartsWith( 'paid_at >= 1000000000 AND', ( new Paid_Order_Range( 0, 0, 1767225540 ) )->where() );
	}

	/**
	 * The sync order is paid moment then id ascending.
	 */
	public function test_the_sync_order_is_paid_moment_then_id_ascending(): void {
		$this->assertSame( 'paid_at ASC, order_id ASC', ( new Paid_Order_Range( 0, 0, 1 ) )->order_by() );
	}

	/**
	 * A modification range bounds the sync window inclusively.
	 */
	public function test_a_modification_range_bounds_the_sync_window_inclusively(): void {
		$where = Paid_Order_Range::from_filter( 1767000000, 0, 1767225540, '1767100000...1767199999' )->where();
		$this->assertStringEndsWith( ' AND modified_at >= 1767100000 AND modified_at <= 1767199999', $where );
	}

	/**
	 * A modification lower bound alone has no upper bound.
	 */
	public function test_a_modification_lower_bound_alone_has_no_upper_bound(): void {
		$where = Paid_Order_Range::from_filter( 1767000000, 0, 1767225540, '>=1767100000' )->where();
		$this->assertStringEndsWith( ' AND modified_at >= 1767100000', $where );
	}

	/**
	 * Date arguments and their bounds.
	 *
	 * @return array<string, array{0: string|null, 1: array{0: int|null, 1: int|null}}>
	 */
	public static function date_arguments(): array {
		return array(
			'none'             => array( null, array( null, null ) ),
			'from'             => array( '>=1767100000', array( 1767100000, null ) ),
			'between'          => array( '1767100000...1767199999', array( 1767100000, 1767199999 ) ),
			'another operator' => array( '<1767100000', array( null, null ) ),
			'not a timestamp'  => array( '>=2026-01-01', array( null, null ) ),
			'SQL'              => array( '>=1 OR 1=1', array( null, null ) ),
		);
	}

	/**
	 * Only the two forms the controller builds, with timestamps, bound a range.
	 *
	 * @dataProvider date_arguments
	 * @param string|null                     $argument The wc_get_orders date argument.
	 * @param array{0: int|null, 1: int|null} $bounds   Its inclusive bounds.
	 */
	public function test_a_date_argument_has_inclusive_bounds( ?string $argument, array $bounds ): void {
		$this->assertSame( $bounds, Paid_Order_Range::bounds( $argument ) );
	}

	/**
	 * A plain listing without filters takes every row.
	 */
	public function test_a_plain_listing_without_filters_takes_every_row(): void {
		$this->assertSame( '1 = 1', ( new Paid_Order_Listing( 'date', 'desc', array() ) )->where() );
	}

	/**
	 * A plain listing bounds the paid moment and the modification.
	 */
	public function test_a_plain_listing_bounds_the_paid_moment_and_the_modification(): void {
		$listing = new Paid_Order_Listing(
			'date',
			'desc',
			array(
				'paid_at'       => '1767000000...1767099999',
				'date_modified' => '>=1767100000',
			)
		);
		$this->assertSame( '1 = 1 AND paid_at >= 1767000000 AND paid_at <= 1767099999 AND modified_at >= 1767100000', $listing->where() );
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
		$this->assertSame( $order_by, ( new Paid_Order_Listing( $orderby, $order, array() ) )->order_by() );
	}
}

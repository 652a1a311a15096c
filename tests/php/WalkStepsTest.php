<?php
/**
 * The paid-orders index walk's decisions.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Commerce\Paid_Order_Index_Walk;
use ServiceIntegration\Commerce\Walk_Steps;

/**
 * Walk_Steps: windows of ids, the end of the walk, the sweep's actions, and a
 * walk started before WooCommerce was loaded.
 */
final class WalkStepsTest extends TestCase {

	/**
	 * A window is WINDOW ids from where the walk is (a walk starts at 0, ids start at 1).
	 */
	public function test_a_batch_reads_a_window_of_ids_from_where_the_walk_is(): void {
		$this->assertSame( range( 1, 500 ), Walk_Steps::window( 0, Paid_Order_Index_Walk::WINDOW ) );
		$this->assertSame( range( 501, 1000 ), Walk_Steps::window( 501, Paid_Order_Index_Walk::WINDOW ) );
		$this->assertSame( range( 999501, 1000000 ), Walk_Steps::window( 999501, Paid_Order_Index_Walk::WINDOW ) );
	}

	/**
	 * Windows and the highest id of a paid order.
	 *
	 * @return array<string, array{0: int, 1: int, 2: int|null}>
	 */
	public static function ends(): array {
		return array(
			'no paid order'                 => array( 0, 0, null ),
			'the last paid order in it'     => array( 0, 500, null ),
			'the last paid order after it'  => array( 0, 501, 501 ),
			'far along'                     => array( 999501, 2000000, 1000001 ),
			'the last paid order far below' => array( 999501, 12, null ),
		);
	}

	/**
	 * The walk goes on while a paid order has a higher id than the window's last.
	 *
	 * @dataProvider ends
	 * @param int      $from_id   Window start.
	 * @param int      $last_paid Highest paid id.
	 * @param int|null $next      Next window, or null.
	 */
	public function test_the_walk_goes_on_while_a_paid_order_lies_past_the_window( int $from_id, int $last_paid, ?int $next ): void {
		$this->assertSame( $next, Walk_Steps::next( $from_id, Paid_Order_Index_Walk::WINDOW, $last_paid ) );
	}

	/**
	 * A walk reads every order once even when orders are deleted meanwhile, and its batches
	 * cost the same wherever it is: WINDOW ids each, however many orders come before.
	 */
	public function test_a_walk_reads_every_order_once_even_when_orders_are_deleted_meanwhile(): void {
		$paid   = array_merge( range( 3, 650, 3 ), range( 1400, 1450 ) );
		$seen   = array();
		$from   = 0;
		$runs   = 0;
		$widths = array();
		while ( null !== $from && $runs < 100 ) {
			++$runs;
			$window   = Walk_Steps::window( $from, Paid_Order_Index_Walk::WINDOW );
			$widths[] = count( $window );
			foreach ( array_intersect( $paid, $window ) as $id ) {
				$this->assertArrayNotHasKey( $id, $seen );
				$seen[ $id ] = true;
			}
			if ( 1 === $runs ) {
				// Ten orders already walked are deleted between two batches.
				$paid = array_values( array_diff( $paid, range( 100, 130 ) ) );
			}
			$from = Walk_Steps::next( $from, Paid_Order_Index_Walk::WINDOW, (int) max( $paid ) );
		}
		$this->assertSame( 3, $runs );
		$this->assertSame( array( 500, 500, 500 ), $widths );
		$this->assertSame( array_merge( range( 3, 650, 3 ), range( 1400, 1450 ) ), array_keys( $seen ) );
	}

	/**
	 * The sweep writes again the orders still paid and removes the others in the rows order.
	 */
	public function test_the_sweep_writes_again_the_orders_still_paid_and_removes_the_others_in_the_rows_order(): void {
		$this->assertSame(
			array(
				5  => 'remove',
				9  => 'sync',
				12 => 'remove',
				40 => 'sync',
			),
			Walk_Steps::sweep( array( 5, 9, 12, 40 ), array( 40, 9, 77 ) )
		);
		$this->assertSame( array(), Walk_Steps::sweep( array(), array( 1 ) ) );
		$this->assertSame( array( 3 => 'remove' ), Walk_Steps::sweep( array( 3 ), array() ) );
	}

	/**
	 * Rows found and whether the sweep is done.
	 *
	 * @return array<string, array{0: int, 1: bool}>
	 */
	public static function sweeps(): array {
		return array(
			'none left'    => array( 0, true ),
			'a few'        => array( 3, true ),
			'one short'    => array( 199, true ),
			'a full batch' => array( 200, false ),
		);
	}

	/**
	 * A full batch may have more behind it.
	 *
	 * @dataProvider sweeps
	 * @param int  $found Rows found.
	 * @param bool $done  Whether the sweep ends.
	 */
	public function test_the_sweep_ends_after_a_batch_that_is_not_full( int $found, bool $done ): void {
		$this->assertSame( $done, Walk_Steps::swept( $found, Paid_Order_Index_Walk::BATCH ) );
	}

	/**
	 * States of the index and whether the walk takes today's statuses and source.
	 *
	 * @return array<string, array{0: array, 1: bool}>
	 */
	public static function states(): array {
		$statuses = array( 'processing', 'completed' );
		$source   = array(
			'plugin'  => 'woocommerce',
			'storage' => 'hpos',
		);
		return array(
			'walking, both known'     => array( self::state( 0, $statuses, $source ), false ),
			'walking, no statuses'    => array( self::state( 0, array(), $source ), true ),
			'walking, no source'      => array( self::state( 400, $statuses, array() ), true ),
			'walking, neither'        => array( self::state( 0, array(), array() ), true ),
			'sweeping, neither'       => array( self::state( Paid_Order_Index_Walk::SWEEPING, array(), array() ), true ),
			'not walking, neither'    => array( self::state( null, array(), array() ), false ),
			'not walking, both known' => array( self::state( null, $statuses, $source ), false ),
		);
	}

	/**
	 * A state.
	 *
	 * @param int|null $walk     Position.
	 * @param array    $statuses Paid statuses.
	 * @param array    $source   Order source.
	 */
	private static function state( ?int $walk, array $statuses, array $source ): array {
		return array(
			'walk'     => $walk,
			'statuses' => $statuses,
			'source'   => $source,
		);
	}

	/**
	 * Only a walk in progress that lacks them.
	 *
	 * @dataProvider states
	 * @param array $state State.
	 * @param bool  $blind Whether it was started without WooCommerce.
	 */
	public function test_a_walk_started_without_woocommerce_takes_todays_statuses_and_source( array $state, bool $blind ): void {
		$this->assertSame( $blind, Walk_Steps::started_blind( $state ) );
	}
}

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
 * Walk_Steps: batch windows with their overlap, the end of the walk, the sweep's actions, and a
 * walk started before WooCommerce was loaded.
 */
final class WalkStepsTest extends TestCase {

	/**
	 * Offsets reached and the window of the next batch (BATCH 200, OVERLAP 20).
	 *
	 * @return array<string, array{0: int, 1: int, 2: int}>
	 */
	public static function windows(): array {
		return array(
			'the first batch'    => array( 0, 0, 200 ),
			'within the overlap' => array( 5, 0, 205 ),
			'at the overlap'     => array( 20, 0, 220 ),
			'the second batch'   => array( 200, 180, 220 ),
			'far along'          => array( 10000, 9980, 220 ),
		);
	}

	/**
	 * Each batch reads OVERLAP orders again before the offset.
	 *
	 * @dataProvider windows
	 * @param int $offset Offset reached.
	 * @param int $from   First order read.
	 * @param int $limit  Orders asked for.
	 */
	public function test_a_batch_starts_an_overlap_before_the_offset_never_before_the_first( int $offset, int $from, int $limit ): void {
		$this->assertSame(
			array(
				'from'  => $from,
				'limit' => $limit,
			),
			Walk_Steps::window( $offset, Paid_Order_Index_Walk::BATCH, Paid_Order_Index_Walk::OVERLAP )
		);
	}

	/**
	 * Batches and where the next starts.
	 *
	 * @return array<string, array{0: int, 1: int, 2: int, 3: int|null}>
	 */
	public static function ends(): array {
		return array(
			'a full first batch'   => array( 0, 200, 200, 200 ),
			'a full later batch'   => array( 180, 220, 220, 400 ),
			'one short'            => array( 180, 220, 219, null ),
			'none read'            => array( 0, 200, 0, null ),
			'an empty later batch' => array( 380, 220, 0, null ),
		);
	}

	/**
	 * A batch that is not full was the last.
	 *
	 * @dataProvider ends
	 * @param int      $from  Start.
	 * @param int      $limit Asked for.
	 * @param int      $read  Read.
	 * @param int|null $next  Next offset, or null.
	 */
	public function test_the_walk_goes_on_after_a_full_batch_only( int $from, int $limit, int $read, ?int $next ): void {
		$this->assertSame( $next, Walk_Steps::next( $from, $limit, $read ) );
	}

	/**
	 * A walk reads every order once past the overlap even when orders are deleted meanwhile.
	 */
	public function test_a_walk_reads_every_order_once_past_the_overlap_even_when_orders_are_deleted_meanwhile(): void {
		$orders = range( 1, 650 );
		$seen   = array();
		$offset = 0;
		$runs   = 0;
		while ( null !== $offset && $runs < 100 ) {
			++$runs;
			$window = Walk_Steps::window( $offset, Paid_Order_Index_Walk::BATCH, Paid_Order_Index_Walk::OVERLAP );
			$read   = array_slice( $orders, $window['from'], $window['limit'] );
			foreach ( $read as $id ) {
				$seen[ $id ] = true;
			}
			if ( 2 === $runs ) {
				// Ten orders already walked are deleted between two batches.
				$orders = array_values( array_diff( $orders, range( 100, 109 ) ) );
			}
			$offset = Walk_Steps::next( $window['from'], $window['limit'], count( $read ) );
		}
		$this->assertSame( 4, $runs );
		$this->assertSame( range( 1, 650 ), array_keys( $seen ) );
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

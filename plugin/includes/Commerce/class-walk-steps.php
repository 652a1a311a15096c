<?php
/**
 * The paid-orders index walk's decisions, on plain values.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What Paid_Order_Index_Walk decides apart from reading orders and writing rows: which order ids
 * a batch reads, where the next one starts, what the sweep does with each row it finds, and whether
 * a walk started without WooCommerce must take today's statuses and order source. Tested on its
 * own (tests/php/WalkStepsTest.php).
 */
final class Walk_Steps {

	/**
	 * The order ids a batch reads: the window of $width ids from $from_id (whatever orders
	 * they are, if any), so a batch costs the same at the first order as at the millionth,
	 * and an order deleted meanwhile moves no other one.
	 *
	 * @param int $from_id First id of the window.
	 * @param int $width   Ids a window spans.
	 * @return int[]
	 */
	public static function window( int $from_id, int $width ): array {
		return range( max( 1, $from_id ), max( 1, $from_id ) + $width - 1 );
	}

	/**
	 * Where the next batch starts, or null when this window reached the highest id of a paid
	 * order (orders paid after that have higher ids still, and the save hooks index them).
	 *
	 * @param int $from_id   First id of this window.
	 * @param int $width     Ids it spans.
	 * @param int $last_paid The highest id of a paid order now (0: none).
	 */
	public static function next( int $from_id, int $width, int $last_paid ): ?int {
		$next = max( 1, $from_id ) + $width;
		return $next > $last_paid ? null : $next;
	}

	/**
	 * What the sweep does with each row the walk did not write, in the rows' order: the order is
	 * written again when it is still paid, its row removed otherwise.
	 *
	 * @param int[] $ids  Rows' order ids.
	 * @param int[] $paid The ids among them of orders still paid.
	 * @return array<int, string> Order id => 'sync' or 'remove'.
	 */
	public static function sweep( array $ids, array $paid ): array {
		$paid    = array_fill_keys( $paid, true );
		$actions = array();
		foreach ( $ids as $id ) {
			$actions[ $id ] = isset( $paid[ $id ] ) ? 'sync' : 'remove';
		}
		return $actions;
	}

	/**
	 * Whether the sweep has found every such row: its last batch was not full.
	 *
	 * @param int $found Rows found by this batch.
	 * @param int $batch Rows a batch asks for.
	 */
	public static function swept( int $found, int $batch ): bool {
		return $found < $batch;
	}

	/**
	 * Whether a walk in progress was started while WooCommerce was not loaded (no statuses or
	 * order source recorded), so it is the walk for today's.
	 *
	 * @param array{walk: int|null, statuses: array, source: array} $state The index's state.
	 */
	public static function started_blind( array $state ): bool {
		return null !== $state['walk'] && ( ! $state['statuses'] || ! $state['source'] );
	}
}

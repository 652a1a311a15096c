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
 * What Paid_Order_Index_Walk decides apart from reading orders and writing rows: which orders a
 * batch reads, where the next one starts, what the sweep does with each row it finds, and whether
 * a walk started without WooCommerce must take today's statuses and order source. Tested on its
 * own (tests/php/WalkStepsTest.php).
 */
final class Walk_Steps {

	/**
	 * The orders a batch reads: from $overlap before the offset reached (never before the
	 * first), so orders deleted meanwhile shift none past it, and as many more as that overlap.
	 *
	 * @param int $offset  Paid orders already walked, in id order.
	 * @param int $batch   Orders a batch walks past the offset.
	 * @param int $overlap Orders read again before it.
	 * @return array{from: int, limit: int}
	 */
	public static function window( int $offset, int $batch, int $overlap ): array {
		$from = max( 0, $offset - $overlap );
		return array(
			'from'  => $from,
			'limit' => $batch + ( $offset - $from ),
		);
	}

	/**
	 * Where the next batch starts, or null when this one read fewer orders than it asked for
	 * (it was the last).
	 *
	 * @param int $from  Where this batch started.
	 * @param int $limit Orders it asked for.
	 * @param int $read  Orders it read.
	 */
	public static function next( int $from, int $limit, int $read ): ?int {
		return $read < $limit ? null : $from + $read;
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

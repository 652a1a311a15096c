<?php
/**
 * The incremental-sync order of paid orders, (paid moment ASC, id ASC) (pure: no WordPress, no I/O).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * WooCommerce cannot sort by the paid moment (Paid_Moment), so Paid_Orders locates a page by
 * counting orders per range of seconds and ranks them itself; these are the rules it ranks by.
 */
final class Paid_Date_Ranking {

	/**
	 * Compares two orders in the sync order: paid earlier first, then the lower id.
	 *
	 * @param int $paid_a Order A's paid moment (UTC timestamp).
	 * @param int $id_a   Order A's id.
	 * @param int $paid_b Order B's paid moment.
	 * @param int $id_b   Order B's id.
	 * @return int Negative, zero or positive, as usort() takes it.
	 */
	public static function compare( int $paid_a, int $id_a, int $paid_b, int $id_b ): int {
		return array( $paid_a, $id_a ) <=> array( $paid_b, $id_b );
	}

	/**
	 * The ids of the cursor's own second that come after the cursor: only ids order orders
	 * paid within one second.
	 *
	 * @param int[] $ids      Ids paid in the cursor's second.
	 * @param int   $after_id The cursor's id (0: the whole second).
	 * @return int[] Ascending.
	 */
	public static function after_cursor( array $ids, int $after_id ): array {
		$after = array_values( array_filter( $ids, static fn( int $id ): bool => $id > $after_id ) );
		sort( $after );
		return $after;
	}

	/**
	 * The second holding the order of rank $rank: the last second $s in [$low, $high) with
	 * rank_before( $s ) <= $rank (binary search on counts; rank_before grows with $s).
	 *
	 * @param int      $rank        Rank.
	 * @param int      $low         Lowest candidate second (rank_before( $low ) <= $rank).
	 * @param int      $high        Exclusive upper bound.
	 * @param callable $rank_before Second => how many orders of the set come before it.
	 */
	public static function second_of_rank( int $rank, int $low, int $high, callable $rank_before ): int {
		--$high;
		while ( $low < $high ) {
			$mid = $low + intdiv( $high - $low + 1, 2 );
			if ( $rank_before( $mid ) <= $rank ) {
				$low = $mid;
			} else {
				$high = $mid - 1;
			}
		}
		return $low;
	}
}

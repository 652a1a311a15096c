<?php
/**
 * The incremental-sync order of paid orders.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Commerce\Paid_Date_Ranking;

/**
 * Paid_Date_Ranking: (date_paid ASC, id ASC), the cursor's own second, and locating a rank by counts.
 */
final class PaidDateRankingTest extends TestCase {

	/**
	 * Orders by payment time then id.
	 */
	public function test_orders_by_payment_time_then_id(): void {
		$orders = array(
			array( 1700000005, 7 ),
			array( 1700000001, 9 ),
			array( 1700000005, 3 ),
			array( 1700000001, 2 ),
		);
		usort( $orders, static fn( array $a, array $b ): int => Paid_Date_Ranking::compare( $a[0], $a[1], $b[0], $b[1] ) );
		$this->assertSame( array( array( 1700000001, 2 ), array( 1700000001, 9 ), array( 1700000005, 3 ), array( 1700000005, 7 ) ), $orders );
	}

	/**
	 * An earlier payment wins over a lower id.
	 */
	public function test_an_earlier_payment_wins_over_a_lower_id(): void {
		$this->assertLessThan( 0, Paid_Date_Ranking::compare( 100, 50, 101, 1 ) );
		$this->assertGreaterThan( 0, Paid_Date_Ranking::compare( 101, 1, 100, 50 ) );
		$this->assertSame( 0, Paid_Date_Ranking::compare( 100, 5, 100, 5 ) );
	}

	/**
	 * Keeps the ids of the cursor second above the cursor id ascending.
	 */
	public function test_keeps_the_ids_of_the_cursor_second_above_the_cursor_id_ascending(): void {
		$this->assertSame( array( 12, 40 ), Paid_Date_Ranking::after_cursor( array( 40, 5, 12, 11 ), 11 ) );
		$this->assertSame( array( 5, 11, 12, 40 ), Paid_Date_Ranking::after_cursor( array( 40, 5, 12, 11 ), 0 ) );
		$this->assertSame( array(), Paid_Date_Ranking::after_cursor( array( 3, 4 ), 4 ) );
	}

	/**
	 * Orders paid per second in [100, 110): second => count.
	 *
	 * @return callable Second => how many orders come before it (from second 100).
	 */
	private static function rank_before(): callable {
		$per_second = array(
			100 => 2,
			101 => 0,
			102 => 3,
			103 => 0,
			104 => 0,
			105 => 1,
			106 => 0,
			107 => 4,
			108 => 0,
			109 => 0,
		);
		return static function ( int $second ) use ( $per_second ): int {
			$before = 0;
			foreach ( $per_second as $s => $count ) {
				$before += $s < $second ? $count : 0;
			}
			return $before;
		};
	}

	/**
	 * Rank => the second that holds it, for the distribution above (10 orders).
	 *
	 * @return array<string, array{int, int}>
	 */
	public function ranks(): array {
		return array(
			'the first order'                   => array( 0, 100 ),
			'the last of the first second'      => array( 1, 100 ),
			'past an empty second'              => array( 2, 102 ),
			'inside a second'                   => array( 4, 102 ),
			'a second of its own'               => array( 5, 105 ),
			'the first of the last busy second' => array( 6, 107 ),
			'the last order'                    => array( 9, 107 ),
		);
	}

	/**
	 * Each rank is found in the second that holds it.
	 *
	 * @dataProvider ranks
	 *
	 * @param int $rank   Rank.
	 * @param int $second Expected second.
	 */
	public function test_finds_the_second_holding_a_rank( int $rank, int $second ): void {
		$this->assertSame( $second, Paid_Date_Ranking::second_of_rank( $rank, 100, 110, self::rank_before() ) );
	}

	/**
	 * Searches only from low and below high.
	 */
	public function test_searches_only_from_low_and_below_high(): void {
		$this->assertSame( 105, Paid_Date_Ranking::second_of_rank( 5, 105, 110, self::rank_before() ) );
		$this->assertSame( 100, Paid_Date_Ranking::second_of_rank( 9, 100, 101, self::rank_before() ) );
	}

	/**
	 * Asks for few counts.
	 */
	public function test_asks_for_few_counts(): void {
		$asked       = 0;
		$rank_before = self::rank_before();
		$counting    = static function ( int $second ) use ( &$asked, $rank_before ): int {
			++$asked;
			return $rank_before( $second );
		};
		Paid_Date_Ranking::second_of_rank( 6, 100, 100 + 86400, $counting );
		// A day of seconds: a binary search, about log2(86400) ≈ 17 counts, never one per second.
		$this->assertLessThanOrEqual( 18, $asked );
	}
}

<?php
/**
 * Which handed-over outbox rows retention deletes.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Outbound\Outbound_Rules;

/**
 * Outbound_Rules::retention_cutoff().
 */
final class OutboxRetentionTest extends TestCase {

	const NOW = 1767225600;

	/**
	 * The cutoff is that many days before now.
	 */
	public function test_the_cutoff_is_that_many_days_before_now(): void {
		$this->assertSame( self::NOW - 30 * 86400, Outbound_Rules::retention_cutoff( self::NOW, 30 ) );
	}

	/**
	 * Zero days deletes every row handed over until now.
	 */
	public function test_zero_days_deletes_every_row_handed_over_until_now(): void {
		$this->assertSame( self::NOW, Outbound_Rules::retention_cutoff( self::NOW, 0 ) );
	}

	/**
	 * A fraction of a day counts to the second.
	 */
	public function test_a_fraction_of_a_day_counts_to_the_second(): void {
		$this->assertSame( self::NOW - 43200, Outbound_Rules::retention_cutoff( self::NOW, 0.5 ) );
		$this->assertSame( self::NOW - 1, Outbound_Rules::retention_cutoff( self::NOW, 1 / 86400 ) );
	}

	/**
	 * A negative or unreadable age deletes nothing.
	 */
	public function test_a_negative_or_unreadable_age_deletes_nothing(): void {
		$this->assertNull( Outbound_Rules::retention_cutoff( self::NOW, -1 ) );
		$this->assertNull( Outbound_Rules::retention_cutoff( self::NOW, NAN ) );
	}
}

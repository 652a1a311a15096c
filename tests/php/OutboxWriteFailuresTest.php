<?php
/**
 * The tally of events the outbox could not store.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Outbound\Outbound_Rules;

/**
 * Outbound_Rules::write_failures_add() and read().
 */
final class OutboxWriteFailuresTest extends TestCase {

	const NOW = 1767225600;

	/**
	 * The first failure starts the tally.
	 */
	public function test_the_first_failure_starts_the_tally(): void {
		$this->assertSame(
			array(
				'count'      => 1,
				'last_event' => 'evt_1',
				'last_error' => 'Table is full',
				'last_at'    => '2026-01-01T00:00:00+00:00',
			),
			Outbound_Rules::write_failures_add( array(), 'evt_1', 'Table is full', self::NOW )
		);
	}

	/**
	 * Each failure adds one and keeps the last.
	 */
	public function test_each_failure_adds_one_and_keeps_the_last(): void {
		$tally = Outbound_Rules::write_failures_add( array(), 'evt_1', 'first', self::NOW );
		$tally = Outbound_Rules::write_failures_add( $tally, 'evt_2', 'second', self::NOW + 60 );
		$this->assertSame( 2, $tally['count'] );
		$this->assertSame( 'evt_2', $tally['last_event'] );
		$this->assertSame( 'second', $tally['last_error'] );
		$this->assertSame( '2026-01-01T00:01:00+00:00', $tally['last_at'] );
	}

	/**
	 * A damaged option counts as no failure before.
	 */
	public function test_a_damaged_option_counts_as_no_failure_before(): void {
		foreach ( array( false, 'garbage', 7, array( 'count' => -3 ) ) as $stored ) {
			$this->assertSame( 1, Outbound_Rules::write_failures_add( $stored, 'evt_1', 'x', self::NOW )['count'] );
		}
	}

	/**
	 * The error is cut to the column size.
	 */
	public function test_the_error_is_cut_to_the_column_size(): void {
		$tally = Outbound_Rules::write_failures_add( array(), 'evt_1', str_repeat( 'e', 1000 ), self::NOW );
		$this->assertSame( Outbound_Rules::WRITE_ERROR_LENGTH, strlen( $tally['last_error'] ) );
	}

	/**
	 * No option reads as no failure.
	 */
	public function test_no_option_reads_as_no_failure(): void {
		$this->assertSame(
			array(
				'count'      => 0,
				'last_event' => null,
				'last_error' => null,
				'last_at'    => null,
			),
			Outbound_Rules::write_failures( false )
		);
	}
}

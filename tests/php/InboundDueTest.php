<?php
/**
 * Which stored inbound events a processing run may take, and for how long.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Inbound\Inbound_Rules;
use ServiceIntegration\Inbound\Inbound_Store;

/**
 * Inbound_Rules::due_condition() and lease_until().
 */
final class InboundDueTest extends TestCase {

	/**
	 * The condition has one value for each placeholder.
	 */
	public function test_the_condition_has_one_value_for_each_placeholder(): void {
		list( $sql, $values ) = Inbound_Rules::due_condition( '2026-01-01 00:00:00' );
		$this->assertSame( substr_count( $sql, '%s' ), count( $values ) );
	}

	/**
	 * Received and failed events wait for an attempt processed ones never.
	 */
	public function test_received_and_failed_events_wait_for_an_attempt_processed_ones_never(): void {
		list( , $values ) = Inbound_Rules::due_condition( '2026-01-01 00:00:00' );
		$this->assertSame( array( Inbound_Store::STATUS_RECEIVED, Inbound_Store::STATUS_FAILED ), array_slice( $values, 0, 2 ) );
		$this->assertNotContains( Inbound_Store::STATUS_PROCESSED, $values );
	}

	/**
	 * An event is due once its time has come and no live claim holds it.
	 */
	public function test_an_event_is_due_once_its_time_has_come_and_no_live_claim_holds_it(): void {
		list( $sql, $values ) = Inbound_Rules::due_condition( '2026-01-01 00:00:00' );
		$this->assertStringContainsString( 'next_attempt_at IS NOT NULL AND next_attempt_at <= %s', $sql );
		$this->assertStringContainsString( '(locked_until IS NULL OR locked_until < %s)', $sql );
		$this->assertSame( array( '2026-01-01 00:00:00', '2026-01-01 00:00:00' ), array_slice( $values, 2 ) );
	}

	/**
	 * A claim holds for the lease from now.
	 */
	public function test_a_claim_holds_for_the_lease_from_now(): void {
		$this->assertSame( 1000 + 300, Inbound_Rules::lease_until( 1000, 300 ) );
	}

	/**
	 * A lease under a second still holds one second.
	 */
	public function test_a_lease_under_a_second_still_holds_one_second(): void {
		$this->assertSame( 1001, Inbound_Rules::lease_until( 1000, 0 ) );
		$this->assertSame( 1001, Inbound_Rules::lease_until( 1000, -60 ) );
	}
}

<?php
/**
 * The lock row's value and when a lock counts as abandoned.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Support\Option_Lock;

/**
 * Option_Lock::value() and is_abandoned().
 */
final class OptionLockValueTest extends TestCase {

	/**
	 * The value is the expiry then the token.
	 */
	public function test_the_value_is_the_expiry_then_the_token(): void {
		$this->assertSame( '1060:abc', Option_Lock::value( 1000, 60, 'abc' ) );
	}

	/**
	 * A lock before or at its expiry is held.
	 */
	public function test_a_lock_before_or_at_its_expiry_is_held(): void {
		$this->assertFalse( Option_Lock::is_abandoned( '1060:abc', 1059 ) );
		$this->assertFalse( Option_Lock::is_abandoned( '1060:abc', 1060 ) );
	}

	/**
	 * A lock past its expiry is abandoned.
	 */
	public function test_a_lock_past_its_expiry_is_abandoned(): void {
		$this->assertTrue( Option_Lock::is_abandoned( '1060:abc', 1061 ) );
	}

	/**
	 * No row is not abandoned the next attempt inserts.
	 */
	public function test_no_row_is_not_abandoned_the_next_attempt_inserts(): void {
		$this->assertFalse( Option_Lock::is_abandoned( null, 1000 ) );
	}

	/**
	 * A value without a readable expiry is abandoned.
	 */
	public function test_a_value_without_a_readable_expiry_is_abandoned(): void {
		$this->assertTrue( Option_Lock::is_abandoned( 'garbage', 1000 ) );
		$this->assertTrue( Option_Lock::is_abandoned( '', 1000 ) );
	}
}

<?php
/**
 * The options-table lock on WordPress's wpdb and MariaDB.
 *
 * @package ServiceIntegration
 */

use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Support\Option_Lock;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\Store_Test_Case;

/**
 * Option_Lock: one atomic insert, a compare-and-set take-over of an abandoned lock, a release of
 * its own value only, and a database error as an error, never as "held" nor "taken".
 */
final class OptionLockTest extends Store_Test_Case {

	const NOW = 1767225600;

	/**
	 * The lock under test.
	 *
	 * @var Option_Lock
	 */
	private Option_Lock $lock;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		parent::setUp();
		$this->lock = new Option_Lock( $this->db, new Fixed_Clock( self::NOW ), 'a_lock' );
	}

	/**
	 * Another holder's row in the options table.
	 *
	 * @param string $value The row's value (expiry:token).
	 */
	private function held_by( string $value ): void {
		$this->sql( $this->db->prepare( "INSERT INTO {$this->db->options} (option_name, option_value, autoload) VALUES ('a_lock', %s, 'no')", $value ) );
	}

	/**
	 * A free lock is taken with one row expiring after its ttl, not autoloaded.
	 */
	public function test_a_free_lock_is_taken_with_one_row_expiring_after_its_ttl(): void {
		$this->assertTrue( $this->lock->acquire( 60 ) );
		$rows = $this->rows( $this->db->options, "option_name = 'a_lock'" );
		$this->assertCount( 1, $rows );
		$this->assertMatchesRegularExpression( '/^' . ( self::NOW + 60 ) . ':[0-9A-Za-z]{16}$/', $rows[0]['option_value'] );
		$this->assertSame( 'no', $rows[0]['autoload'] );
	}

	/**
	 * A lock held by a live holder is not taken and its row is left as it was.
	 */
	public function test_a_lock_held_by_a_live_holder_is_not_taken_and_not_touched(): void {
		$this->held_by( ( self::NOW + 10 ) . ':other' );
		$this->assertFalse( $this->lock->acquire( 60 ) );
		$this->assertSame( ( self::NOW + 10 ) . ':other', $this->stored_option( 'a_lock' ) );
	}

	/**
	 * An abandoned lock is taken over: the row then holds this holder's value.
	 */
	public function test_an_abandoned_lock_is_taken_over(): void {
		$this->held_by( ( self::NOW - 1 ) . ':dead' );
		$this->assertTrue( $this->lock->acquire( 60 ) );
		$this->assertMatchesRegularExpression( '/^' . ( self::NOW + 60 ) . ':[0-9A-Za-z]{16}$/', $this->stored_option( 'a_lock' ) );
	}

	/**
	 * An abandoned lock another request takes over between the read and the take-over is not taken:
	 * the other request keeps it.
	 */
	public function test_an_abandoned_lock_another_request_just_took_is_not_taken(): void {
		$this->held_by( ( self::NOW - 1 ) . ':dead' );
		$this->just_before(
			'UPDATE',
			fn() => $this->sql( "UPDATE {$this->db->options} SET option_value = '" . ( self::NOW + 60 ) . ":theirs' WHERE option_name = 'a_lock'" )
		);
		$this->assertFalse( $this->lock->acquire( 60 ) );
		$this->assertSame( ( self::NOW + 60 ) . ':theirs', $this->stored_option( 'a_lock' ) );
	}

	/**
	 * The holder's release removes its row; a second release does nothing.
	 */
	public function test_the_holder_releases_its_own_row_once(): void {
		$this->assertTrue( $this->lock->acquire( 60 ) );
		$this->assertTrue( $this->lock->release() );
		$this->assertNull( $this->stored_option( 'a_lock' ) );
		$this->held_by( ( self::NOW + 10 ) . ':next' );
		$this->assertTrue( $this->lock->release() );
		$this->assertSame( ( self::NOW + 10 ) . ':next', $this->stored_option( 'a_lock' ) );
	}

	/**
	 * A holder whose lock was taken over after it expired releases nothing of the new holder's.
	 */
	public function test_a_release_leaves_the_lock_of_a_holder_that_took_it_over(): void {
		$this->assertTrue( $this->lock->acquire( 60 ) );
		$this->sql( "UPDATE {$this->db->options} SET option_value = '" . ( self::NOW + 200 ) . ":theirs' WHERE option_name = 'a_lock'" );
		$this->assertTrue( $this->lock->release() );
		$this->assertSame( ( self::NOW + 200 ) . ':theirs', $this->stored_option( 'a_lock' ) );
	}

	/**
	 * A lock not held releases nothing.
	 */
	public function test_a_lock_not_held_releases_nothing(): void {
		$this->held_by( ( self::NOW + 10 ) . ':other' );
		$this->assertTrue( $this->lock->release() );
		$this->assertSame( ( self::NOW + 10 ) . ':other', $this->stored_option( 'a_lock' ) );
	}

	/**
	 * A failed insert is a database error, not a held lock, and is not retried for the wait.
	 */
	public function test_a_failed_insert_is_a_database_error_not_a_held_lock(): void {
		$this->break_table( $this->db->options );
		$sent   = $this->statements();
		$answer = $this->lock->acquire( 60, 5.0 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		// No waiting out the five seconds on a database that does not answer: one attempt.
		$this->assertCount( 1, $sent );
	}

	/**
	 * A failed read (the table gone between the insert and the read) is a database error.
	 */
	public function test_a_failed_read_is_a_database_error(): void {
		$this->held_by( ( self::NOW + 10 ) . ':other' );
		$this->just_before( 'SELECT', fn() => $this->break_table( $this->db->options ) );
		$answer = $this->lock->acquire( 60 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
	}

	/**
	 * A failed take-over is a database error, and the abandoned row stays as it was.
	 */
	public function test_a_failed_take_over_is_a_database_error(): void {
		$this->held_by( ( self::NOW - 1 ) . ':dead' );
		$this->refuse( 'UPDATE', $this->db->options, "OLD.option_name = 'a_lock'" );
		$answer = $this->lock->acquire( 60 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		$this->assertSame( ( self::NOW - 1 ) . ':dead', $this->stored_option( 'a_lock' ) );
	}

	/**
	 * A failed release is a database error; the row stays (it expires) and the lock is no longer held.
	 */
	public function test_a_failed_release_is_a_database_error_and_the_lock_is_no_longer_held(): void {
		$this->assertTrue( $this->lock->acquire( 60 ) );
		$held = $this->stored_option( 'a_lock' );
		$this->refuse( 'DELETE', $this->db->options, "OLD.option_name = 'a_lock'" );
		$answer = $this->lock->release();
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		$this->assertSame( $held, $this->stored_option( 'a_lock' ) );
		$this->assertTrue( $this->lock->release() );
	}
}

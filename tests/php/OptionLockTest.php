<?php
/**
 * The options-table lock over a recording database and a fixed clock.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Database_Error;
use ServiceIntegration\Option_Lock;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * Option_Lock: one atomic insert, a compare-and-set take-over of an abandoned lock, a release of
 * its own value only, and a database error as an error, never as "held" nor "taken".
 */
final class OptionLockTest extends TestCase {

	const NOW = 1767225600;

	/**
	 * The database.
	 *
	 * @var Recording_Wpdb
	 */
	private Recording_Wpdb $db;

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
		$this->db          = new Recording_Wpdb();
		$this->db->options = 'shop_options';
		$this->lock        = new Option_Lock( $this->db, new Fixed_Clock( self::NOW ), 'a_lock' );
	}

	/**
	 * A free lock is taken with one insert expiring after its ttl.
	 */
	public function test_a_free_lock_is_taken_with_one_insert_expiring_after_its_ttl(): void {
		$this->db->answers( 'INSERT IGNORE INTO shop_options', 1 );
		$this->assertTrue( $this->lock->acquire( 60 ) );
		$args = $this->db->prepared[0]['args'];
		$this->assertSame( 'a_lock', $args[0] );
		$this->assertMatchesRegularExpression( '/^' . ( self::NOW + 60 ) . ':[0-9a-f]{16}$/', $args[1] );
		$this->assertCount( 1, $this->db->queries );
	}

	/**
	 * A lock held by a live holder is not taken and not touched.
	 */
	public function test_a_lock_held_by_a_live_holder_is_not_taken_and_not_touched(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT option_value FROM shop_options', ( self::NOW + 10 ) . ':other' );
		$this->assertFalse( $this->lock->acquire( 60 ) );
		$this->assertCount( 2, $this->db->queries );
	}

	/**
	 * An abandoned lock is taken over only from the value read.
	 */
	public function test_an_abandoned_lock_is_taken_over_only_from_the_value_read(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT option_value', ( self::NOW - 1 ) . ':dead' );
		$this->db->answers( 'UPDATE shop_options SET option_value', 1 );
		$this->assertTrue( $this->lock->acquire( 60 ) );
		$args = $this->db->prepared[2]['args'];
		$this->assertSame( array( 'a_lock', ( self::NOW - 1 ) . ':dead' ), array_slice( $args, 1 ) );
	}

	/**
	 * An abandoned lock another request just took is not taken.
	 */
	public function test_an_abandoned_lock_another_request_just_took_is_not_taken(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT option_value', ( self::NOW - 1 ) . ':dead' );
		$this->db->answers( 'UPDATE', 0 );
		$this->assertFalse( $this->lock->acquire( 60 ) );
	}

	/**
	 * The holder releases its own value only once.
	 */
	public function test_the_holder_releases_its_own_value_only_once(): void {
		$this->db->answers( 'INSERT IGNORE', 1 );
		$this->lock->acquire( 60 );
		$held = $this->db->prepared[0]['args'][1];
		$this->db->answers( 'DELETE FROM shop_options', 1 );
		$this->assertTrue( $this->lock->release() );
		$this->assertSame( array( 'a_lock', $held ), $this->db->prepared[1]['args'] );
		$this->assertTrue( $this->lock->release() );
		$this->assertCount( 2, $this->db->queries );
	}

	/**
	 * A lock not held releases nothing.
	 */
	public function test_a_lock_not_held_releases_nothing(): void {
		$this->assertTrue( $this->lock->release() );
		$this->assertSame( array(), $this->db->queries );
	}

	/**
	 * A failed insert is a database error not a held lock.
	 */
	public function test_a_failed_insert_is_a_database_error_not_a_held_lock(): void {
		$this->db->fails( 'INSERT IGNORE' );
		$answer = $this->lock->acquire( 60, 5.0 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		// No waiting out the five seconds on a database that does not answer.
		$this->assertCount( 1, $this->db->queries );
	}

	/**
	 * A failed read is a database error.
	 */
	public function test_a_failed_read_is_a_database_error(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->fails( 'SELECT option_value' );
		$this->assertInstanceOf( WP_Error::class, $this->lock->acquire( 60 ) );
	}

	/**
	 * A failed take over is a database error.
	 */
	public function test_a_failed_take_over_is_a_database_error(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT option_value', ( self::NOW - 1 ) . ':dead' );
		$this->db->fails( 'UPDATE' );
		$this->assertInstanceOf( WP_Error::class, $this->lock->acquire( 60 ) );
	}

	/**
	 * A failed release is a database error and the lock is no longer held.
	 */
	public function test_a_failed_release_is_a_database_error_and_the_lock_is_no_longer_held(): void {
		$this->db->answers( 'INSERT IGNORE', 1 );
		$this->lock->acquire( 60 );
		$this->db->fails( 'DELETE FROM' );
		$this->assertInstanceOf( WP_Error::class, $this->lock->release() );
		$this->assertTrue( $this->lock->release() );
	}
}

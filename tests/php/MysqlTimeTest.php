<?php
/**
 * Unix times as the plugin's tables store them.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Support\Mysql_Time;

/**
 * Mysql_Time::of() and unix().
 */
final class MysqlTimeTest extends TestCase {

	/**
	 * A unix time is written as a utc datetime.
	 */
	public function test_a_unix_time_is_written_as_a_utc_datetime(): void {
		$this->assertSame( '1970-01-01 00:00:00', Mysql_Time::of( 0 ) );
		$this->assertSame( '2026-03-29 01:30:00', Mysql_Time::of( 1774747800 ) );
	}

	/**
	 * A stored datetime is read as utc whatever the php time zone.
	 */
	public function test_a_stored_datetime_is_read_as_utc_whatever_the_php_time_zone(): void {
		$zone = date_default_timezone_get();
		date_default_timezone_set( 'Europe/Paris' ); // phpcs:ignore WordPress.DateTime.RestrictedFunctions.timezone_change_date_default_timezone_set -- the test checks the conversion under a non-UTC PHP default time zone and restores it
		try {
			$this->assertSame( 1774747800, Mysql_Time::unix( '2026-03-29 01:30:00' ) );
		} finally {
			date_default_timezone_set( $zone ); // phpcs:ignore WordPress.DateTime.RestrictedFunctions.timezone_change_date_default_timezone_set -- the test checks the conversion under a non-UTC PHP default time zone and restores it
		}
	}

	/**
	 * Writing then reading gives the same second.
	 */
	public function test_writing_then_reading_gives_the_same_second(): void {
		foreach ( array( 1, 86399, 1700000000, 2147483647 ) as $unix ) {
			$this->assertSame( $unix, Mysql_Time::unix( Mysql_Time::of( $unix ) ) );
		}
	}

	/**
	 * No value and a value that is no date read as null.
	 */
	public function test_no_value_and_a_value_that_is_no_date_read_as_null(): void {
		$this->assertNull( Mysql_Time::unix( null ) );
		$this->assertNull( Mysql_Time::unix( '' ) );
		$this->assertNull( Mysql_Time::unix( 'not a date' ) );
	}
}

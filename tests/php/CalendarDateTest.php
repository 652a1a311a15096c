<?php
/**
 * The manufacturing orders' calendar dates.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Manufacturing\Calendar_Date;

/**
 * Calendar_Date::is_valid(): YYYY-MM-DD naming a day that exists, the check behind a due date in
 * REST and in the edit screen's details box.
 */
final class CalendarDateTest extends TestCase {

	/**
	 * Days that exist.
	 *
	 * @return array<string, array{string}>
	 */
	public function real_days(): array {
		return array(
			'an ordinary day'            => array( '2026-12-15' ),
			'the last day of February'   => array( '2026-02-28' ),
			'a leap day'                 => array( '2028-02-29' ),
			'a leap day of a 400th year' => array( '2000-02-29' ),
			'the 31st of a long month'   => array( '2026-01-31' ),
			'the first day of year 1'    => array( '0001-01-01' ),
			'the last day of year 9999'  => array( '9999-12-31' ),
		);
	}

	/**
	 * Strings that are not a day: impossible days, and other shapes.
	 *
	 * @return array<string, array{string}>
	 */
	public function not_days(): array {
		return array(
			'the 30th of February'        => array( '2026-02-30' ),
			'a leap day of a common year' => array( '2026-02-29' ),
			'a leap day of a 100th year'  => array( '1900-02-29' ),
			'the 31st of a 30-day month'  => array( '2026-04-31' ),
			'day 0'                       => array( '2026-05-00' ),
			'day 32'                      => array( '2026-05-32' ),
			'month 0'                     => array( '2026-00-10' ),
			'month 13'                    => array( '2026-13-01' ),
			'year 0'                      => array( '0000-01-01' ),
			'digits not zero-padded'      => array( '2026-2-3' ),
			'another order'               => array( '15/12/2026' ),
			'a time after it'             => array( '2026-12-15T10:00:00' ),
			'a newline after it'          => array( "2026-12-15\n" ),
			'spaces around it'            => array( ' 2026-12-15' ),
			'non-ASCII digits'            => array( '２０２６-12-15' ),
			'empty (the field allows it, the date check does not)' => array( '' ),
		);
	}

	/**
	 * A real day is a date.
	 *
	 * @dataProvider real_days
	 *
	 * @param string $value Value.
	 */
	public function test_a_day_that_exists_is_valid( string $value ): void {
		$this->assertTrue( Calendar_Date::is_valid( $value ) );
	}

	/**
	 * Anything else is not.
	 *
	 * @dataProvider not_days
	 *
	 * @param string $value Value.
	 */
	public function test_anything_else_is_not( string $value ): void {
		$this->assertFalse( Calendar_Date::is_valid( $value ) );
	}

	/**
	 * The paid-orders route's date-time filters: the day is checked, whatever follows it (core's
	 * date-time format has checked that part's shape already).
	 */
	public function test_the_day_of_a_date_time_is_checked(): void {
		$this->assertTrue( Calendar_Date::is_valid_in_date_time( '2026-02-28T23:59:59Z' ) );
		$this->assertTrue( Calendar_Date::is_valid_in_date_time( '2028-02-29T00:00:00+01:00' ) );
		$this->assertTrue( Calendar_Date::is_valid_in_date_time( '2026-04-30 12:00:00' ) );
		$this->assertFalse( Calendar_Date::is_valid_in_date_time( '2026-02-30T00:00:00Z' ) );
		$this->assertFalse( Calendar_Date::is_valid_in_date_time( '2026-02-29T00:00:00Z' ) );
		$this->assertFalse( Calendar_Date::is_valid_in_date_time( '2026-04-31T10:00:00+02:00' ) );
	}
}

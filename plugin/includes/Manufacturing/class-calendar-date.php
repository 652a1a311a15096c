<?php
/**
 * Calendar dates of manufacturing orders' fields (YYYY-MM-DD).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The one check of a field whose schema says `'format' => 'date'` (the due date, and any field
 * site code adds that way): the REST route, the edit screen's details box and the list all use
 * it; the paid-orders route checks the day of its date-time filters with it too (core's
 * date-time check takes 2026-02-30 and rolls it to 2 March). Plain PHP, no WordPress
 * (tests/php/CalendarDateTest.php).
 */
final class Calendar_Date {

	/** The JSON Schema format of such a field (core's REST validation knows date-time, not date). */
	const FORMAT = 'date';

	/**
	 * Whether a string is YYYY-MM-DD and names a day that exists: 2028-02-29, not 2026-02-29,
	 * 2026-02-30, 2026-04-31, 2026-13-01, 0000-01-01 or 2026-2-3.
	 *
	 * @param string $value Value.
	 */
	public static function is_valid( string $value ): bool {
		return 1 === preg_match( '/^(\d{4})-(\d{2})-(\d{2})$/D', $value, $parts )
			&& checkdate( (int) $parts[2], (int) $parts[3], (int) $parts[1] );
	}

	/**
	 * Whether an ISO 8601 date-time (YYYY-MM-DDThh:mm:ss…, its shape already checked by core's
	 * `date-time` format) names a day that exists.
	 *
	 * @param string $value Value.
	 */
	public static function is_valid_in_date_time( string $value ): bool {
		return self::is_valid( substr( $value, 0, 10 ) );
	}
}

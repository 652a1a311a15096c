<?php
/**
 * Unix times as the plugin's tables store them.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Support;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The tables keep UTC datetimes ('Y-m-d H:i:s', MySQL's DATETIME); the code reasons in Unix
 * seconds from a Clock. Pure (tests/php/MysqlTimeTest.php).
 */
final class Mysql_Time {

	/**
	 * A Unix time as a UTC DATETIME value.
	 *
	 * @param int $unix Unix time.
	 */
	public static function of( int $unix ): string {
		return gmdate( 'Y-m-d H:i:s', $unix );
	}

	/**
	 * A stored UTC DATETIME value as a Unix time; null for none or a value that is no date.
	 *
	 * @param string|null $datetime Stored value.
	 */
	public static function unix( ?string $datetime ): ?int {
		if ( null === $datetime || '' === $datetime ) {
			return null;
		}
		$unix = strtotime( $datetime . ' UTC' );
		return false === $unix ? null : $unix;
	}
}

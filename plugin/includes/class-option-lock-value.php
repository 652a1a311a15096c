<?php
/**
 * What an Option_Lock row holds, and when it counts as abandoned.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The lock row's value is "<expiry>:<token>": the Unix time after which its holder counts as
 * dead, and a random token, so a holder releases or a taker replaces exactly the value it read.
 * Pure (tests/php/OptionLockValueTest.php).
 */
final class Option_Lock_Value {

	/**
	 * The value of a lock taken at $now for $ttl seconds.
	 *
	 * @param int    $now   Unix time.
	 * @param int    $ttl   Seconds before the lock counts as abandoned.
	 * @param string $token Random token.
	 */
	public static function of( int $now, int $ttl, string $token ): string {
		return ( $now + $ttl ) . ':' . $token;
	}

	/**
	 * Whether the lock holding $current may be taken over at $now: its expiry has passed.
	 * No value (released just now) is not abandoned: the next attempt inserts a new row. A value
	 * without a readable expiry counts as expired, so a damaged row never blocks for ever.
	 *
	 * @param string|null $current The lock row's value, null when there is no row.
	 * @param int         $now     Unix time.
	 */
	public static function is_abandoned( ?string $current, int $now ): bool {
		if ( null === $current ) {
			return false;
		}
		return (int) strtok( $current, ':' ) < $now;
	}
}

<?php
/**
 * A mutex with expiry, so two requests (or a request and WP-Cron) never hand over the same rows.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A row in the options table, taken with INSERT IGNORE (atomic on the option_name unique
 * key: add_option() is not, it upserts) and holding "<expiry>:<token>". An expired lock
 * (its holder died) is taken over with a compare-and-set on the old value, and a holder
 * releases only its own token. Never read through get_option(), so no cache is involved.
 */
final class Hand_Over_Lock {

	const OPTION = 'service_integration_hand_over_lock';
	const TTL    = 60;

	/**
	 * The value this request holds, if any.
	 *
	 * @var string|null
	 */
	private static ?string $held = null;

	/**
	 * Takes the lock, waiting up to $wait seconds for another holder to release it.
	 *
	 * @param int   $ttl  Seconds before the lock counts as abandoned.
	 * @param float $wait Seconds to wait for it.
	 */
	public static function acquire( int $ttl = self::TTL, float $wait = 0.0 ): bool {
		$deadline = microtime( true ) + $wait;
		for ( ;; ) {
			if ( self::try_acquire( $ttl ) ) {
				return true;
			}
			if ( microtime( true ) >= $deadline ) {
				return false;
			}
			usleep( 200000 );
		}
	}

	/**
	 * One attempt.
	 *
	 * @param int $ttl Seconds.
	 */
	private static function try_acquire( int $ttl ): bool {
		global $wpdb;
		$value    = ( time() + $ttl ) . ':' . wp_generate_password( 16, false );
		$inserted = $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'no')", self::OPTION, $value ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
		if ( 1 === $inserted ) {
			self::$held = $value;
			return true;
		}
		$current = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", self::OPTION ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
		if ( null === $current || (int) strtok( (string) $current, ':' ) >= time() ) {
			return false; // held (or released just now: the next attempt inserts)
		}
		// Abandoned: take it over, unless someone else just did.
		$taken = $wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", $value, self::OPTION, $current ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
		if ( 1 === $taken ) {
			self::$held = $value;
			return true;
		}
		return false;
	}

	/**
	 * Releases the lock if this request holds it.
	 */
	public static function release(): void {
		global $wpdb;
		if ( null === self::$held ) {
			return;
		}
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s AND option_value = %s", self::OPTION, self::$held ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
		self::$held = null;
	}
}

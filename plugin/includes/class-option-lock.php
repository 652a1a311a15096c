<?php
/**
 * A mutex with expiry in the options table, so two requests (or a request and WP-Cron) never
 * do the same one-time work at once.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A row in the options table, taken with INSERT IGNORE (atomic on the option_name unique
 * key: add_option() is not, it upserts) and holding "<expiry>:<token>". An expired lock
 * (its holder died) is taken over with a compare-and-set on the old value, and a holder
 * releases only its own token. Never read through get_option(), so no cache is involved.
 */
final class Option_Lock {

	/**
	 * The option row that is the lock.
	 *
	 * @var string
	 */
	private string $option;

	/**
	 * The value this request holds, if any.
	 *
	 * @var string|null
	 */
	private ?string $held = null;

	/**
	 * A lock named by its option.
	 *
	 * @param string $option Option name.
	 */
	public function __construct( string $option ) {
		$this->option = $option;
	}

	/**
	 * Takes the lock, waiting up to $wait seconds for another holder to release it.
	 *
	 * @param int   $ttl  Seconds before the lock counts as abandoned.
	 * @param float $wait Seconds to wait for it.
	 */
	public function acquire( int $ttl, float $wait = 0.0 ): bool {
		$deadline = microtime( true ) + $wait;
		for ( ;; ) {
			if ( $this->try_acquire( $ttl ) ) {
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
	private function try_acquire( int $ttl ): bool {
		global $wpdb;
		$value    = ( time() + $ttl ) . ':' . wp_generate_password( 16, false );
		$inserted = $wpdb->query( $wpdb->prepare( "INSERT IGNORE INTO {$wpdb->options} (option_name, option_value, autoload) VALUES (%s, %s, 'no')", $this->option, $value ) );
		if ( 1 === $inserted ) {
			$this->held = $value;
			return true;
		}
		$current = $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", $this->option ) );
		if ( null === $current || (int) strtok( (string) $current, ':' ) >= time() ) {
			return false; // held (or released just now: the next attempt inserts)
		}
		// Abandoned: take it over, unless someone else just did.
		$taken = $wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", $value, $this->option, $current ) );
		if ( 1 === $taken ) {
			$this->held = $value;
			return true;
		}
		return false;
	}

	/**
	 * Releases the lock if this request holds it.
	 */
	public function release(): void {
		global $wpdb;
		if ( null === $this->held ) {
			return;
		}
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s AND option_value = %s", $this->option, $this->held ) );
		$this->held = null;
	}
}

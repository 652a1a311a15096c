<?php
/**
 * A mutex with expiry in the options table, so two requests (or a request and WP-Cron) never
 * do the same one-time work at once.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Support;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A row in the options table, taken with INSERT IGNORE (atomic on the option_name unique
 * key: add_option() is not, it upserts) and holding value()'s "<expiry>:<token>". An
 * expired lock (its holder died) is taken over with a compare-and-set on the old value, and a
 * holder releases only its own token. Never read through get_option(), so no cache is involved.
 *
 * Built over the connection and the clock its user was given (Plugin is where they come
 * from); a failed query is a WP_Error (Database_Error), never "held by someone else" nor "taken".
 */
final class Option_Lock {

	/**
	 * The value this instance holds, if any.
	 *
	 * @var string|null
	 */
	private ?string $held = null;

	/**
	 * A lock named by its option.
	 *
	 * @param \wpdb  $db     The database.
	 * @param Clock  $clock  Time of the lock's expiry.
	 * @param string $option Option name.
	 */
	public function __construct( private \wpdb $db, private Clock $clock, private string $option ) {
	}

	/**
	 * Takes the lock, waiting up to $wait seconds (of real time) for another holder to release it.
	 *
	 * @param int   $ttl  Seconds before the lock counts as abandoned.
	 * @param float $wait Seconds to wait for it.
	 * @return bool|WP_Error Whether it was taken; a WP_Error when the database did not answer.
	 */
	public function acquire( int $ttl, float $wait = 0.0 ) {
		$deadline = microtime( true ) + $wait;
		for ( ;; ) {
			$taken = $this->try_acquire( $ttl );
			if ( false !== $taken ) {
				return $taken;
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
	 * @return bool|WP_Error
	 */
	private function try_acquire( int $ttl ) {
		$now      = $this->clock->now();
		$value    = self::value( $now, $ttl, wp_generate_password( 16, false ) );
		$inserted = $this->db->query( $this->db->prepare( "INSERT IGNORE INTO {$this->db->options} (option_name, option_value, autoload) VALUES (%s, %s, 'no')", $this->option, $value ) );
		$fault    = Database_Error::of( $this->db, $inserted, 'lock ' . $this->option . ': insert' );
		if ( $fault ) {
			return $fault;
		}
		if ( 1 === (int) $inserted ) {
			$this->held = $value;
			return true;
		}
		$current = $this->db->get_var( $this->db->prepare( "SELECT option_value FROM {$this->db->options} WHERE option_name = %s", $this->option ) );
		$fault   = Database_Error::of( $this->db, $current, 'lock ' . $this->option . ': read' );
		if ( $fault ) {
			return $fault;
		}
		if ( ! self::is_abandoned( null === $current ? null : (string) $current, $now ) ) {
			return false; // Held (or released just now: the next attempt inserts).
		}
		// Abandoned: take it over, unless someone else just did.
		$taken = $this->db->query( $this->db->prepare( "UPDATE {$this->db->options} SET option_value = %s WHERE option_name = %s AND option_value = %s", $value, $this->option, $current ) );
		$fault = Database_Error::of( $this->db, $taken, 'lock ' . $this->option . ': take over' );
		if ( $fault ) {
			return $fault;
		}
		if ( 1 === (int) $taken ) {
			$this->held = $value;
			return true;
		}
		return false;
	}

	/**
	 * Releases the lock if this instance holds it.
	 *
	 * @return true|WP_Error A WP_Error when the row could not be deleted (it then expires).
	 */
	public function release() {
		if ( null === $this->held ) {
			return true;
		}
		$deleted    = $this->db->query( $this->db->prepare( "DELETE FROM {$this->db->options} WHERE option_name = %s AND option_value = %s", $this->option, $this->held ) );
		$this->held = null;
		return Database_Error::of( $this->db, $deleted, 'lock ' . $this->option . ': release' ) ?? true;
	}

	/**
	 * The value of a lock taken at $now for $ttl seconds.
	 *
	 * @param int    $now   Unix time.
	 * @param int    $ttl   Seconds before the lock counts as abandoned.
	 * @param string $token Random token.
	 */
	public static function value( int $now, int $ttl, string $token ): string {
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

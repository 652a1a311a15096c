<?php
/**
 * WordPress's options as the stores' Options.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Support;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The options through get_option() and update_option(), and a compare-and-set over the options table that WordPress
 * does not offer.
 */
final class Wp_Options implements Options {

	/**
	 * The site's options over its database (the table compare_and_set() writes).
	 *
	 * @param \wpdb $db The database.
	 */
	public function __construct( private \wpdb $db ) {
	}

	/**
	 * An option's value.
	 *
	 * @param string $name     Option name.
	 * @param mixed  $fallback Value when missing.
	 * @return mixed
	 */
	public function get( string $name, $fallback = false ) {
		return get_option( $name, $fallback );
	}

	/**
	 * Stores an option.
	 *
	 * @param string $name     Option name.
	 * @param mixed  $value    Value.
	 * @param bool   $autoload Whether WordPress loads it on every request.
	 */
	public function update( string $name, $value, bool $autoload ): void {
		update_option( $name, $value, $autoload );
	}

	/**
	 * Stores $value if the stored value is one $expected accepts: read from the table (never a
	 * cache, which may be this request's stale copy), then written with an UPDATE conditioned
	 * on exactly the bytes read, so a write in between leaves no row to update. The option's
	 * cache is then refreshed as update_option() would, or dropped when nothing was stored.
	 *
	 * @param string                $name     Option name.
	 * @param callable(mixed): bool $expected Whether the stored value is the one the change was made from.
	 * @param mixed                 $value    New value.
	 * @return bool Whether it was stored.
	 */
	public function compare_and_set( string $name, callable $expected, $value ): bool {
		$table   = $this->db->options;
		$stored  = $this->db->get_var( $this->db->prepare( "SELECT option_value FROM {$table} WHERE option_name = %s", $name ) );
		$raw     = maybe_serialize( $value );
		$swapped = null !== $stored && $expected( maybe_unserialize( $stored ) )
			&& 1 === (int) $this->db->query( $this->db->prepare( "UPDATE {$table} SET option_value = %s WHERE option_name = %s AND option_value = %s", $raw, $name, $stored ) );
		if ( ! $swapped ) {
			// This request's cached copy may be the outdated one: the next get_option() reads the table.
			wp_cache_delete( $name, 'options' );
			return false;
		}
		$autoloaded = wp_load_alloptions();
		if ( isset( $autoloaded[ $name ] ) ) {
			$autoloaded[ $name ] = $raw;
			wp_cache_set( 'alloptions', $autoloaded, 'options' );
		} else {
			wp_cache_set( $name, $raw, 'options' );
		}
		return true;
	}
}

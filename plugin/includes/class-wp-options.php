<?php
/**
 * WordPress's options as the stores' Options.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * get_option() and update_option().
 */
final class Wp_Options implements Options {

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
}

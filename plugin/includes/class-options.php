<?php
/**
 * The site options a store reads and writes.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * WordPress's options table behind an interface (Wp_Options in production), so the unit tests
 * can hold the options in memory.
 */
interface Options {

	/**
	 * An option's value, or $fallback when it is not set.
	 *
	 * @param string $name     Option name.
	 * @param mixed  $fallback Value when missing.
	 * @return mixed
	 */
	public function get( string $name, $fallback = false );

	/**
	 * Stores an option.
	 *
	 * @param string $name     Option name.
	 * @param mixed  $value    Value.
	 * @param bool   $autoload Whether WordPress loads it on every request.
	 */
	public function update( string $name, $value, bool $autoload ): void;
}

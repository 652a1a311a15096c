<?php
/**
 * The site options a store reads and writes.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Support;

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

	/**
	 * Stores $value only if the option, as stored now, is one $expected accepts, in one step: a
	 * writer from another request between the read and the write makes it fail. For state that
	 * a long-running job advances while requests may restart it.
	 *
	 * @param string                $name     Option name (an option that exists).
	 * @param callable(mixed): bool $expected Whether the stored value is the one the change was made from.
	 * @param mixed                 $value    New value.
	 * @return bool Whether it was stored (false: changed meanwhile, missing, or the database refused).
	 */
	public function compare_and_set( string $name, callable $expected, $value ): bool;
}

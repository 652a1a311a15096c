<?php
/**
 * Options held in memory, for the stores' unit tests.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Tests;

use ServiceIntegration\Support\Options;

/**
 * Each option's value and whether it would be autoloaded.
 */
final class In_Memory_Options implements Options {

	/**
	 * Values by name.
	 *
	 * @var array<string, mixed>
	 */
	public array $values = array();

	/**
	 * Autoload by name.
	 *
	 * @var array<string, bool>
	 */
	public array $autoload = array();

	/**
	 * An option's value.
	 *
	 * @param string $name     Option name.
	 * @param mixed  $fallback Value when missing.
	 * @return mixed
	 */
	public function get( string $name, $fallback = false ) {
		return array_key_exists( $name, $this->values ) ? $this->values[ $name ] : $fallback;
	}

	/**
	 * Stores an option.
	 *
	 * @param string $name     Option name.
	 * @param mixed  $value    Value.
	 * @param bool   $autoload Whether WordPress loads it on every request.
	 */
	public function update( string $name, $value, bool $autoload ): void {
		$this->values[ $name ]   = $value;
		$this->autoload[ $name ] = $autoload;
	}

	/**
	 * Stores $value if the option exists and $expected accepts it.
	 *
	 * @param string                $name     Option name.
	 * @param callable(mixed): bool $expected Whether the stored value is the one the change was made from.
	 * @param mixed                 $value    New value.
	 */
	public function compare_and_set( string $name, callable $expected, $value ): bool {
		if ( ! array_key_exists( $name, $this->values ) || ! $expected( $this->values[ $name ] ) ) {
			return false;
		}
		$this->values[ $name ] = $value;
		return true;
	}
}

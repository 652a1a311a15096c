<?php
/**
 * A clock the tests set.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Tests;

use ServiceIntegration\Support\Clock;

/**
 * Stays at the time it was given until a test moves it.
 */
final class Fixed_Clock implements Clock {

	/**
	 * Constructor.
	 *
	 * @param int $now Unix time.
	 */
	public function __construct( public int $now ) {
	}

	/** The time it was set to. */
	public function now(): int {
		return $this->now;
	}
}

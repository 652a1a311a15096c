<?php
/**
 * The system's clock.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Support;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Clock of the machine PHP runs on.
 */
final class System_Clock implements Clock {

	/**
	 * The current Unix time.
	 */
	public function now(): int {
		return time();
	}
}

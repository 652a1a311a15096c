<?php
/**
 * The time the stores and the processor read.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Support;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Unix time, behind an interface so the unit tests can fix it (System_Clock in production).
 */
interface Clock {

	/**
	 * The current Unix time, in seconds.
	 */
	public function now(): int;
}

<?php
/**
 * When a failed inbound event is tried again, and when it is given up.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Inbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Inbound_Processor's retry decisions on plain values (the filters' answers and the clock are
 * its arguments), so each is tested on its own (tests/php/InboundRetryPolicyTest.php).
 */
final class Retry_Policy {

	/**
	 * The number of attempts in all, from what the max-attempts filter answered: at least one,
	 * whatever it returned.
	 *
	 * @param mixed $filtered The filter's answer.
	 */
	public static function max_attempts( $filtered ): int {
		return max( 1, (int) $filtered );
	}

	/**
	 * Whether the attempt just made was the last one.
	 *
	 * @param int $attempts Attempts made, this one included.
	 * @param int $max      Attempts in all.
	 */
	public static function gives_up( int $attempts, int $max ): bool {
		return $attempts >= $max;
	}

	/**
	 * The wait before the next attempt: the back-off step of this attempt, the last step for any
	 * later one (and the first for the first, should an attempt count be missing).
	 *
	 * @param int   $attempts Attempts made, this one included.
	 * @param int[] $backoff  Seconds after the first, second… failed attempt.
	 */
	public static function default_delay( int $attempts, array $backoff ): int {
		return $backoff[ max( 1, min( $attempts, count( $backoff ) ) ) - 1 ];
	}

	/**
	 * When a wait a filter answered ends (the next attempt, or the run that processes a new
	 * event): never before now.
	 *
	 * @param int   $now      Unix time.
	 * @param mixed $filtered The filter's answer (seconds).
	 */
	public static function due_after( int $now, $filtered ): int {
		return $now + max( 0, (int) $filtered );
	}
}

<?php
/**
 * A recurring WP-Cron event that exists exactly once.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Support;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * WordPress keeps every cron event in one option that each writer reads, changes and saves
 * whole: wp-cron.php rescheduling a recurring event while a request schedules one of its own
 * can save a copy that still holds the run just replaced, and the hook then runs twice per
 * period from then on; or a copy without it, and the hook no longer runs. So each request
 * checks the plugin's recurring events on `init` (the option is loaded already): a missing one
 * is scheduled, and duplicates are collapsed into the earliest run.
 */
final class Recurring_Event {

	/**
	 * Makes $hook scheduled exactly once on $schedule: added at $first_run when missing, or
	 * kept at its earliest run when it is there more than once.
	 *
	 * @param string $hook      The event's hook (no arguments).
	 * @param string $schedule  Its recurrence (a cron_schedules key).
	 * @param int    $first_run Unix time of its first run when it is missing.
	 */
	public static function ensure( string $hook, string $schedule, int $first_run ): void {
		$runs = self::runs( (array) _get_cron_array(), $hook );
		if ( 1 === count( $runs ) ) {
			return;
		}
		if ( array() !== $runs ) {
			wp_clear_scheduled_hook( $hook );
			$first_run = min( $runs );
		}
		wp_schedule_event( $first_run, $schedule, $hook );
	}

	/**
	 * The times at which the cron array runs $hook (without arguments), one per scheduled event.
	 *
	 * @param array<int|string, mixed> $crons What _get_cron_array() returns: time => hook => key => event.
	 * @param string                   $hook  Hook.
	 * @return int[]
	 */
	public static function runs( array $crons, string $hook ): array {
		$runs = array();
		foreach ( $crons as $time => $hooks ) {
			if ( is_array( $hooks ) && isset( $hooks[ $hook ] ) && is_array( $hooks[ $hook ] ) ) {
				foreach ( $hooks[ $hook ] as $event ) {
					if ( array() === ( $event['args'] ?? array() ) ) {
						$runs[] = (int) $time;
					}
				}
			}
		}
		return $runs;
	}
}

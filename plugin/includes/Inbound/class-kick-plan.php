<?php
/**
 * When the cron run that processes inbound events is asked for.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Inbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Inbound_Processor::kick()'s decision on plain values (when the run is wanted, and when the
 * queued one is due): a burst of events shares one run, and a run asked for earlier than the
 * queued one moves it (core refuses a second identical event within ten minutes). Tested on its
 * own (tests/php/InboundKickPlanTest.php).
 */
final class Kick_Plan {

	/** The queued run comes soon enough: nothing to write. */
	const KEEP = 'keep';

	/** No run is queued: queue one. */
	const SCHEDULE = 'schedule';

	/** The queued run comes later: take it off, queue this one. */
	const MOVE = 'move';

	/**
	 * What to do for a run wanted at $at (already not before now) with the run queued at $next.
	 *
	 * @param int       $at   When the run is wanted.
	 * @param int|false $next When the queued run is due, false when none is.
	 * @return string KEEP, SCHEDULE or MOVE.
	 */
	public static function action( int $at, $next ): string {
		if ( false === $next ) {
			return self::SCHEDULE;
		}
		return $next <= $at ? self::KEEP : self::MOVE;
	}
}

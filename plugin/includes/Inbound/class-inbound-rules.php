<?php
/**
 * The inbound processing's decisions on plain values: which stored events a run may take and for
 * how long, when the run is queued, and the retries.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Inbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Inbound_Store and Inbound_Processor decide here, on values they pass in (the clock and the
 * filters' answers are arguments), so each rule is tested on its own (tests/php/InboundDueTest.php,
 * InboundKickPlanTest.php, InboundRetryPolicyTest.php). Pure.
 */
final class Inbound_Rules {

	/** Statuses that still wait for an attempt. */
	const WAITING = array( Inbound_Store::STATUS_RECEIVED, Inbound_Store::STATUS_FAILED );

	/** The queued run comes soon enough: nothing to write. */
	const KICK_KEEP = 'keep';

	/** No run is queued: queue one. */
	const KICK_SCHEDULE = 'schedule';

	/** The queued run comes later: take it off, queue this one. */
	const KICK_MOVE = 'move';

	/**
	 * The SQL condition of "due at $now", with its values in placeholder order. An event is due
	 * when it waits for an attempt (received, or failed with a next attempt set), that attempt's
	 * time has come, and no run holds it (no claim, or an expired one). The list of due events and
	 * the claim test the same condition, so a run claims only what it listed as due and an event
	 * another run holds is skipped until its claim expires.
	 *
	 * @param string $now UTC DATETIME.
	 * @return array{0: string, 1: string[]}
	 */
	public static function due_condition( string $now ): array {
		return array(
			'status IN (%s, %s) AND next_attempt_at IS NOT NULL AND next_attempt_at <= %s AND (locked_until IS NULL OR locked_until < %s)',
			array( self::WAITING[0], self::WAITING[1], $now, $now ),
		);
	}

	/**
	 * When a claim taken at $now expires: a run that dies mid-handler leaves the event to the
	 * first run after that. A lease under one second would let a second run take the event
	 * while the first is still in it.
	 *
	 * @param int $now           Unix time.
	 * @param int $lease_seconds Requested lease.
	 */
	public static function lease_until( int $now, int $lease_seconds ): int {
		return $now + max( 1, $lease_seconds );
	}

	/**
	 * Inbound_Processor::kick()'s decision: what to do for a run wanted at $at (already not
	 * before now) with the run queued at $next. A burst of events shares one run, and a run
	 * asked for earlier than the queued one moves it (core refuses a second identical event
	 * within ten minutes).
	 *
	 * @param int       $at   When the run is wanted.
	 * @param int|false $next When the queued run is due, false when none is.
	 * @return string KICK_KEEP, KICK_SCHEDULE or KICK_MOVE.
	 */
	public static function kick_action( int $at, $next ): string {
		if ( false === $next ) {
			return self::KICK_SCHEDULE;
		}
		return $next <= $at ? self::KICK_KEEP : self::KICK_MOVE;
	}

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

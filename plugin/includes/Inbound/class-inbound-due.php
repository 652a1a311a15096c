<?php
/**
 * Which stored inbound events a processing run may take, and for how long.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Inbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * An event is due when it waits for an attempt (received, or failed with a next attempt set),
 * that attempt's time has come, and no run holds it (no claim, or an expired one). The list of
 * due events and the claim test the same condition, so a run claims only what it listed as due
 * and an event another run holds is skipped until its claim expires. Pure
 * (tests/php/InboundDueTest.php).
 */
final class Inbound_Due {

	/** Statuses that still wait for an attempt. */
	const WAITING = array( Inbound_Store::STATUS_RECEIVED, Inbound_Store::STATUS_FAILED );

	/**
	 * The SQL condition of "due at $now", with its values in placeholder order.
	 *
	 * @param string $now UTC DATETIME.
	 * @return array{0: string, 1: string[]}
	 */
	public static function condition( string $now ): array {
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
}

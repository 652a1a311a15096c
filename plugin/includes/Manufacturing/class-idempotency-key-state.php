<?php
/**
 * What a request meets at the stored row of its idempotency key, and the times a key holds.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

use ServiceIntegration\Support\Mysql_Time;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The decisions under Idempotency_Store's SQL, on plain values and a given time, so PHPUnit
 * checks them alone (tests/php/IdempotencyKeyStateTest.php).
 *
 * A row is, for a request with its key: expired (past its 24 hours, the key is new again),
 * a mismatch (the key was used with another request), a replay (the first request finished:
 * its answer), in progress (another request holds the claim's lease) or abandoned (its
 * holder died before answering, the lease is over: the request may take the key over).
 */
final class Idempotency_Key_State {

	/**
	 * How long a key answers as the first time (the IETF draft and Stripe: 24 hours).
	 */
	const TTL = 86400;

	/**
	 * How long a claim holds before another request may take the key over.
	 */
	const LEASE_SECONDS = 60;

	const EXPIRED     = 'expired';
	const MISMATCH    = 'mismatch';
	const REPLAY      = 'replay';
	const IN_PROGRESS = 'in_progress';
	const ABANDONED   = 'abandoned';

	/**
	 * When a key claimed at $now stops answering as the first time.
	 *
	 * @param int $now Unix time of the claim.
	 */
	public static function expires_at( int $now ): int {
		return $now + self::TTL;
	}

	/**
	 * Until when a claim made (or taken over) at $now holds.
	 *
	 * @param int $now Unix time of the claim.
	 */
	public static function locked_until( int $now ): int {
		return $now + self::LEASE_SECONDS;
	}

	/**
	 * What a request with the key meets at its row.
	 *
	 * @param object $row         The row: fingerprint, response_status (null until answered),
	 *                            locked_until and expires_at (UTC DATETIMEs, locked_until null once answered).
	 * @param string $fingerprint The request's Idempotency_Key::fingerprint().
	 * @param int    $now         Unix time.
	 * @return array{state: string, retry_after?: int} One of the constants; retry_after (seconds,
	 *                                                  at least 1) with IN_PROGRESS.
	 */
	public static function of( object $row, string $fingerprint, int $now ): array {
		// A row without a readable expiry counts as expired: a key must never hold for ever.
		if ( ( Mysql_Time::unix( $row->expires_at ?? null ) ?? 0 ) <= $now ) {
			return array( 'state' => self::EXPIRED );
		}
		if ( ! hash_equals( (string) ( $row->fingerprint ?? '' ), $fingerprint ) ) {
			return array( 'state' => self::MISMATCH );
		}
		if ( null !== ( $row->response_status ?? null ) ) {
			return array( 'state' => self::REPLAY );
		}
		$locked_until = Mysql_Time::unix( $row->locked_until ?? null ) ?? 0;
		if ( $locked_until > $now ) {
			return array(
				'state'       => self::IN_PROGRESS,
				'retry_after' => $locked_until - $now,
			);
		}
		return array( 'state' => self::ABANDONED );
	}

	/**
	 * The first answer a completed row keeps: its status, its data with the top level as an
	 * array (WordPress's response filters expect one) and the objects inside kept as objects,
	 * and its headers and links.
	 *
	 * @param object $row The row: response_status, response_data and response_meta (JSON).
	 * @return array{status: int, data: array, meta: array}
	 */
	public static function answer( object $row ): array {
		return array(
			'status' => (int) $row->response_status,
			'data'   => (array) json_decode( (string) ( $row->response_data ?? '' ) ),
			'meta'   => (array) json_decode( (string) ( $row->response_meta ?? '' ), true ),
		);
	}
}

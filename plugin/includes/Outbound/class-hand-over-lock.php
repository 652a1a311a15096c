<?php
/**
 * The outbox hand-over's lock, so two requests (or a request and WP-Cron) never hand over the same rows.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

use ServiceIntegration\Option_Lock;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One Option_Lock for the whole request: the hand-over at shutdown and WP-Cron's take the same one.
 */
final class Hand_Over_Lock {

	const OPTION = 'service_integration_hand_over_lock';
	const TTL    = 60;

	/**
	 * Takes the lock, waiting up to $wait seconds for another holder to release it.
	 *
	 * @param int   $ttl  Seconds before the lock counts as abandoned.
	 * @param float $wait Seconds to wait for it.
	 */
	public static function acquire( int $ttl = self::TTL, float $wait = 0.0 ): bool {
		return self::lock()->acquire( $ttl, $wait );
	}

	/**
	 * Releases the lock if this request holds it.
	 */
	public static function release(): void {
		self::lock()->release();
	}

	/**
	 * The request's lock.
	 */
	private static function lock(): Option_Lock {
		static $lock = null;
		$lock      ??= new Option_Lock( self::OPTION );
		return $lock;
	}
}

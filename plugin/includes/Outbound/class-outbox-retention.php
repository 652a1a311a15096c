<?php
/**
 * Which handed-over outbox rows retention deletes.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Rows handed over at or before the cutoff go; pending and rejected rows never do.
 * Pure (tests/php/OutboxRetentionTest.php).
 */
final class Outbox_Retention {

	/**
	 * The newest handed_over_at that is deleted: $days days before $now (0: now, every
	 * handed-over row). A negative age keeps everything (the cutoff lies before any row).
	 *
	 * @param int   $now  Unix time.
	 * @param float $days Age in days (fractions allowed).
	 * @return int|null Unix time, or null when nothing may be deleted.
	 */
	public static function cutoff( int $now, float $days ): ?int {
		if ( $days < 0 || is_nan( $days ) ) {
			return null;
		}
		return $now - (int) round( $days * 86400 );
	}
}

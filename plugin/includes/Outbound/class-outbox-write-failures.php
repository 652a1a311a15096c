<?php
/**
 * The tally of events the outbox could not store.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One option holds how many events the outbox failed to write, and the last one: the admin
 * page shows it, as a lost event has no row to show. Pure (tests/php/OutboxWriteFailuresTest.php).
 */
final class Outbox_Write_Failures {

	/** The longest error kept. */
	const ERROR_LENGTH = 255;

	/**
	 * The tally after one more failure.
	 *
	 * @param mixed  $stored   The option's value (anything: it may be missing or damaged).
	 * @param string $event_id Event that was lost.
	 * @param string $error    Why.
	 * @param int    $now      Unix time.
	 * @return array{count:int, last_event:string, last_error:string, last_at:string}
	 */
	public static function add( $stored, string $event_id, string $error, int $now ): array {
		return array(
			'count'      => self::read( $stored )['count'] + 1,
			'last_event' => $event_id,
			'last_error' => substr( $error, 0, self::ERROR_LENGTH ),
			'last_at'    => gmdate( 'c', $now ),
		);
	}

	/**
	 * The tally as the admin page reads it.
	 *
	 * @param mixed $stored The option's value.
	 * @return array{count:int, last_event:?string, last_error:?string, last_at:?string}
	 */
	public static function read( $stored ): array {
		$stored = is_array( $stored ) ? $stored : array();
		return array(
			'count'      => max( 0, (int) ( $stored['count'] ?? 0 ) ),
			'last_event' => isset( $stored['last_event'] ) ? (string) $stored['last_event'] : null,
			'last_error' => isset( $stored['last_error'] ) ? (string) $stored['last_error'] : null,
			'last_at'    => isset( $stored['last_at'] ) ? (string) $stored['last_at'] : null,
		);
	}
}

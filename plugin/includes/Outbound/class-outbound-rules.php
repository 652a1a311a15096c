<?php
/**
 * The outbound decisions on plain values: the event a row stands for, what the sidecar's answer
 * to a hand-over batch means for its rows, which handed-over rows retention deletes, and the
 * tally of events the outbox could not store.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Outbox and Hand_Over decide here, on values they pass in (a row, an answer, the clock, an
 * option's value), so each rule is tested on its own (tests/php/OutboxEventTest.php,
 * HandOverAnswerTest.php, OutboxRetentionTest.php, OutboxWriteFailuresTest.php). Pure.
 */
final class Outbound_Rules {

	/** The longest error the write-failures tally keeps. */
	const WRITE_ERROR_LENGTH = 255;

	/**
	 * The event a row stands for, or null when its payload cannot make one. The sidecar takes
	 * {id, type, timestamp, data, ordering_key}; a row's stored payload holds the timestamp and
	 * data. A payload without a string timestamp and a data object cannot be sent: Hand_Over
	 * parks it.
	 *
	 * @param object $row Outbox row (event_id, type, ordering_key, payload).
	 * @return array{id: string, type: string, timestamp: string, data: array, ordering_key: string|null}|null
	 */
	public static function event( object $row ): ?array {
		$payload = json_decode( (string) ( $row->payload ?? '' ), true );
		if ( ! is_array( $payload ) || ! isset( $payload['timestamp'] ) || ! is_string( $payload['timestamp'] ) || ! isset( $payload['data'] ) || ! is_array( $payload['data'] ) ) {
			return null;
		}
		$ordering_key = (string) ( $row->ordering_key ?? '' );
		return array(
			'id'           => (string) ( $row->event_id ?? '' ),
			'type'         => (string) ( $row->type ?? '' ),
			'timestamp'    => $payload['timestamp'],
			'data'         => $payload['data'],
			'ordering_key' => '' === $ordering_key ? null : $ordering_key,
		);
	}

	/**
	 * The verdict on a hand-over batch of $count rows. A valid batch is always answered 202
	 * {accepted, duplicates, rejected}: the accepted and the duplicate event ids are handed over,
	 * each rejected item (by its index in the batch) is parked with its code and message. A 413
	 * says the body was over the sidecar's limit. Anything else (no answer, a wrong key, a failing
	 * sidecar) is nothing the events did: the whole batch is tried again later. Hand_Over applies
	 * the verdict; this only reads the answer.
	 *
	 * @param string|null $error_code The request's error code when it got no answer.
	 * @param int         $status     HTTP status (0 without an answer).
	 * @param array       $body       Decoded answer.
	 * @param int         $count      Rows sent.
	 * @return array{acknowledged: string[], rejected: array<int, array{index: int, reason: string}>, too_large: bool, error: string|null}
	 *               Event ids handed over; the rows to park, by batch index, and why; whether the
	 *               body was too large; why the batch failed.
	 */
	public static function hand_over_verdict( ?string $error_code, int $status, array $body, int $count ): array {
		$verdict = array(
			'acknowledged' => array(),
			'rejected'     => array(),
			'too_large'    => false,
			'error'        => null,
		);
		if ( null === $error_code && 202 === $status ) {
			$verdict['acknowledged'] = array_map( 'strval', array_merge( (array) ( $body['accepted'] ?? array() ), (array) ( $body['duplicates'] ?? array() ) ) );
			foreach ( (array) ( $body['rejected'] ?? array() ) as $item ) {
				$index = is_array( $item ) && isset( $item['index'] ) ? (int) $item['index'] : -1;
				if ( $index >= 0 && $index < $count ) {
					$verdict['rejected'][] = array(
						'index'  => $index,
						'reason' => (string) ( $item['code'] ?? 'rejected' ) . ': ' . (string) ( $item['message'] ?? '' ),
					);
				}
			}
			return $verdict;
		}
		if ( null === $error_code && 413 === $status ) {
			$verdict['too_large'] = true;
			return $verdict;
		}
		$verdict['error'] = $error_code ?? 'HTTP ' . $status;
		return $verdict;
	}

	/**
	 * The newest handed_over_at that retention deletes: $days days before $now (0: now, every
	 * handed-over row). Rows handed over at or before it go; pending and rejected rows never do.
	 * A negative age keeps everything (the cutoff lies before any row).
	 *
	 * @param int   $now  Unix time.
	 * @param float $days Age in days (fractions allowed).
	 * @return int|null Unix time, or null when nothing may be deleted.
	 */
	public static function retention_cutoff( int $now, float $days ): ?int {
		if ( $days < 0 || is_nan( $days ) ) {
			return null;
		}
		return $now - (int) round( $days * 86400 );
	}

	/**
	 * The write-failures tally after one more failure. One option holds how many events the
	 * outbox failed to write, and the last one: the admin page shows it, as a lost event has no
	 * row to show.
	 *
	 * @param mixed  $stored   The option's value (anything: it may be missing or damaged).
	 * @param string $event_id Event that was lost.
	 * @param string $error    Why.
	 * @param int    $now      Unix time.
	 * @return array{count:int, last_event:string, last_error:string, last_at:string}
	 */
	public static function write_failures_add( $stored, string $event_id, string $error, int $now ): array {
		return array(
			'count'      => self::write_failures( $stored )['count'] + 1,
			'last_event' => $event_id,
			'last_error' => substr( $error, 0, self::WRITE_ERROR_LENGTH ),
			'last_at'    => gmdate( 'c', $now ),
		);
	}

	/**
	 * The write-failures tally as the admin page reads it.
	 *
	 * @param mixed $stored The option's value.
	 * @return array{count:int, last_event:?string, last_error:?string, last_at:?string}
	 */
	public static function write_failures( $stored ): array {
		$stored = is_array( $stored ) ? $stored : array();
		return array(
			'count'      => max( 0, (int) ( $stored['count'] ?? 0 ) ),
			'last_event' => isset( $stored['last_event'] ) ? (string) $stored['last_event'] : null,
			'last_error' => isset( $stored['last_error'] ) ? (string) $stored['last_error'] : null,
			'last_at'    => isset( $stored['last_at'] ) ? (string) $stored['last_at'] : null,
		);
	}
}

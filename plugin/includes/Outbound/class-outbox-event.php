<?php
/**
 * An outbox row as the sidecar's event.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The sidecar takes {id, type, timestamp, data, ordering_key}; a row's stored payload holds the
 * timestamp and data. A payload without a string timestamp and a data object cannot be sent:
 * Hand_Over parks it. Pure (tests/php/OutboxEventTest.php).
 */
final class Outbox_Event {

	/**
	 * The event a row stands for, or null when its payload cannot make one.
	 *
	 * @param object $row Outbox row (event_id, type, ordering_key, payload).
	 * @return array{id: string, type: string, timestamp: string, data: array, ordering_key: string|null}|null
	 */
	public static function of( object $row ): ?array {
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
}

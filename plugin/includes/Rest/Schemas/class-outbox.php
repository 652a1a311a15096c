<?php
/**
 * Answer of the outbox route (Rest\Outbox_Controller).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The outbox's state; POST adds why its hand-over stopped.
 */
final class Outbox {

	/**
	 * GET and POST /webhooks/outbox.
	 *
	 * @return array<string, mixed>
	 */
	public static function state(): array {
		$mysql_time = __( 'MySQL datetime in UTC.', 'service-integration' );
		return Schema::answer(
			'webhook-outbox',
			array(
				'pending'         => Schema::field( 'integer', __( 'Events waiting for the sidecar.', 'service-integration' ) ),
				'handed_over'     => Schema::field( 'integer', __( 'Events the sidecar acknowledged (kept 30 days).', 'service-integration' ) ),
				'rejected'        => Schema::field( 'integer', __( 'Events parked as refused: never sent again, never deleted.', 'service-integration' ) ),
				'oldest_pending'  => Schema::field( array( 'string', 'null' ), __( 'When the oldest waiting event was written (MySQL datetime in UTC); null when none waits.', 'service-integration' ) ),
				'last_error'      => Schema::field( array( 'string', 'null' ), __( 'The last hand-over\'s failure, if it failed.', 'service-integration' ) ),
				'error'           => Schema::field( array( 'string', 'null' ), __( 'POST only: why this hand-over stopped (hand_over_in_progress, or the sidecar\'s failure).', 'service-integration' ) ),
				'handed_over_now' => Schema::field( 'integer', __( 'POST only: events this hand-over gave the sidecar (handed_over counts every one kept).', 'service-integration' ) ),
				'rejected_now'    => Schema::field( 'integer', __( 'POST only: events this hand-over parked as refused.', 'service-integration' ) ),
				'rejected_events' => Schema::list_field(
					__( 'The last 10 parked events.', 'service-integration' ),
					Schema::object(
						array(
							'event_id'    => Schema::field( 'string', __( 'Event ID.', 'service-integration' ) ),
							'type'        => Schema::field( 'string', __( 'Event type.', 'service-integration' ) ),
							'error'       => Schema::field( 'string', __( 'Why the sidecar refused it.', 'service-integration' ) ),
							'created_at'  => Schema::field( 'string', $mysql_time ),
							'rejected_at' => Schema::field( 'string', $mysql_time ),
						)
					)
				),
				'write_failures'  => Schema::object_field(
					__( 'Events that could not be written to the outbox.', 'service-integration' ),
					array(
						'count'      => Schema::field( 'integer', __( 'How many.', 'service-integration' ) ),
						'last_event' => Schema::field( array( 'string', 'null' ), __( 'The last one\'s event ID.', 'service-integration' ) ),
						'last_error' => Schema::field( array( 'string', 'null' ), __( 'Why the last one could not be written.', 'service-integration' ) ),
						'last_at'    => Schema::time_field( __( 'When, ISO 8601 in UTC.', 'service-integration' ) ),
					)
				),
			),
			array( 'error', 'handed_over_now', 'rejected_now' )
		);
	}
}

<?php
/**
 * Answers of the inbound events routes (Rest\Inbound_Events_Controller).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

use ServiceIntegration\Inbound\Inbound_Store;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One event, and a page of them.
 */
final class Inbound_Events {

	/**
	 * One stored event; only GET of one event includes its payload.
	 *
	 * @return array<string, mixed>
	 */
	public static function event(): array {
		return Schema::answer(
			'inbound-event',
			array(
				'id'                => Schema::field( 'integer', __( 'The event\'s id in WordPress.', 'service-integration' ) ),
				'source'            => Schema::field( 'string', __( 'The source it came from.', 'service-integration' ) ),
				'event_id'          => Schema::field( 'string', __( 'What deduplicates: the provider\'s signed id, or a digest of the signed body.', 'service-integration' ) ),
				'delivery_id'       => Schema::field( array( 'string', 'null' ), __( 'The provider\'s own, unsigned delivery id (GitHub, Shopify), to match their delivery logs.', 'service-integration' ) ),
				'type'              => Schema::field( array( 'string', 'null' ), __( 'The event type the provider gave.', 'service-integration' ) ),
				'status'            => Schema::field( 'string', __( 'Processing status.', 'service-integration' ), array( 'enum' => Inbound_Store::STATUSES ) ),
				'attempts'          => Schema::field( 'integer', __( 'Processing attempts made.', 'service-integration' ) ),
				'last_error'        => Schema::field( array( 'string', 'null' ), __( 'Why the last attempt failed.', 'service-integration' ) ),
				'received_at'       => Schema::time_field( __( 'When it was received, ISO 8601 in UTC.', 'service-integration' ) ),
				'processed_at'      => Schema::time_field( __( 'When it was processed, ISO 8601 in UTC.', 'service-integration' ) ),
				'next_attempt_at'   => Schema::time_field( __( 'When the next attempt is due, ISO 8601 in UTC; null when none is.', 'service-integration' ) ),
				'gave_up'           => Schema::field( 'boolean', __( 'Whether it failed and no attempt is left.', 'service-integration' ) ),
				'duplicate_count'   => Schema::field( 'integer', __( 'Redeliveries of this event acknowledged as duplicates.', 'service-integration' ) ),
				'last_duplicate_at' => Schema::time_field( __( 'When the last duplicate came, ISO 8601 in UTC.', 'service-integration' ) ),
				'payload'           => Schema::field( 'string', __( 'One event only: the exact body the provider signed.', 'service-integration' ) ),
			),
			array( 'payload' )
		);
	}

	/**
	 * A page of events (without payloads), with the counts by status and the duplicates.
	 *
	 * @return array<string, mixed>
	 */
	public static function page(): array {
		$count  = static fn( string $description ): array => Schema::field( 'integer', $description );
		$counts = array();
		foreach ( Inbound_Store::STATUSES as $status ) {
			/* translators: %s: an inbound event status (received, processed, failed). */
			$counts[ $status ] = $count( sprintf( __( 'Events in status %s.', 'service-integration' ), $status ) );
		}
		return Schema::answer(
			'inbound-events',
			array(
				'events'     => Schema::list_field( __( 'The events of this page, newest first, without payloads.', 'service-integration' ), array_diff_key( self::event(), array_flip( array( '$schema', 'title' ) ) ) ),
				'total'      => $count( __( 'Events matching the filters.', 'service-integration' ) ),
				'page'       => $count( __( 'This page, from 1.', 'service-integration' ) ),
				'per_page'   => $count( __( 'Events per page.', 'service-integration' ) ),
				'counts'     => Schema::object_field( __( 'Events by status.', 'service-integration' ), $counts ),
				'duplicates' => Schema::object_field(
					__( 'Redeliveries acknowledged as duplicates (never stored or processed again).', 'service-integration' ),
					array(
						'deliveries' => $count( __( 'Duplicate deliveries in all.', 'service-integration' ) ),
						'events'     => $count( __( 'Events delivered more than once.', 'service-integration' ) ),
					)
				),
			)
		);
	}
}

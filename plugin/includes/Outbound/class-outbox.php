<?php
/**
 * The outbox: order events written in the same request as the order change.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A table in the WordPress database (shared by every web server) that holds each
 * event until the sidecar has acknowledged it. Event ids are deterministic, so the
 * same business event seen through two hooks is written once (UNIQUE event_id).
 *
 * A row is pending, handed over (handed_over_at), or rejected (rejected_at, with the
 * reason in last_error): the sidecar refused it, or it could not be sent at all. A
 * rejected row is parked: never sent again automatically, so it cannot block the rows
 * behind it, and counted in GET /webhooks/outbox.
 */
final class Outbox {

	const DB_VERSION_OPTION     = 'service_integration_outbox_db';
	const DB_VERSION            = '2';
	const WRITE_FAILURES_OPTION = 'service_integration_outbox_write_failures';

	/**
	 * Table name.
	 */
	public static function table(): string {
		global $wpdb;
		return $wpdb->prefix . 'si_outbox';
	}

	/**
	 * Creates or upgrades the table (version 2 adds rejected_at and the queue index).
	 */
	public static function install(): void {
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$charset = $wpdb->get_charset_collate();
		$table   = self::table();
		dbDelta(
			"CREATE TABLE {$table} (
				id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
				event_id varchar(100) NOT NULL,
				type varchar(40) NOT NULL,
				ordering_key varchar(100) NOT NULL DEFAULT '',
				payload longtext NOT NULL,
				created_at datetime NOT NULL,
				handed_over_at datetime NULL DEFAULT NULL,
				rejected_at datetime NULL DEFAULT NULL,
				attempts int(10) unsigned NOT NULL DEFAULT 0,
				last_error varchar(255) NOT NULL DEFAULT '',
				PRIMARY KEY  (id),
				UNIQUE KEY event_id (event_id),
				KEY pending (handed_over_at, id),
				KEY queue (rejected_at, handed_over_at, id)
			) {$charset};"
		);
		// Autoloaded: the version checks run on every request (Lifecycle::AUTOLOADED_OPTIONS).
		update_option( self::DB_VERSION_OPTION, self::DB_VERSION, true );
	}

	/**
	 * Adds an event unless one with the same id exists.
	 *
	 * @param string $event_id     Stable event id.
	 * @param string $type         order.created | order.paid | order.refunded.
	 * @param string $ordering_key Events with the same key are delivered in order.
	 * @param array  $payload      {type, timestamp, data}.
	 * @return bool Whether a new row was written.
	 */
	public static function add( string $event_id, string $type, string $ordering_key, array $payload ): bool {
		global $wpdb;
		$table = self::table();
		$json  = wp_json_encode( $payload );
		if ( false === $json ) {
			// Kept anyway (as null), so the hand-over parks it visibly instead of the event vanishing.
			self::log_write_failure( $event_id, 'the payload cannot be JSON-encoded: ' . json_last_error_msg() );
			$json = 'null';
		}
		// INSERT IGNORE: atomic insert-once on MySQL, translated to INSERT OR IGNORE on SQLite.
		$written = $wpdb->query(
			$wpdb->prepare(
				"INSERT IGNORE INTO {$table} (event_id, type, ordering_key, payload, created_at) VALUES (%s, %s, %s, %s, %s)",
				$event_id,
				$type,
				$ordering_key,
				$json,
				current_time( 'mysql', true )
			)
		);
		if ( false === $written ) {
			// A database error, not a duplicate (that is 0 rows): the event is lost, say so.
			self::log_write_failure( $event_id, $wpdb->last_error ? $wpdb->last_error : 'unknown database error' );
			return false;
		}
		return 1 === $written;
	}

	/**
	 * Logs an event the outbox could not store, and counts it for the admin screen.
	 *
	 * @param string $event_id Event id.
	 * @param string $error    Why.
	 */
	private static function log_write_failure( string $event_id, string $error ): void {
		error_log( 'service-integration: could not write event ' . $event_id . ' to the outbox: ' . $error );
		$failures = (array) get_option( self::WRITE_FAILURES_OPTION, array() );
		update_option(
			self::WRITE_FAILURES_OPTION,
			array(
				'count'      => (int) ( $failures['count'] ?? 0 ) + 1,
				'last_event' => $event_id,
				'last_error' => substr( $error, 0, 255 ),
				'last_at'    => gmdate( 'c' ),
			),
			false
		);
	}

	/**
	 * Oldest events not yet acknowledged by the sidecar, rejected ones left out.
	 *
	 * @param int $limit Maximum rows.
	 * @return array<int, object>
	 */
	public static function pending( int $limit ): array {
		global $wpdb;
		$table = self::table();
		return $wpdb->get_results( $wpdb->prepare( "SELECT id, event_id, type, ordering_key, payload FROM {$table} WHERE rejected_at IS NULL AND handed_over_at IS NULL ORDER BY id ASC LIMIT %d", $limit ) );
	}

	/**
	 * Marks events as acknowledged by the sidecar.
	 *
	 * @param string[] $event_ids Event ids.
	 */
	public static function mark_handed_over( array $event_ids ): void {
		global $wpdb;
		if ( ! $event_ids ) {
			return;
		}
		$table        = self::table();
		$placeholders = implode( ',', array_fill( 0, count( $event_ids ), '%s' ) );
		$wpdb->query( $wpdb->prepare( "UPDATE {$table} SET handed_over_at = %s WHERE event_id IN ({$placeholders})", array_merge( array( current_time( 'mysql', true ) ), $event_ids ) ) );
	}

	/**
	 * Records a failed hand-over on the pending rows that were tried.
	 *
	 * @param int[]  $ids   Row ids.
	 * @param string $error Short reason.
	 */
	public static function mark_failed( array $ids, string $error ): void {
		global $wpdb;
		if ( ! $ids ) {
			return;
		}
		$table        = self::table();
		$placeholders = implode( ',', array_fill( 0, count( $ids ), '%d' ) );
		$wpdb->query( $wpdb->prepare( "UPDATE {$table} SET attempts = attempts + 1, last_error = %s WHERE id IN ({$placeholders})", array_merge( array( substr( $error, 0, 255 ) ), $ids ) ) );
	}

	/**
	 * Parks a row the sidecar refused (or that cannot be sent): it is never sent again
	 * automatically, and the rows behind it go on.
	 *
	 * @param int    $id    Row id.
	 * @param string $error Why, e.g. "invalid_body: events.0.timestamp: …".
	 */
	public static function mark_rejected( int $id, string $error ): void {
		global $wpdb;
		$table = self::table();
		$wpdb->query( $wpdb->prepare( "UPDATE {$table} SET rejected_at = %s, attempts = attempts + 1, last_error = %s WHERE id = %d", current_time( 'mysql', true ), substr( $error, 0, 255 ), $id ) );
		error_log( 'service-integration: outbox row ' . $id . ' parked, the sidecar will not take it: ' . $error );
	}

	/**
	 * Retention: deletes up to $limit rows handed over at least $days days ago (0: all of
	 * them). Pending and rejected rows are never deleted here.
	 *
	 * @param float $days  Age in days.
	 * @param int   $limit Maximum rows.
	 * @return int Rows deleted.
	 */
	public static function prune_handed_over( float $days, int $limit ): int {
		global $wpdb;
		$table  = self::table();
		$cutoff = gmdate( 'Y-m-d H:i:s', time() - (int) round( $days * DAY_IN_SECONDS ) );
		$ids    = $wpdb->get_col( $wpdb->prepare( "SELECT id FROM {$table} WHERE handed_over_at IS NOT NULL AND handed_over_at <= %s ORDER BY handed_over_at LIMIT %d", $cutoff, $limit ) );
		if ( ! $ids ) {
			return 0;
		}
		$placeholders = implode( ',', array_fill( 0, count( $ids ), '%d' ) );
		return (int) $wpdb->query( $wpdb->prepare( "DELETE FROM {$table} WHERE id IN ({$placeholders})", array_map( 'intval', $ids ) ) );
	}

	/**
	 * Counts for the admin page, the last rejected rows, and events the outbox failed to store.
	 *
	 * @return array{pending:int, handed_over:int, rejected:int, oldest_pending:?string, last_error:?string, rejected_events:array, write_failures:array}
	 */
	public static function counts(): array {
		global $wpdb;
		$table    = self::table();
		$row      = $wpdb->get_row( "SELECT SUM(CASE WHEN rejected_at IS NULL AND handed_over_at IS NULL THEN 1 ELSE 0 END) AS pending, SUM(CASE WHEN handed_over_at IS NULL THEN 0 ELSE 1 END) AS handed_over, SUM(CASE WHEN rejected_at IS NULL THEN 0 ELSE 1 END) AS rejected, MIN(CASE WHEN rejected_at IS NULL AND handed_over_at IS NULL THEN created_at END) AS oldest FROM {$table}" );
		$error    = $wpdb->get_var( "SELECT last_error FROM {$table} WHERE rejected_at IS NULL AND handed_over_at IS NULL AND last_error <> '' ORDER BY id ASC LIMIT 1" );
		$rejected = $wpdb->get_results( "SELECT event_id, type, last_error, created_at, rejected_at FROM {$table} WHERE rejected_at IS NOT NULL ORDER BY rejected_at DESC, id DESC LIMIT 10" );
		$failures = (array) get_option( self::WRITE_FAILURES_OPTION, array() );
		return array(
			'pending'         => (int) ( $row->pending ?? 0 ),
			'handed_over'     => (int) ( $row->handed_over ?? 0 ),
			'rejected'        => (int) ( $row->rejected ?? 0 ),
			'oldest_pending'  => $row->oldest ?? null,
			'last_error'      => $error ? (string) $error : null,
			'rejected_events' => array_map(
				static fn( $item ): array => array(
					'event_id'    => (string) $item->event_id,
					'type'        => (string) $item->type,
					'error'       => (string) $item->last_error,
					'created_at'  => (string) $item->created_at,
					'rejected_at' => (string) $item->rejected_at,
				),
				(array) $rejected
			),
			'write_failures'  => array(
				'count'      => (int) ( $failures['count'] ?? 0 ),
				'last_event' => $failures['last_event'] ?? null,
				'last_error' => $failures['last_error'] ?? null,
				'last_at'    => $failures['last_at'] ?? null,
			),
		);
	}
}

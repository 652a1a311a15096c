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
 */
final class Outbox {

	const DB_VERSION_OPTION = 'service_integration_outbox_db';
	const DB_VERSION        = '1';

	/**
	 * Table name.
	 */
	public static function table(): string {
		global $wpdb;
		return $wpdb->prefix . 'si_outbox';
	}

	/**
	 * Creates or upgrades the table.
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
				attempts int(10) unsigned NOT NULL DEFAULT 0,
				last_error varchar(255) NOT NULL DEFAULT '',
				PRIMARY KEY  (id),
				UNIQUE KEY event_id (event_id),
				KEY pending (handed_over_at, id)
			) {$charset};"
		);
		update_option( self::DB_VERSION_OPTION, self::DB_VERSION, false );
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
		// INSERT IGNORE: atomic insert-once on MySQL, translated to INSERT OR IGNORE on SQLite.
		$written = $wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery
			$wpdb->prepare(
				"INSERT IGNORE INTO {$table} (event_id, type, ordering_key, payload, created_at) VALUES (%s, %s, %s, %s, %s)", // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared
				$event_id,
				$type,
				$ordering_key,
				wp_json_encode( $payload ),
				current_time( 'mysql', true )
			)
		);
		return 1 === $written;
	}

	/**
	 * Oldest events not yet acknowledged by the sidecar.
	 *
	 * @param int $limit Maximum rows.
	 * @return array<int, object>
	 */
	public static function pending( int $limit ): array {
		global $wpdb;
		$table = self::table();
		return $wpdb->get_results( $wpdb->prepare( "SELECT id, event_id, type, ordering_key, payload FROM {$table} WHERE handed_over_at IS NULL ORDER BY id ASC LIMIT %d", $limit ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared
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
		$wpdb->query( $wpdb->prepare( "UPDATE {$table} SET handed_over_at = %s WHERE event_id IN ({$placeholders})", array_merge( array( current_time( 'mysql', true ) ), $event_ids ) ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL
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
		$wpdb->query( $wpdb->prepare( "UPDATE {$table} SET attempts = attempts + 1, last_error = %s WHERE id IN ({$placeholders})", array_merge( array( substr( $error, 0, 255 ) ), $ids ) ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL
	}

	/**
	 * Counts for the admin page.
	 *
	 * @return array{pending:int, handed_over:int, oldest_pending:?string}
	 */
	public static function counts(): array {
		global $wpdb;
		$table = self::table();
		$row   = $wpdb->get_row( "SELECT SUM(CASE WHEN handed_over_at IS NULL THEN 1 ELSE 0 END) AS pending, SUM(CASE WHEN handed_over_at IS NULL THEN 0 ELSE 1 END) AS handed_over, MIN(CASE WHEN handed_over_at IS NULL THEN created_at END) AS oldest FROM {$table}" ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared
		return array(
			'pending'        => (int) ( $row->pending ?? 0 ),
			'handed_over'    => (int) ( $row->handed_over ?? 0 ),
			'oldest_pending' => $row->oldest ?? null,
		);
	}
}

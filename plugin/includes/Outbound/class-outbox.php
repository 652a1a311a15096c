<?php
/**
 * The outbox: order events written in the same request as the order change.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

use ServiceIntegration\Support\Clock;
use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Support\Logger;
use ServiceIntegration\Support\Mysql_Time;
use ServiceIntegration\Support\Options;
use WP_Error;

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
 *
 * One instance, built in Plugin with WordPress's connection, the system clock and WordPress's
 * options (the schema version, the tally of events it could not store); a failed
 * query comes back as a WP_Error (Database_Error), never as an empty result.
 */
final class Outbox {

	const DB_VERSION_OPTION     = 'service_integration_outbox_db';
	const DB_VERSION            = '2';
	const WRITE_FAILURES_OPTION = 'service_integration_outbox_write_failures';
	/** The table's name after the site's prefix. */
	const TABLE = 'si_outbox';
	/** The longest error kept on a row (the column's size). */
	const ERROR_LENGTH = 255;
	/** Rows listed as the last rejected ones. */
	const REJECTED_SHOWN = 10;

	/**
	 * Constructor.
	 *
	 * @param \wpdb   $db      The database.
	 * @param Clock   $clock   Time of created_at, handed_over_at, rejected_at and retention.
	 * @param Options $options The schema version and the write failures' tally.
	 */
	public function __construct( private \wpdb $db, private Clock $clock, private Options $options ) {
	}

	/**
	 * Table name.
	 */
	public function table(): string {
		return $this->db->prefix . self::TABLE;
	}

	/**
	 * The clock's time as a stored DATETIME.
	 */
	private function now(): string {
		return Mysql_Time::of( $this->clock->now() );
	}

	/**
	 * Creates or upgrades the table (version 2 adds rejected_at and the queue index).
	 */
	public function install(): void {
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$charset = $this->db->get_charset_collate();
		$table   = $this->table();
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
		$this->options->update( self::DB_VERSION_OPTION, self::DB_VERSION, true );
	}

	/**
	 * Adds an event unless one with the same id exists.
	 *
	 * @param string $event_id     Stable event id.
	 * @param string $type         order.created | order.paid | order.refunded.
	 * @param string $ordering_key Events with the same key are delivered in order.
	 * @param array  $payload      {type, timestamp, data}.
	 * @return bool Whether a new row was written (false for a duplicate, and for a database
	 *              error, which is logged and counted in write_failures: the caller is an order
	 *              hook, which must not fail the order).
	 */
	public function add( string $event_id, string $type, string $ordering_key, array $payload ): bool {
		$event = array(
			'event_id'     => $event_id,
			'type'         => $type,
			'ordering_key' => $ordering_key,
			'payload'      => $payload,
		);
		return 1 === $this->add_all( array( $event ) );
	}

	/**
	 * Adds events, each unless one with the same id exists, in one statement: a request's events
	 * cost one write (one commit), and their rows' ids follow the order given, which is the order
	 * the hand-over reads them in.
	 *
	 * @param array<int, array{event_id: string, type: string, ordering_key: string, payload: array}> $events Events, as add() takes them.
	 * @return int How many new rows were written (0 for duplicates, and for a database error, which
	 *             is logged and counted in write_failures for each event: none of them is stored).
	 */
	public function add_all( array $events ): int {
		if ( ! $events ) {
			return 0;
		}
		$table  = $this->table();
		$now    = $this->now();
		$rows   = array();
		$values = array();
		foreach ( $events as $event ) {
			$json = wp_json_encode( $event['payload'] );
			if ( false === $json ) {
				// Kept anyway (as null), so the hand-over parks it visibly instead of the event vanishing.
				$this->log_write_failure( $event['event_id'], 'the payload cannot be JSON-encoded: ' . json_last_error_msg() );
				$json = 'null';
			}
			$rows[] = '(%s, %s, %s, %s, %s)';
			array_push( $values, $event['event_id'], $event['type'], $event['ordering_key'], $json, $now );
		}
		// INSERT IGNORE: atomic insert-once on MySQL, translated to INSERT OR IGNORE on SQLite.
		$written = $this->db->query(
			$this->db->prepare(
				"INSERT IGNORE INTO {$table} (event_id, type, ordering_key, payload, created_at) VALUES " . implode( ', ', $rows ), // The table name and one placeholder group per event.
				$values
			)
		);
		if ( false === $written || '' !== (string) $this->db->last_error ) {
			// A database error, not a duplicate (that is 0 rows): the events are lost, say so.
			$error = '' !== (string) $this->db->last_error ? (string) $this->db->last_error : 'unknown database error';
			foreach ( $events as $event ) {
				$this->log_write_failure( $event['event_id'], $error );
			}
			return 0;
		}
		return (int) $written;
	}

	/**
	 * Logs an event the outbox could not store, and counts it for the admin screen.
	 *
	 * @param string $event_id Event id.
	 * @param string $error    Why.
	 */
	private function log_write_failure( string $event_id, string $error ): void {
		Logger::error( 'service-integration: could not write event ' . $event_id . ' to the outbox: ' . $error );
		$this->options->update(
			self::WRITE_FAILURES_OPTION,
			Outbound_Rules::write_failures_add( $this->options->get( self::WRITE_FAILURES_OPTION, array() ), $event_id, $error, $this->clock->now() ),
			false
		);
	}

	/**
	 * Oldest events not yet acknowledged by the sidecar, rejected ones left out.
	 *
	 * @param int $limit Maximum rows.
	 * @return array<int, object>|WP_Error
	 */
	public function pending( int $limit ) {
		$table = $this->table();
		$rows  = $this->db->get_results( $this->db->prepare( "SELECT id, event_id, type, ordering_key, payload FROM {$table} WHERE rejected_at IS NULL AND handed_over_at IS NULL ORDER BY id ASC LIMIT %d", max( 1, $limit ) ) );
		return Database_Error::of( $this->db, $rows, 'outbox: read the pending rows' ) ?? (array) $rows;
	}

	/**
	 * Marks events as acknowledged by the sidecar.
	 *
	 * @param string[] $event_ids Event ids.
	 * @return true|WP_Error
	 */
	public function mark_handed_over( array $event_ids ) {
		if ( ! $event_ids ) {
			return true;
		}
		$table        = $this->table();
		$placeholders = implode( ',', array_fill( 0, count( $event_ids ), '%s' ) );
		$done         = $this->db->query( $this->db->prepare( "UPDATE {$table} SET handed_over_at = %s WHERE event_id IN ({$placeholders})", array_merge( array( $this->now() ), array_values( $event_ids ) ) ) );
		return Database_Error::of( $this->db, $done, 'outbox: mark rows handed over' ) ?? true;
	}

	/**
	 * Records a failed hand-over on the pending rows that were tried.
	 *
	 * @param int[]  $ids   Row ids.
	 * @param string $error Short reason.
	 * @return true|WP_Error
	 */
	public function mark_failed( array $ids, string $error ) {
		if ( ! $ids ) {
			return true;
		}
		$table        = $this->table();
		$placeholders = implode( ',', array_fill( 0, count( $ids ), '%d' ) );
		$done         = $this->db->query( $this->db->prepare( "UPDATE {$table} SET attempts = attempts + 1, last_error = %s WHERE id IN ({$placeholders})", array_merge( array( substr( $error, 0, self::ERROR_LENGTH ) ), array_map( 'intval', array_values( $ids ) ) ) ) );
		return Database_Error::of( $this->db, $done, 'outbox: record a failed hand-over' ) ?? true;
	}

	/**
	 * Parks a row the sidecar refused (or that cannot be sent): it is never sent again
	 * automatically, and the rows behind it go on.
	 *
	 * @param int    $id    Row id.
	 * @param string $error Why, e.g. "invalid_body: events.0.timestamp: …".
	 * @return true|WP_Error
	 */
	public function mark_rejected( int $id, string $error ) {
		$table = $this->table();
		$done  = $this->db->query( $this->db->prepare( "UPDATE {$table} SET rejected_at = %s, attempts = attempts + 1, last_error = %s WHERE id = %d", $this->now(), substr( $error, 0, self::ERROR_LENGTH ), $id ) );
		$fault = Database_Error::of( $this->db, $done, 'outbox: park row ' . $id );
		if ( $fault ) {
			return $fault;
		}
		Logger::error( 'service-integration: outbox row ' . $id . ' parked, the sidecar will not take it: ' . $error );
		return true;
	}

	/**
	 * Retention: deletes up to $limit rows handed over at least $days days ago (0: all of
	 * them). Pending and rejected rows are never deleted here.
	 *
	 * @param float $days  Age in days.
	 * @param int   $limit Maximum rows.
	 * @return int|WP_Error Rows deleted.
	 */
	public function prune_handed_over( float $days, int $limit ) {
		$cutoff = Outbound_Rules::retention_cutoff( $this->clock->now(), $days );
		if ( null === $cutoff ) {
			return 0;
		}
		$table = $this->table();
		$ids   = $this->db->get_col( $this->db->prepare( "SELECT id FROM {$table} WHERE handed_over_at IS NOT NULL AND handed_over_at <= %s ORDER BY handed_over_at LIMIT %d", Mysql_Time::of( $cutoff ), max( 1, $limit ) ) );
		$fault = Database_Error::of( $this->db, $ids, 'outbox: find rows to prune' );
		if ( $fault ) {
			return $fault;
		}
		if ( ! $ids ) {
			return 0;
		}
		$placeholders = implode( ',', array_fill( 0, count( $ids ), '%d' ) );
		$deleted      = $this->db->query( $this->db->prepare( "DELETE FROM {$table} WHERE id IN ({$placeholders})", array_map( 'intval', $ids ) ) );
		return Database_Error::of( $this->db, $deleted, 'outbox: prune rows' ) ?? (int) $deleted;
	}

	/**
	 * Counts for the admin page, the last rejected rows, and events the outbox failed to store.
	 *
	 * @return array{pending:int, handed_over:int, rejected:int, oldest_pending:?string, last_error:?string, rejected_events:array, write_failures:array}|WP_Error
	 */
	public function counts() {
		$table = $this->table();
		$row   = $this->db->get_row( "SELECT SUM(CASE WHEN rejected_at IS NULL AND handed_over_at IS NULL THEN 1 ELSE 0 END) AS pending, SUM(CASE WHEN handed_over_at IS NULL THEN 0 ELSE 1 END) AS handed_over, SUM(CASE WHEN rejected_at IS NULL THEN 0 ELSE 1 END) AS rejected, MIN(CASE WHEN rejected_at IS NULL AND handed_over_at IS NULL THEN created_at END) AS oldest FROM {$table}" );
		$fault = Database_Error::of( $this->db, $row, 'outbox: count rows' );
		if ( $fault ) {
			return $fault;
		}
		$error = $this->db->get_var( "SELECT last_error FROM {$table} WHERE rejected_at IS NULL AND handed_over_at IS NULL AND last_error <> '' ORDER BY id ASC LIMIT 1" );
		$fault = Database_Error::of( $this->db, $error, 'outbox: read the last error' );
		if ( $fault ) {
			return $fault;
		}
		$rejected = $this->db->get_results( $this->db->prepare( "SELECT event_id, type, last_error, created_at, rejected_at FROM {$table} WHERE rejected_at IS NOT NULL ORDER BY rejected_at DESC, id DESC LIMIT %d", self::REJECTED_SHOWN ) );
		$fault    = Database_Error::of( $this->db, $rejected, 'outbox: read the rejected rows' );
		if ( $fault ) {
			return $fault;
		}
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
			'write_failures'  => Outbound_Rules::write_failures( $this->options->get( self::WRITE_FAILURES_OPTION, array() ) ),
		);
	}
}

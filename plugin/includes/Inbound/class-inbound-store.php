<?php
/**
 * The inbound events table: each verified webhook stored once, with its processing state.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Inbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Lives in the WordPress database because deduplication must hold across every web
 * server of the site. UNIQUE (source, event_id) plus INSERT IGNORE makes "store once"
 * a single atomic statement on MySQL and on SQLite (the SQLite integration turns it
 * into INSERT OR IGNORE), so concurrent retries of one event cannot both get in.
 *
 * A redelivery the insert ignored is counted on the stored row (duplicate_count,
 * last_duplicate_at) with one atomic UPDATE, so the admin page can show it.
 *
 * Rows are claimed for processing with a conditional UPDATE (a lease), so two cron
 * runs that overlap never run the same event's handlers at the same time.
 */
final class Inbound_Store {

	const DB_VERSION_OPTION = 'service_integration_inbound_db';
	const DB_VERSION        = '3'; // 2: duplicate_count, last_duplicate_at. 3: delivery_id.

	const STATUS_RECEIVED  = 'received';
	const STATUS_PROCESSED = 'processed';
	const STATUS_FAILED    = 'failed';
	const STATUSES         = array( self::STATUS_RECEIVED, self::STATUS_PROCESSED, self::STATUS_FAILED );

	/**
	 * Longest event id stored as-is; longer ones (legal for Standard Webhooks, up to 256)
	 * are stored as sha256:<hex> so the unique index stays within every MySQL's key limit.
	 */
	const MAX_EVENT_ID_LENGTH = 191;

	/**
	 * Columns listed by the admin routes (everything but the payload).
	 */
	const SUMMARY_COLUMNS = 'id, source, event_id, delivery_id, type, status, attempts, last_error, received_at, processed_at, next_attempt_at, duplicate_count, last_duplicate_at';

	/**
	 * Table name.
	 */
	public static function table(): string {
		global $wpdb;
		return $wpdb->prefix . 'si_inbound_events';
	}

	/**
	 * Creates or upgrades the table (dbDelta: idempotent; adds the columns a newer
	 * DB_VERSION brings to an existing table).
	 */
	public static function install(): void {
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$charset = $wpdb->get_charset_collate();
		$table   = self::table();
		dbDelta(
			"CREATE TABLE {$table} (
				id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
				source varchar(64) NOT NULL,
				event_id varchar(191) NOT NULL,
				delivery_id varchar(255) NULL DEFAULT NULL,
				type varchar(191) NOT NULL,
				payload longtext NOT NULL,
				data_pointer varchar(20) NOT NULL DEFAULT '',
				status varchar(20) NOT NULL DEFAULT 'received',
				attempts int(10) unsigned NOT NULL DEFAULT 0,
				last_error text NULL,
				received_at datetime NOT NULL,
				processed_at datetime NULL DEFAULT NULL,
				next_attempt_at datetime NULL DEFAULT NULL,
				locked_until datetime NULL DEFAULT NULL,
				duplicate_count int(10) unsigned NOT NULL DEFAULT 0,
				last_duplicate_at datetime NULL DEFAULT NULL,
				PRIMARY KEY  (id),
				UNIQUE KEY source_event (source, event_id),
				KEY due (status, next_attempt_at),
				KEY source_status (source, status)
			) {$charset};"
		);
		// Autoloaded: the version checks run on every request (Lifecycle::AUTOLOADED_OPTIONS).
		update_option( self::DB_VERSION_OPTION, self::DB_VERSION, true );
	}

	/**
	 * The id the unique index sees.
	 *
	 * @param string $event_id Event id from the sidecar.
	 */
	public static function storable_event_id( string $event_id ): string {
		return strlen( $event_id ) > self::MAX_EVENT_ID_LENGTH ? 'sha256:' . hash( 'sha256', $event_id ) : $event_id;
	}

	/**
	 * Stores an event unless one with the same source and event id exists.
	 *
	 * @param string      $source       Source slug.
	 * @param string      $event_id     Signed event id (or the body digest the sidecar derived): what dedupes.
	 * @param string      $type         Event type.
	 * @param string      $payload      The exact body the provider signed.
	 * @param string      $data_pointer Where `data` sits in the body: '' (all of it) or '/data'.
	 * @param string|null $delivery_id  The provider's unsigned delivery id (GitHub, Shopify), for display only.
	 * @return int|false Row id when stored, 0 when it was a duplicate (counted on the stored row), false on a database error.
	 */
	public static function insert_once( string $source, string $event_id, string $type, string $payload, string $data_pointer, ?string $delivery_id = null ) {
		global $wpdb;
		$table = self::table();
		$now   = current_time( 'mysql', true );
		// INSERT IGNORE: one atomic statement; a concurrent duplicate affects 0 rows.
		$written = $wpdb->query(
			$wpdb->prepare(
				"INSERT IGNORE INTO {$table} (source, event_id, delivery_id, type, payload, data_pointer, status, attempts, received_at, next_attempt_at) VALUES (%s, %s, NULLIF(%s, ''), %s, %s, %s, %s, 0, %s, %s)",
				$source,
				self::storable_event_id( $event_id ),
				(string) $delivery_id,
				$type,
				$payload,
				$data_pointer,
				self::STATUS_RECEIVED,
				$now,
				$now
			)
		);
		if ( false === $written ) {
			return false;
		}
		if ( 1 === (int) $written ) {
			return (int) $wpdb->insert_id;
		}
		return self::count_duplicate( $source, $event_id, $now ) ? 0 : false;
	}

	/**
	 * Counts a redelivery on the stored row: one atomic UPDATE, so concurrent duplicates
	 * are all counted. No row to count on means the insert was ignored for another
	 * reason (IGNORE turns some errors into warnings): not a duplicate, so false.
	 *
	 * @param string $source   Source slug.
	 * @param string $event_id Event id as given to insert_once.
	 * @param string $now      UTC datetime.
	 */
	private static function count_duplicate( string $source, string $event_id, string $now ): bool {
		global $wpdb;
		$table   = self::table();
		$counted = $wpdb->query(
			$wpdb->prepare(
				"UPDATE {$table} SET duplicate_count = duplicate_count + 1, last_duplicate_at = %s WHERE source = %s AND event_id = %s",
				$now,
				$source,
				self::storable_event_id( $event_id )
			)
		);
		return 1 === (int) $counted;
	}

	/**
	 * One event with its payload.
	 *
	 * @param int $id Row id.
	 */
	public static function get( int $id ): ?object {
		global $wpdb;
		$table = self::table();
		$row   = $wpdb->get_row( $wpdb->prepare( "SELECT * FROM {$table} WHERE id = %d", $id ) );
		return $row ? self::typed( $row ) : null;
	}

	/**
	 * A page of events, newest first, without payloads.
	 *
	 * @param array{source?:string, status?:string, event_id?:string, duplicate?:bool} $filter   Filters (duplicate: only events delivered more than once).
	 * @param int                                                                      $page     1-based page.
	 * @param int                                                                      $per_page Rows a page.
	 * @return array{items: object[], total: int}
	 */
	public static function page( array $filter, int $page, int $per_page ): array {
		global $wpdb;
		list( $where_sql, $values ) = self::page_where( $filter );

		$table     = self::table();
		$count_sql = "SELECT COUNT(*) FROM {$table} WHERE {$where_sql}";
		$page_sql  = 'SELECT ' . self::SUMMARY_COLUMNS . " FROM {$table} WHERE {$where_sql} ORDER BY id DESC LIMIT %d OFFSET %d";
		$total     = (int) $wpdb->get_var( $values ? $wpdb->prepare( $count_sql, $values ) : $count_sql );
		$rows      = $wpdb->get_results( $wpdb->prepare( $page_sql, array_merge( $values, array( $per_page, ( $page - 1 ) * $per_page ) ) ) );
		return array(
			'items' => array_map( array( self::class, 'typed' ), (array) $rows ),
			'total' => $total,
		);
	}

	/**
	 * The conditions of a page's filter, with their values in order: source and status as
	 * given, an event id matching the stored id or the provider's delivery id, and duplicates
	 * only when asked for. Empty filters are no condition.
	 *
	 * @param array{source?:string, status?:string, event_id?:string, duplicate?:bool} $filter Filters.
	 * @return array{0: string, 1: string[]} SQL condition (placeholders %s), values.
	 */
	public static function page_where( array $filter ): array {
		$where  = array( '1=1' );
		$values = array();
		foreach ( array( 'source', 'status' ) as $column ) {
			if ( isset( $filter[ $column ] ) && '' !== $filter[ $column ] ) {
				$where[]  = "{$column} = %s";
				$values[] = $filter[ $column ];
			}
		}
		if ( isset( $filter['event_id'] ) && '' !== $filter['event_id'] ) {
			// The provider's delivery id finds the event too (what GitHub and Shopify show their users).
			$where[]  = '(event_id = %s OR delivery_id = %s)';
			$values[] = self::storable_event_id( $filter['event_id'] );
			$values[] = $filter['event_id'];
		}
		if ( ! empty( $filter['duplicate'] ) ) {
			$where[] = 'duplicate_count > 0';
		}
		return array( implode( ' AND ', $where ), $values );
	}

	/**
	 * Ids of events due for processing, oldest first.
	 *
	 * @param int $limit Maximum rows.
	 * @return int[]
	 */
	public static function due_ids( int $limit ): array {
		global $wpdb;
		$table = self::table();
		$now   = current_time( 'mysql', true );
		$ids   = $wpdb->get_col(
			$wpdb->prepare(
				"SELECT id FROM {$table} WHERE status IN (%s, %s) AND next_attempt_at IS NOT NULL AND next_attempt_at <= %s AND (locked_until IS NULL OR locked_until < %s) ORDER BY next_attempt_at ASC, id ASC LIMIT %d",
				self::STATUS_RECEIVED,
				self::STATUS_FAILED,
				$now,
				$now,
				$limit
			)
		);
		return array_map( 'intval', (array) $ids );
	}

	/**
	 * When the next event becomes due (a claimed one: when its claim expires), or null.
	 */
	public static function next_due_time(): ?int {
		global $wpdb;
		$table = self::table();
		$next  = $wpdb->get_var(
			$wpdb->prepare(
				"SELECT MIN(CASE WHEN locked_until IS NOT NULL AND locked_until > next_attempt_at THEN locked_until ELSE next_attempt_at END) FROM {$table} WHERE status IN (%s, %s) AND next_attempt_at IS NOT NULL",
				self::STATUS_RECEIVED,
				self::STATUS_FAILED
			)
		);
		return $next ? (int) strtotime( $next . ' UTC' ) : null;
	}

	/**
	 * Claims a due event for one attempt: atomic, so of two overlapping runs only one
	 * gets it. Counts the attempt now, so a run that dies mid-handler still counts.
	 *
	 * @param int $id            Row id.
	 * @param int $lease_seconds How long the claim holds if the process dies.
	 */
	public static function claim( int $id, int $lease_seconds ): bool {
		global $wpdb;
		$table = self::table();
		$now   = current_time( 'mysql', true );
		$until = gmdate( 'Y-m-d H:i:s', time() + $lease_seconds );
		$done  = $wpdb->query(
			$wpdb->prepare(
				"UPDATE {$table} SET locked_until = %s, attempts = attempts + 1 WHERE id = %d AND status IN (%s, %s) AND next_attempt_at IS NOT NULL AND next_attempt_at <= %s AND (locked_until IS NULL OR locked_until < %s)",
				$until,
				$id,
				self::STATUS_RECEIVED,
				self::STATUS_FAILED,
				$now,
				$now
			)
		);
		return 1 === (int) $done;
	}

	/**
	 * Records a successful attempt.
	 *
	 * @param int $id Row id.
	 */
	public static function mark_processed( int $id ): void {
		global $wpdb;
		$wpdb->update(
			self::table(),
			array(
				'status'          => self::STATUS_PROCESSED,
				'processed_at'    => current_time( 'mysql', true ),
				'next_attempt_at' => null,
				'locked_until'    => null,
			),
			array( 'id' => $id ),
			'%s', // wpdb writes NULL for null values whatever the format.
			array( '%d' )
		);
	}

	/**
	 * Records a failed attempt, and when to try again (null: never, it gave up).
	 *
	 * @param int      $id       Row id.
	 * @param string   $error    What went wrong.
	 * @param int|null $retry_at Unix time of the next attempt, or null.
	 */
	public static function mark_failed( int $id, string $error, ?int $retry_at ): void {
		global $wpdb;
		$wpdb->update(
			self::table(),
			array(
				'status'          => self::STATUS_FAILED,
				'last_error'      => substr( $error, 0, 2000 ),
				'next_attempt_at' => null === $retry_at ? null : gmdate( 'Y-m-d H:i:s', $retry_at ),
				'locked_until'    => null,
			),
			array( 'id' => $id ),
			'%s',
			array( '%d' )
		);
	}

	/**
	 * Puts an event back in the queue for a fresh round of attempts (an administrator's retry).
	 *
	 * @param int $id Row id.
	 */
	public static function requeue( int $id ): bool {
		global $wpdb;
		$table = self::table();
		$done  = $wpdb->query(
			$wpdb->prepare(
				"UPDATE {$table} SET status = %s, attempts = 0, next_attempt_at = %s, locked_until = NULL WHERE id = %d AND status = %s",
				self::STATUS_FAILED,
				current_time( 'mysql', true ),
				$id,
				self::STATUS_FAILED
			)
		);
		return 1 === (int) $done;
	}

	/**
	 * Counts per status, for the admin page.
	 *
	 * @return array<string, int>
	 */
	public static function counts(): array {
		global $wpdb;
		$table  = self::table();
		$counts = array_fill_keys( self::STATUSES, 0 );
		foreach ( (array) $wpdb->get_results( "SELECT status, COUNT(*) AS n FROM {$table} GROUP BY status" ) as $row ) {
			$counts[ $row->status ] = (int) $row->n;
		}
		return $counts;
	}

	/**
	 * Redeliveries counted on stored events: how many, on how many events.
	 *
	 * @return array{deliveries: int, events: int}
	 */
	public static function duplicate_totals(): array {
		global $wpdb;
		$table = self::table();
		$row   = $wpdb->get_row( "SELECT COALESCE(SUM(duplicate_count), 0) AS deliveries, COUNT(CASE WHEN duplicate_count > 0 THEN 1 END) AS events FROM {$table}" );
		return array(
			'deliveries' => $row ? (int) $row->deliveries : 0,
			'events'     => $row ? (int) $row->events : 0,
		);
	}

	/**
	 * Integer columns as integers.
	 *
	 * @param object $row Database row.
	 */
	private static function typed( object $row ): object {
		$row->id              = (int) $row->id;
		$row->attempts        = (int) $row->attempts;
		$row->duplicate_count = (int) ( $row->duplicate_count ?? 0 );
		return $row;
	}
}

<?php
/**
 * The inbound events table: each verified webhook stored once, with its processing state.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Inbound;

use ServiceIntegration\Support\Clock;
use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Support\Mysql_Time;
use ServiceIntegration\Support\Options;
use WP_Error;

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
 * runs that overlap never run the same event's handlers at the same time
 * (Inbound_Rules::due_condition()).
 *
 * One instance, built in Plugin with WordPress's connection, the system clock and WordPress's
 * options (the schema version); a failed
 * query comes back as a WP_Error (Database_Error), never as an empty result.
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

	/** The table's name after the site's prefix. */
	const TABLE = 'si_inbound_events';

	/** The longest error kept on a row. */
	const ERROR_LENGTH = 2000;

	/**
	 * Constructor.
	 *
	 * @param \wpdb   $db      The database.
	 * @param Clock   $clock   Time of receipt, due times and claims.
	 * @param Options $options The schema version.
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
	 * Creates or upgrades the table (dbDelta: idempotent; adds the columns a newer
	 * DB_VERSION brings to an existing table).
	 */
	public function install(): void {
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$charset = $this->db->get_charset_collate();
		$table   = $this->table();
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
		$this->options->update( self::DB_VERSION_OPTION, self::DB_VERSION, true );
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
	 * @return int|WP_Error Row id when stored, 0 when it was a duplicate (counted on the stored row).
	 */
	public function insert_once( string $source, string $event_id, string $type, string $payload, string $data_pointer, ?string $delivery_id = null ) {
		$table = $this->table();
		$now   = $this->now();
		// INSERT IGNORE: one atomic statement; a concurrent duplicate affects 0 rows.
		$written = $this->db->query(
			$this->db->prepare(
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
		$fault   = Database_Error::of( $this->db, $written, 'inbound events: store an event' );
		if ( $fault ) {
			return $fault;
		}
		if ( 1 === (int) $written ) {
			return (int) $this->db->insert_id;
		}
		return $this->count_duplicate( $source, $event_id, $now );
	}

	/**
	 * Counts a redelivery on the stored row: one atomic UPDATE, so concurrent duplicates
	 * are all counted. No row to count on means the insert was ignored for another
	 * reason (IGNORE turns some errors into warnings): not a duplicate, so an error.
	 *
	 * @param string $source   Source slug.
	 * @param string $event_id Event id as given to insert_once.
	 * @param string $now      UTC datetime.
	 * @return int|WP_Error 0 (a duplicate, counted).
	 */
	private function count_duplicate( string $source, string $event_id, string $now ) {
		$table   = $this->table();
		$counted = $this->db->query(
			$this->db->prepare(
				"UPDATE {$table} SET duplicate_count = duplicate_count + 1, last_duplicate_at = %s WHERE source = %s AND event_id = %s",
				$now,
				$source,
				self::storable_event_id( $event_id )
			)
		);
		$fault   = Database_Error::of( $this->db, $counted, 'inbound events: count a duplicate' );
		if ( $fault ) {
			return $fault;
		}
		return 1 === (int) $counted ? 0 : Database_Error::failed( 'inbound events: store ' . $source . ' event ' . $event_id, 'the insert was ignored and no stored event has this id' );
	}

	/**
	 * One event with its payload.
	 *
	 * @param int $id Row id.
	 * @return object|null|WP_Error Null when there is no such event.
	 */
	public function get( int $id ) {
		$table = $this->table();
		$row   = $this->db->get_row( $this->db->prepare( "SELECT * FROM {$table} WHERE id = %d", $id ) );
		return Database_Error::of( $this->db, $row, 'inbound events: read event ' . $id ) ?? ( $row ? self::typed( $row ) : null );
	}

	/**
	 * A page of events, newest first, without payloads.
	 *
	 * @param array{source?:string, status?:string, event_id?:string, duplicate?:bool} $filter   Filters (duplicate: only events delivered more than once).
	 * @param int                                                                      $page     1-based page.
	 * @param int                                                                      $per_page Rows a page.
	 * @return array{items: object[], total: int}|WP_Error
	 */
	public function page( array $filter, int $page, int $per_page ) {
		list( $where_sql, $values ) = self::page_where( $filter );
		list( $limit, $offset )     = self::page_window( $page, $per_page );

		$table     = $this->table();
		$count_sql = "SELECT COUNT(*) FROM {$table} WHERE {$where_sql}";
		$page_sql  = 'SELECT ' . self::SUMMARY_COLUMNS . " FROM {$table} WHERE {$where_sql} ORDER BY id DESC LIMIT %d OFFSET %d";
		$total     = $this->db->get_var( $values ? $this->db->prepare( $count_sql, $values ) : $count_sql );
		$fault     = Database_Error::of( $this->db, $total, 'inbound events: count a page' );
		if ( $fault ) {
			return $fault;
		}
		$rows  = $this->db->get_results( $this->db->prepare( $page_sql, array_merge( $values, array( $limit, $offset ) ) ) );
		$fault = Database_Error::of( $this->db, $rows, 'inbound events: read a page' );
		if ( $fault ) {
			return $fault;
		}
		return array(
			'items' => array_map( array( self::class, 'typed' ), (array) $rows ),
			'total' => (int) $total,
		);
	}

	/**
	 * A page's LIMIT and OFFSET: page 1 starts at 0; pages and sizes under 1 count as 1.
	 *
	 * @param int $page     1-based page.
	 * @param int $per_page Rows a page.
	 * @return array{0: int, 1: int} LIMIT, OFFSET.
	 */
	public static function page_window( int $page, int $per_page ): array {
		$per_page = max( 1, $per_page );
		return array( $per_page, ( max( 1, $page ) - 1 ) * $per_page );
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
	 * Ids of events due for processing (Inbound_Rules::due_condition()), oldest due first.
	 *
	 * @param int $limit Maximum rows.
	 * @return int[]|WP_Error
	 */
	public function due_ids( int $limit ) {
		$table                      = $this->table();
		list( $condition, $values ) = Inbound_Rules::due_condition( $this->now() );
		$ids                        = $this->db->get_col( $this->db->prepare( "SELECT id FROM {$table} WHERE {$condition} ORDER BY next_attempt_at ASC, id ASC LIMIT %d", array_merge( $values, array( max( 1, $limit ) ) ) ) );
		return Database_Error::of( $this->db, $ids, 'inbound events: list the due events' ) ?? array_map( 'intval', (array) $ids );
	}

	/**
	 * When the next event becomes due (a claimed one: when its claim expires), or null.
	 *
	 * @return int|null|WP_Error
	 */
	public function next_due_time() {
		$table = $this->table();
		$next  = $this->db->get_var(
			$this->db->prepare(
				"SELECT MIN(CASE WHEN locked_until IS NOT NULL AND locked_until > next_attempt_at THEN locked_until ELSE next_attempt_at END) FROM {$table} WHERE status IN (%s, %s) AND next_attempt_at IS NOT NULL",
				Inbound_Rules::WAITING[0],
				Inbound_Rules::WAITING[1]
			)
		);
		return Database_Error::of( $this->db, $next, 'inbound events: read the next due time' ) ?? Mysql_Time::unix( $next );
	}

	/**
	 * Claims a due event for one attempt: atomic, so of two overlapping runs only one
	 * gets it. Counts the attempt now, so a run that dies mid-handler still counts.
	 *
	 * @param int $id            Row id.
	 * @param int $lease_seconds How long the claim holds if the process dies.
	 * @return bool|WP_Error Whether this run has it (false: another run has it, or it is no longer due).
	 */
	public function claim( int $id, int $lease_seconds ) {
		$table                      = $this->table();
		$now                        = $this->clock->now();
		list( $condition, $values ) = Inbound_Rules::due_condition( Mysql_Time::of( $now ) );
		$done                       = $this->db->query(
			$this->db->prepare(
				"UPDATE {$table} SET locked_until = %s, attempts = attempts + 1 WHERE id = %d AND {$condition}",
				array_merge( array( Mysql_Time::of( Inbound_Rules::lease_until( $now, $lease_seconds ) ), $id ), $values )
			)
		);
		return Database_Error::of( $this->db, $done, 'inbound events: claim event ' . $id ) ?? 1 === (int) $done;
	}

	/**
	 * Records a successful attempt.
	 *
	 * @param int $id Row id.
	 * @return true|WP_Error
	 */
	public function mark_processed( int $id ) {
		$done = $this->db->update(
			$this->table(),
			array(
				'status'          => self::STATUS_PROCESSED,
				'processed_at'    => $this->now(),
				'next_attempt_at' => null,
				'locked_until'    => null,
			),
			array( 'id' => $id ),
			'%s', // wpdb writes NULL for null values whatever the format.
			array( '%d' )
		);
		return Database_Error::of( $this->db, $done, 'inbound events: mark event ' . $id . ' processed' ) ?? true;
	}

	/**
	 * Records a failed attempt, and when to try again (null: never, it gave up).
	 *
	 * @param int      $id       Row id.
	 * @param string   $error    What went wrong.
	 * @param int|null $retry_at Unix time of the next attempt, or null.
	 * @return true|WP_Error
	 */
	public function mark_failed( int $id, string $error, ?int $retry_at ) {
		$done = $this->db->update(
			$this->table(),
			array(
				'status'          => self::STATUS_FAILED,
				'last_error'      => substr( $error, 0, self::ERROR_LENGTH ),
				'next_attempt_at' => null === $retry_at ? null : Mysql_Time::of( $retry_at ),
				'locked_until'    => null,
			),
			array( 'id' => $id ),
			'%s',
			array( '%d' )
		);
		return Database_Error::of( $this->db, $done, 'inbound events: mark event ' . $id . ' failed' ) ?? true;
	}

	/**
	 * Puts an event back in the queue for a fresh round of attempts (an administrator's retry).
	 *
	 * @param int $id Row id.
	 * @return bool|WP_Error Whether it was requeued (false: it is not a failed event).
	 */
	public function requeue( int $id ) {
		$table = $this->table();
		$done  = $this->db->query(
			$this->db->prepare(
				"UPDATE {$table} SET status = %s, attempts = 0, next_attempt_at = %s, locked_until = NULL WHERE id = %d AND status = %s",
				self::STATUS_FAILED,
				$this->now(),
				$id,
				self::STATUS_FAILED
			)
		);
		return Database_Error::of( $this->db, $done, 'inbound events: requeue event ' . $id ) ?? 1 === (int) $done;
	}

	/**
	 * Counts per status, for the admin page.
	 *
	 * @return array<string, int>|WP_Error
	 */
	public function counts() {
		$table = $this->table();
		$rows  = $this->db->get_results( "SELECT status, COUNT(*) AS n FROM {$table} GROUP BY status" );
		$fault = Database_Error::of( $this->db, $rows, 'inbound events: count by status' );
		if ( $fault ) {
			return $fault;
		}
		$counts = array_fill_keys( self::STATUSES, 0 );
		foreach ( (array) $rows as $row ) {
			$counts[ $row->status ] = (int) $row->n;
		}
		return $counts;
	}

	/**
	 * Redeliveries counted on stored events: how many, on how many events.
	 *
	 * @return array{deliveries: int, events: int}|WP_Error
	 */
	public function duplicate_totals() {
		$table = $this->table();
		$row   = $this->db->get_row( "SELECT COALESCE(SUM(duplicate_count), 0) AS deliveries, COUNT(CASE WHEN duplicate_count > 0 THEN 1 END) AS events FROM {$table}" );
		return Database_Error::of( $this->db, $row, 'inbound events: count duplicates' ) ?? array(
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

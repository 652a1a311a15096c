<?php
/**
 * The plugin's own index of paid orders: each paid order's sort keys and its snapshot.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One row per order in a paid status, in a table of the plugin's own: its paid moment
 * (Paid_Moment), creation and last modification seconds, and its snapshot (Paid_Order_Snapshot)
 * as JSON, the fields the paid-orders endpoint serves.
 *
 * WooCommerce cannot sort orders by payment date on either storage, and neither its date_paid
 * (HPOS: wc_order_operational_data.date_paid_gmt; legacy: the _date_paid meta) nor the recorded
 * paid moment (order meta) has an index, so the incremental sync order (paid moment, id) is read
 * here, with an index on exactly that. And a
 * page served from here costs two queries on this table, where loading its orders through
 * WooCommerce costs about as much as the rest of the request (see bench/README.md): the same
 * shape as WooCommerce's own wc_order_stats, a table its analytics keep from the order hooks.
 *
 * Rows are written by Paid_Order_Index_Hooks from WooCommerce's save, trash and delete hooks,
 * each from the order as WooCommerce then loads it, filled for existing orders by
 * Paid_Order_Index_Walk, and checked daily by the same walk, which rewrites every paid order's
 * row and removes the rows it did not meet. Nothing here reads WooCommerce's tables.
 *
 * Works on MySQL/MariaDB and on SQLite (the SQLite Database Integration): plain comparisons,
 * no row values, REPLACE for the upsert.
 */
final class Paid_Order_Index {

	const DB_VERSION        = '3';
	const DB_VERSION_OPTION = 'service_integration_paid_index_db';

	/**
	 * State of the index: {ready: bool, walk: int|null (the walk's next offset while one runs,
	 * Paid_Order_Index_Walk::SWEEPING once it sweeps), generation: int (counts the walks; each
	 * row records the one it was written during), walked_at: int (when the last walk finished),
	 * statuses: string[] (the paid statuses the last walk indexed), source: array (the
	 * Order_Source::current() it read them from)}. Read only by the paid-orders route and the
	 * walk, so stored with autoload off.
	 */
	const STATE_OPTION = 'service_integration_paid_index_state';

	/**
	 * Table name.
	 */
	public static function table(): string {
		global $wpdb;
		return $wpdb->prefix . 'si_paid_orders';
	}

	/**
	 * Creates or updates the table. A new table (or a new layout) is not ready until the walk
	 * has filled it from the orders that exist, unless there are none.
	 *
	 * @param bool $rebuild Whether to walk the orders again even if the layout did not change
	 *                      (activation: orders may have been paid while the plugin was off).
	 */
	public static function install( bool $rebuild ): void {
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$changed = get_option( self::DB_VERSION_OPTION ) !== self::DB_VERSION;
		$table   = self::table();
		if ( $changed ) {
			// The rows of another layout lack what this one stores; the walk writes them all
			// again anyway. And SQLite cannot add a NOT NULL column to a table that has rows.
			$wpdb->query( "DROP TABLE IF EXISTS {$table}" ); // The plugin's own table.
		}
		dbDelta(
			"CREATE TABLE {$table} (
				order_id bigint(20) unsigned NOT NULL,
				paid_at bigint(20) NOT NULL,
				created_at bigint(20) NOT NULL,
				modified_at bigint(20) NOT NULL,
				generation bigint(20) NOT NULL,
				snapshot longtext NOT NULL,
				PRIMARY KEY  (order_id),
				KEY sync (paid_at, order_id),
				KEY created (created_at, order_id),
				KEY modified (modified_at, order_id),
				KEY generation (generation)
			) {$wpdb->get_charset_collate()};"
		);
		// Autoloaded: the version checks run on every request (Lifecycle::AUTOLOADED_OPTIONS).
		update_option( self::DB_VERSION_OPTION, self::DB_VERSION, true );
		if ( $changed || $rebuild ) {
			Paid_Order_Index_Walk::start( self::nothing_to_walk() );
		}
	}

	/**
	 * Whether WooCommerce is there and has no paid order, so an empty index is complete.
	 * Without WooCommerce it cannot be told (its orders stay in the database), so no.
	 */
	public static function nothing_to_walk(): bool {
		try {
			return Paid_Orders::is_available() && ! Paid_Orders::any_paid();
		} catch ( Order_Query_Error $e ) {
			return false;
		}
	}

	/**
	 * The stored state, with defaults.
	 *
	 * @return array{ready: bool, walk: int|null, generation: int, walked_at: int, statuses: string[], source: array<string, string>}
	 */
	public static function state(): array {
		$state = get_option( self::STATE_OPTION );
		$state = is_array( $state ) ? $state : array();
		return array(
			'ready'      => ! empty( $state['ready'] ),
			'walk'       => isset( $state['walk'] ) ? (int) $state['walk'] : null,
			'generation' => (int) ( $state['generation'] ?? 0 ),
			'walked_at'  => (int) ( $state['walked_at'] ?? 0 ),
			'statuses'   => array_values( array_map( 'strval', (array) ( $state['statuses'] ?? array() ) ) ),
			'source'     => array_map( 'strval', (array) ( $state['source'] ?? array() ) ),
		);
	}

	/**
	 * Saves the state.
	 *
	 * @param array{ready: bool, walk: int|null, generation: int, walked_at: int, statuses: string[], source: array<string, string>} $state State.
	 */
	public static function save_state( array $state ): void {
		update_option( self::STATE_OPTION, $state, false );
	}

	/**
	 * Whether the table holds every paid order: a walk has finished since it was created, for
	 * the statuses WooCommerce counts as paid now, from the orders the site reads now. When a
	 * site changes those statuses (the filter woocommerce_order_is_paid_statuses), the orders of
	 * a status just added have no row yet; when it changes its order storage (Order_Source), the
	 * rows are another store's orders. Either way a new walk starts, and the index does not serve
	 * until it has finished (its sweep removes the rows of orders the store does not have).
	 */
	public static function is_ready(): bool {
		$state = self::state();
		if ( ! $state['ready'] ) {
			return false;
		}
		if ( Paid_Orders::paid_statuses() === $state['statuses'] && Order_Source::current() === $state['source'] ) {
			return true;
		}
		Paid_Order_Index_Walk::start( false );
		return false;
	}

	/**
	 * Adds or updates an order's row.
	 *
	 * @param int                  $order_id    Order id.
	 * @param int                  $paid_at     Paid moment (UTC timestamp; 0 for none).
	 * @param int                  $created_at  Creation time (UTC timestamp).
	 * @param int                  $modified_at Last modification (UTC timestamp).
	 * @param array<string, mixed> $snapshot    Paid_Order_Snapshot::of() the order.
	 * @throws Order_Query_Error When the database refuses the write.
	 */
	public static function put( int $order_id, int $paid_at, int $created_at, int $modified_at, array $snapshot ): void {
		global $wpdb;
		$wpdb->last_error = '';
		// REPLACE: one statement MySQL and SQLite both know; every column is written.
		$written = $wpdb->replace(
			self::table(),
			array(
				'order_id'    => $order_id,
				'paid_at'     => $paid_at,
				'created_at'  => $created_at,
				'modified_at' => $modified_at,
				'generation'  => self::state()['generation'],
				'snapshot'    => (string) wp_json_encode( $snapshot, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ),
			),
			array( '%d', '%d', '%d', '%d', '%d', '%s' )
		);
		self::check( false === $written );
	}

	/**
	 * Removes an order's row, if any.
	 *
	 * @param int $order_id Order id.
	 * @throws Order_Query_Error When the database refuses the write.
	 */
	public static function remove( int $order_id ): void {
		global $wpdb;
		$wpdb->last_error = '';
		$deleted          = $wpdb->delete( self::table(), array( 'order_id' => $order_id ), array( '%d' ) );
		self::check( false === $deleted );
	}

	/**
	 * Snapshots of the orders in the set, in its order, from rank $offset, at most $limit.
	 *
	 * @param Paid_Order_Range|Paid_Order_Listing $set    The set (its where() and order_by()).
	 * @param int                                 $offset Rank of the first row.
	 * @param int                                 $limit  Rows.
	 * @return array<int, array<string, mixed>>
	 * @throws Order_Query_Error On a database error, or a row that is not a snapshot.
	 */
	public function snapshots( $set, int $offset, int $limit ): array {
		global $wpdb;
		$wpdb->last_error = '';
		$table            = self::table();
		// The table name and the set's own SQL (integers and fixed column names only).
		$found = $wpdb->get_col( $wpdb->prepare( "SELECT snapshot FROM {$table} WHERE {$set->where()} ORDER BY {$set->order_by()} LIMIT %d, %d", $offset, $limit ) );
		self::check( ! is_array( $found ) );
		$snapshots = array();
		foreach ( $found as $json ) {
			$snapshot = json_decode( (string) $json, true );
			if ( ! is_array( $snapshot ) || ! isset( $snapshot['id'] ) ) {
				throw new Order_Query_Error( 'a row of the paid-orders index holds no snapshot' );
			}
			$snapshots[] = $snapshot;
		}
		return $snapshots;
	}

	/**
	 * How many rows the set has.
	 *
	 * @param Paid_Order_Range|Paid_Order_Listing $set The set.
	 * @throws Order_Query_Error On a database error.
	 */
	public function count( $set ): int {
		global $wpdb;
		$wpdb->last_error = '';
		$table            = self::table();
		// The table name and the set's own SQL.
		$count = $wpdb->get_var( "SELECT COUNT(*) FROM {$table} WHERE {$set->where()}" );
		self::check( null === $count );
		return (int) $count;
	}

	/**
	 * How many paid orders the table holds (0 when it cannot be read).
	 */
	public static function row_count(): int {
		global $wpdb;
		$table = self::table();
		return (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$table}" );
	}

	/**
	 * Ids of rows last written before the walk $generation began (a walk's leftovers), lowest
	 * first.
	 *
	 * @param int $generation The walk's generation.
	 * @param int $limit      At most this many.
	 * @return int[]
	 * @throws Order_Query_Error On a database error.
	 */
	public static function written_before( int $generation, int $limit ): array {
		global $wpdb;
		$wpdb->last_error = '';
		$table            = self::table();
		$ids              = $wpdb->get_col( $wpdb->prepare( "SELECT order_id FROM {$table} WHERE generation < %d ORDER BY order_id ASC LIMIT %d", $generation, $limit ) ); // The table name.
		self::check( ! is_array( $ids ) );
		return array_map( 'intval', $ids );
	}

	/**
	 * Removes the rows last written before the walk $generation began, all at once: what the
	 * sweep does when the store has no paid order left to load.
	 *
	 * @param int $generation The walk's generation.
	 * @throws Order_Query_Error On a database error.
	 */
	public static function remove_written_before( int $generation ): void {
		global $wpdb;
		$wpdb->last_error = '';
		$table            = self::table();
		$deleted          = $wpdb->query( $wpdb->prepare( "DELETE FROM {$table} WHERE generation < %d", $generation ) ); // The table name.
		self::check( false === $deleted );
	}

	/**
	 * Throws when the last query failed: a missing table or a refused query is never an
	 * empty result.
	 *
	 * @param bool $failed Whether the caller saw a failure in the return value.
	 * @throws Order_Query_Error On a database error.
	 */
	private static function check( bool $failed ): void {
		global $wpdb;
		if ( $failed || '' !== (string) $wpdb->last_error ) {
			throw new Order_Query_Error( '' !== (string) $wpdb->last_error ? (string) $wpdb->last_error : 'the paid-orders index query failed' );
		}
	}
}

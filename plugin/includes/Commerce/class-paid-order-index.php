<?php
/**
 * The plugin's own index of paid orders: (order id, payment second, last modification second).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One row per order in a paid status with a payment date, in a table of the plugin's own.
 *
 * WooCommerce cannot sort orders by payment date on either storage, and its date_paid column
 * (HPOS: wc_order_operational_data.date_paid_gmt; legacy: the _date_paid meta) has no index, so
 * the incremental sync order (date_paid, id) is read here instead, with an index on exactly that.
 * Rows are written by Paid_Order_Index_Hooks from WooCommerce's save, trash and delete hooks,
 * filled for existing orders by Paid_Order_Index_Walk, and checked against WooCommerce on every
 * read (Paid_Orders::by_date_paid()): the orders themselves are always loaded through
 * wc_get_orders(), never from this table. Nothing here reads WooCommerce's tables.
 *
 * Works on MySQL/MariaDB and on SQLite (the SQLite Database Integration): plain comparisons,
 * no row values, REPLACE for the upsert.
 */
final class Paid_Order_Index {

	const DB_VERSION        = '1';
	const DB_VERSION_OPTION = 'service_integration_paid_index_db';

	/**
	 * State of the index: {ready: bool, walk: int|null (the walk's next offset while one runs),
	 * walked_at: int (when the last walk finished)}. Read only by the paid-orders route and the
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
		dbDelta(
			"CREATE TABLE {$table} (
				order_id bigint(20) unsigned NOT NULL,
				paid_at bigint(20) NOT NULL,
				modified_at bigint(20) NOT NULL DEFAULT 0,
				PRIMARY KEY  (order_id),
				KEY sync (paid_at, order_id)
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
	 * @return array{ready: bool, walk: int|null, walked_at: int}
	 */
	public static function state(): array {
		$state = get_option( self::STATE_OPTION );
		$state = is_array( $state ) ? $state : array();
		return array(
			'ready'     => ! empty( $state['ready'] ),
			'walk'      => isset( $state['walk'] ) ? (int) $state['walk'] : null,
			'walked_at' => (int) ( $state['walked_at'] ?? 0 ),
		);
	}

	/**
	 * Saves the state.
	 *
	 * @param array{ready: bool, walk: int|null, walked_at: int} $state State.
	 */
	public static function save_state( array $state ): void {
		update_option( self::STATE_OPTION, $state, false );
	}

	/**
	 * Whether every paid order is in the table (the walk has finished since it was created).
	 */
	public static function is_ready(): bool {
		return self::state()['ready'];
	}

	/**
	 * Adds or updates an order's row.
	 *
	 * @param int $order_id    Order id.
	 * @param int $paid_at     Payment time (UTC timestamp).
	 * @param int $modified_at Last modification (UTC timestamp).
	 * @throws Order_Query_Error When the database refuses the write.
	 */
	public static function put( int $order_id, int $paid_at, int $modified_at ): void {
		global $wpdb;
		$wpdb->last_error = '';
		// REPLACE: one statement MySQL and SQLite both know; the row has no other columns to keep.
		$written = $wpdb->replace(
			self::table(),
			array(
				'order_id'    => $order_id,
				'paid_at'     => $paid_at,
				'modified_at' => $modified_at,
			),
			array( '%d', '%d', '%d' )
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
	 * Rows in the sync order (paid_at ASC, order_id ASC), strictly after the cursor
	 * (after_ts, after_id), paid before $before_ts, from rank $offset, at most $limit.
	 *
	 * @param Paid_Order_Range $range  The set.
	 * @param int              $offset Rank of the first row.
	 * @param int              $limit  Rows.
	 * @return array<int, int> Payment time by order id, in the sync order.
	 * @throws Order_Query_Error On a database error.
	 */
	public function rows( Paid_Order_Range $range, int $offset, int $limit ): array {
		global $wpdb;
		$wpdb->last_error = '';
		$table            = self::table();
		// The table name and the range's own prepared SQL.
		$found = $wpdb->get_results( $wpdb->prepare( "SELECT order_id, paid_at FROM {$table} WHERE {$range->where()} ORDER BY paid_at ASC, order_id ASC LIMIT %d, %d", $offset, $limit ), ARRAY_A );
		self::check( ! is_array( $found ) );
		$rows = array();
		foreach ( $found as $row ) {
			$rows[ (int) $row['order_id'] ] = (int) $row['paid_at'];
		}
		return $rows;
	}

	/**
	 * How many rows the set has.
	 *
	 * @param Paid_Order_Range $range The set.
	 * @throws Order_Query_Error On a database error.
	 */
	public function count( Paid_Order_Range $range ): int {
		global $wpdb;
		$wpdb->last_error = '';
		$table            = self::table();
		// The table name and the range's own prepared SQL.
		$count = $wpdb->get_var( "SELECT COUNT(*) FROM {$table} WHERE {$range->where()}" );
		self::check( null === $count );
		return (int) $count;
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

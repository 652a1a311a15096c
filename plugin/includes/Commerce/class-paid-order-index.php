<?php
/**
 * The plugin's own index of paid orders: each paid order's sort keys and its snapshot.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

use ServiceIntegration\Support\Clock;
use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Support\Options;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One row per order in a paid status, in a table of the plugin's own: its paid moment
 * (Paid_Moment), creation and last modification seconds, and its snapshot (Paid_Order_Snapshot)
 * as JSON, the fields the paid-orders endpoint serves (Paid_Order_Index_Row).
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
 * Built once by Plugin over WordPress's database, the system clock and the site's options, and
 * handed to every class that reads or writes it. A failed query comes back as a WP_Error
 * (Database_Error), never as an empty result.
 *
 * Works on MySQL/MariaDB and on SQLite (the SQLite Database Integration): plain comparisons,
 * no row values, REPLACE for the upsert.
 */
final class Paid_Order_Index {

	/** The table's name after the site's prefix. */
	const TABLE = 'si_paid_orders';

	const DB_VERSION        = '3';
	const DB_VERSION_OPTION = 'service_integration_paid_index_db';

	/**
	 * State of the index (Paid_Order_Index_State): {ready: bool, walk: int|null (the walk's next
	 * offset while one runs, Paid_Order_Index_Walk::SWEEPING once it sweeps), generation: int
	 * (counts the walks; each row records the one it was written during), walked_at: int (when
	 * the last walk finished), started_at: float (when the last walk started), statuses: string[] (the paid statuses the last walk indexed),
	 * source: array (the Paid_Orders::order_source() it read them from)}. Read only by the
	 * paid-orders route and the walk, so stored with autoload off.
	 */
	const STATE_OPTION = 'service_integration_paid_index_state';

	/**
	 * The table column of each plain sort key.
	 */
	const SORT_COLUMNS = array(
		'date'     => 'created_at',
		'id'       => 'order_id',
		'modified' => 'modified_at',
	);

	/**
	 * The index over a database connection, a clock and the site's options.
	 *
	 * @param \wpdb   $db      The database.
	 * @param Clock   $clock   The time a finished walk records.
	 * @param Options $options Where the layout version and the state are kept.
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
	 * Creates or updates the table. A new table (or a new layout) is not ready until a walk
	 * has filled it from the orders that exist (Paid_Order_Index_Walk::install() starts it).
	 *
	 * @param bool $rebuild Whether to walk the orders again even if the layout did not change
	 *                      (activation: orders may have been paid while the plugin was off).
	 * @return bool Whether a walk must start: the layout changed, or $rebuild.
	 */
	public function install( bool $rebuild ): bool {
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$changed = $this->options->get( self::DB_VERSION_OPTION ) !== self::DB_VERSION;
		$table   = $this->table();
		if ( $changed ) {
			// The rows of another layout lack what this one stores; the walk writes them all
			// again anyway. And SQLite cannot add a NOT NULL column to a table that has rows.
			$this->db->query( "DROP TABLE IF EXISTS {$table}" ); // The plugin's own table.
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
			) {$this->db->get_charset_collate()};"
		);
		// Autoloaded: the version checks run on every request (Lifecycle::AUTOLOADED_OPTIONS).
		$this->options->update( self::DB_VERSION_OPTION, self::DB_VERSION, true );
		return $changed || $rebuild;
	}

	/**
	 * The stored state, with defaults.
	 *
	 * @return array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>}
	 */
	public function state(): array {
		return Paid_Order_Index_State::of( $this->options->get( self::STATE_OPTION ) );
	}

	/**
	 * Saves the state, whatever it was: a walk (re)started wins over the progress of one that
	 * is running, whose next step then fails to advance() and reads the new state.
	 *
	 * @param array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} $state State.
	 */
	private function save_state( array $state ): void {
		$this->options->update( self::STATE_OPTION, $state, false );
	}

	/**
	 * Moves the state from $read to $next, unless it changed since $read was read: a walk's
	 * steps take seconds, during which a request may start a new walk (other statuses, a
	 * failed write) or another runner of the same walk may have moved on or finished it.
	 * Saving anyway would undo that; instead the step is dropped and the walk reads the state
	 * again.
	 *
	 * @param array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} $read The state the step started from (state()).
	 * @param array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} $next The state after it.
	 * @return bool Whether it was saved.
	 */
	public function advance( array $read, array $next ): bool {
		return $this->options->compare_and_set(
			self::STATE_OPTION,
			static fn( $stored ): bool => Paid_Order_Index_State::of( $stored ) === $read,
			$next
		);
	}

	/**
	 * Whether the table holds every paid order: a walk has finished since it was created, for
	 * the statuses WooCommerce counts as paid now, from the orders the site reads now. When a
	 * site changes those statuses (the filter woocommerce_order_is_paid_statuses), the orders of
	 * a status just added have no row yet; when it changes its order storage (Paid_Orders::order_source()), the
	 * rows are another store's orders. Either way the index does not serve until a walk for
	 * today's has finished (Paid_Order_Index_Walk starts it where the change is made: see
	 * reconcile()). Without WooCommerce there are no paid statuses to compare with, and nothing
	 * is served. Reads the state only.
	 *
	 * @param string[]              $statuses WooCommerce's paid statuses now (Paid_Orders::paid_statuses(); none without WooCommerce).
	 * @param array<string, string> $source   Where the orders are read from now (Paid_Orders::order_source()).
	 */
	public function is_ready( array $statuses, array $source ): bool {
		return $statuses && Paid_Order_Index_State::serves( $this->state(), $statuses, $source );
	}

	/**
	 * Records a walk from the first order (Paid_Order_Index_Walk::start() queues it).
	 *
	 * @param bool                  $ready    Whether the index serves meanwhile (it holds every
	 *                                        paid order already, or there are none).
	 * @param string[]              $statuses The paid statuses the walk indexes (none while WooCommerce is not loaded).
	 * @param array<string, string> $source   The order source it reads them from.
	 * @return array{ready: bool, walk: int, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} The state saved.
	 */
	public function start_walk( bool $ready, array $statuses, array $source ): array {
		// To the microsecond, not the clock's seconds: compared with when requests began
		// (Paid_Order_Index_State::replaceable_by()), a request a moment before it and one a moment after.
		$state = Paid_Order_Index_State::started( $this->state(), $ready, $statuses, $source, microtime( true ) );
		$this->save_state( $state );
		return $state;
	}

	/**
	 * Ends the walk that was in state $read: the index holds every paid order.
	 *
	 * @param array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} $read The state the walk's last step read.
	 * @return bool Whether it ended (false: the state changed meanwhile, see advance()).
	 */
	public function finish_walk( array $read ): bool {
		return $this->advance( $read, Paid_Order_Index_State::finished( $read, $this->clock->now() ) );
	}

	/**
	 * Ends the walk at once when the store has no paid order: the rows written before it began
	 * are orders the store does not have (or no longer counts as paid), so they go, as the sweep
	 * would remove them one by one; rows the hooks wrote since it began stay.
	 *
	 * @return bool|WP_Error Whether it ended (false: another walk started meanwhile); the error
	 *                       when the rows could not be removed (the walk goes on).
	 */
	public function finish_empty() {
		$state = $this->state();
		$fault = $this->remove_written_before( $state['generation'] );
		return $fault ?? $this->finish_walk( $state );
	}

	/**
	 * Adds or updates an order's row, written during the current walk's generation.
	 *
	 * @param int                  $order_id    Order id.
	 * @param int                  $paid_at     Paid moment (UTC timestamp; 0 for none).
	 * @param int                  $created_at  Creation time (UTC timestamp).
	 * @param int                  $modified_at Last modification (UTC timestamp).
	 * @param array<string, mixed> $snapshot    Paid_Order_Snapshot::of() the order.
	 * @return WP_Error|null The error when the database refuses the write.
	 */
	public function put( int $order_id, int $paid_at, int $created_at, int $modified_at, array $snapshot ): ?WP_Error {
		$this->db->last_error = '';
		// REPLACE: one statement MySQL and SQLite both know; every column is written.
		$written = $this->db->replace(
			$this->table(),
			Paid_Order_Index_Row::of( $order_id, $paid_at, $created_at, $modified_at, $this->state()['generation'], $snapshot ),
			Paid_Order_Index_Row::FORMATS
		);
		return Database_Error::of( $this->db, $written, 'paid-orders index: write order ' . $order_id );
	}

	/**
	 * Removes an order's row, if any.
	 *
	 * @param int $order_id Order id.
	 * @return WP_Error|null The error when the database refuses the write.
	 */
	public function remove( int $order_id ): ?WP_Error {
		$this->db->last_error = '';
		$deleted              = $this->db->delete( $this->table(), array( 'order_id' => $order_id ), array( '%d' ) );
		return Database_Error::of( $this->db, $deleted, 'paid-orders index: remove order ' . $order_id );
	}

	/**
	 * A page of the query's orders and its total: its ids, then their snapshots, then the count.
	 * Without the count (with_total false: a client that does not want X-WP-Total), one more id
	 * is read instead, to tell whether orders follow the page: what a request costs then does
	 * not depend on how many orders come after it.
	 *
	 * @param Paid_Order_Query $query The page.
	 * @return array{orders: array<int, array<string, mixed>>, total: int|null, more: bool}|WP_Error The database error.
	 */
	public function page( Paid_Order_Query $query ) {
		$limit  = $query->per_page;
		$orders = $this->snapshots( $query, $query->offset(), $query->with_total ? $limit : $limit + 1 );
		if ( is_wp_error( $orders ) ) {
			return $orders;
		}
		if ( ! $query->with_total ) {
			return array(
				'orders' => array_slice( $orders, 0, $limit ),
				'total'  => null,
				'more'   => count( $orders ) > $limit,
			);
		}
		$total = $this->count( $query );
		if ( is_wp_error( $total ) ) {
			return $total;
		}
		return array(
			'orders' => $orders,
			'total'  => $total,
			'more'   => $total > $query->offset() + count( $orders ),
		);
	}

	/**
	 * Snapshots of the query's orders, in its order, from rank $offset, at most $limit: the
	 * page's ids first, from the key of the query's order alone (it holds the sort columns and
	 * the id: the rows skipped to reach $offset are never read), then those rows' snapshots by
	 * id. Reading the snapshots in the first query would read every skipped row in full: at page
	 * 3,000 of a million-order shop, 300,000 rows for 100.
	 *
	 * @param Paid_Order_Query $query  The orders (where() and order_by()).
	 * @param int              $offset Rank of the first row.
	 * @param int              $limit  Rows.
	 * @return array<int, array<string, mixed>>|WP_Error The error on a database error, or a row that is not a snapshot.
	 */
	public function snapshots( Paid_Order_Query $query, int $offset, int $limit ) {
		$this->db->last_error = '';
		$table                = $this->table();
		// The table name and the query's own SQL (integers and fixed column names only).
		$ids   = $this->db->get_col( $this->db->prepare( "SELECT order_id FROM {$table} WHERE {$this->where( $query )} ORDER BY {$this->order_by( $query )} LIMIT %d, %d", $offset, $limit ) );
		$fault = Database_Error::of( $this->db, is_array( $ids ) ? $ids : false, 'paid-orders index: read a page' );
		if ( $fault ) {
			return $fault;
		}
		if ( ! $ids ) {
			return array();
		}
		$ids   = array_map( 'intval', $ids );
		$rows  = $this->db->get_results( "SELECT order_id, snapshot FROM {$table} WHERE order_id IN (" . implode( ',', $ids ) . ')', ARRAY_A ); // The table name and integers.
		$fault = Database_Error::of( $this->db, is_array( $rows ) ? $rows : false, 'paid-orders index: read a page' );
		if ( $fault ) {
			return $fault;
		}
		$json      = array_column( $rows, 'snapshot', 'order_id' );
		$snapshots = array();
		foreach ( $ids as $id ) {
			if ( ! isset( $json[ $id ] ) ) {
				continue; // Removed between the two reads (the order left the paid statuses).
			}
			$snapshot = Paid_Order_Index_Row::snapshot( $json[ $id ] );
			if ( null === $snapshot ) {
				return Database_Error::failed( 'paid-orders index: read a page', 'a row of the paid-orders index holds no snapshot' );
			}
			$snapshots[] = $snapshot;
		}
		return $snapshots;
	}

	/**
	 * How many rows the query matches.
	 *
	 * @param Paid_Order_Query $query The orders.
	 * @return int|WP_Error The error on a database error.
	 */
	public function count( Paid_Order_Query $query ) {
		$this->db->last_error = '';
		$table                = $this->table();
		// The table name and the query's own SQL.
		$count = $this->db->get_var( "SELECT COUNT(*) FROM {$table} WHERE {$this->where( $query )}" );
		return Database_Error::of( $this->db, null === $count ? false : $count, 'paid-orders index: count a set' ) ?? (int) $count;
	}

	/**
	 * The SQL condition of the query on the table's columns (integers only, no placeholders
	 * left). The sync order: paid after the cursor (paid_at, order_id), before its bound, and
	 * never an order without a paid moment (paid_at 0 sits below FIRST_SECOND); a plain order:
	 * its paid bounds. Both: the modification bounds. All bounds but the sync order's are
	 * inclusive.
	 *
	 * @param Paid_Order_Query $query The orders.
	 */
	public function where( Paid_Order_Query $query ): string {
		if ( $query->is_sync() ) {
			// Not (paid_at, order_id) > (a, b): the SQLite integration does not translate row values.
			$where = sprintf(
				'paid_at >= %d AND paid_at < %d AND ( paid_at > %d OR ( paid_at = %d AND order_id > %d ) )',
				Paid_Orders::FIRST_SECOND,
				$query->paid_before,
				$query->cursor_at,
				$query->cursor_at,
				$query->cursor_id
			);
		} else {
			$where = '1 = 1' . self::between( 'paid_at', $query->paid_from, $query->paid_to );
		}
		return $where . self::between( 'modified_at', $query->modified_from, $query->modified_to );
	}

	/**
	 * The query's order on the table's columns: the sync order's (paid_at, order_id) ascending,
	 * or the plain sort key, the id breaking ties in the same direction.
	 *
	 * @param Paid_Order_Query $query The orders.
	 */
	public function order_by( Paid_Order_Query $query ): string {
		if ( $query->is_sync() ) {
			return 'paid_at ASC, order_id ASC';
		}
		$column    = self::SORT_COLUMNS[ $query->orderby ] ?? self::SORT_COLUMNS['date'];
		$direction = 'asc' === $query->order ? 'ASC' : 'DESC';
		if ( 'order_id' === $column ) {
			return 'order_id ' . $direction;
		}
		return $column . ' ' . $direction . ', order_id ' . $direction;
	}

	/**
	 * " AND column >= from AND column <= to", for the bounds that are set.
	 *
	 * @param string   $column Column.
	 * @param int|null $from   Inclusive lower bound.
	 * @param int|null $to     Inclusive upper bound.
	 */
	private static function between( string $column, ?int $from, ?int $to ): string {
		return ( null !== $from ? sprintf( ' AND %s >= %d', $column, $from ) : '' ) . ( null !== $to ? sprintf( ' AND %s <= %d', $column, $to ) : '' );
	}

	/**
	 * How many paid orders the table holds.
	 *
	 * @return int|WP_Error The error when the table cannot be read.
	 */
	public function row_count() {
		$this->db->last_error = '';
		$table                = $this->table();
		$count                = $this->db->get_var( "SELECT COUNT(*) FROM {$table}" ); // The table name.
		return Database_Error::of( $this->db, null === $count ? false : $count, 'paid-orders index: count the rows' ) ?? (int) $count;
	}

	/**
	 * Ids of rows last written before the walk $generation began (a walk's leftovers), lowest
	 * first.
	 *
	 * @param int $generation The walk's generation.
	 * @param int $limit      At most this many.
	 * @return int[]|WP_Error The error on a database error.
	 */
	public function written_before( int $generation, int $limit ) {
		$this->db->last_error = '';
		$table                = $this->table();
		$ids                  = $this->db->get_col( $this->db->prepare( "SELECT order_id FROM {$table} WHERE generation < %d ORDER BY order_id ASC LIMIT %d", $generation, $limit ) ); // The table name.
		return Database_Error::of( $this->db, is_array( $ids ) ? $ids : false, 'paid-orders index: read the rows a walk left' ) ?? array_map( 'intval', $ids );
	}

	/**
	 * Removes the rows last written before the walk $generation began, all at once: what the
	 * sweep does when the store has no paid order left to load.
	 *
	 * @param int $generation The walk's generation.
	 * @return WP_Error|null The error on a database error.
	 */
	public function remove_written_before( int $generation ): ?WP_Error {
		$this->db->last_error = '';
		$table                = $this->table();
		$deleted              = $this->db->query( $this->db->prepare( "DELETE FROM {$table} WHERE generation < %d", $generation ) ); // The table name.
		return Database_Error::of( $this->db, $deleted, 'paid-orders index: remove the rows a walk left' );
	}
}

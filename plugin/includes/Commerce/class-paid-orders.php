<?php
/**
 * Commerce adapter: paid orders through WooCommerce's public API only.
 *
 * Only wc_get_orders() (with documented arguments: type, status, limit, page, offset,
 * paginate, orderby id|date|modified, order, return, post__in, date_paid /
 * date_modified with timestamps and the >=, <, A...B forms, and the paid moment's meta clause,
 * Paid_Moment_Query), wc_get_is_paid_statuses() and WC_Order getters; an order's product lines
 * come from Line_Items.
 * No SQL, no WP_Query on orders: the same code runs on HPOS and on legacy post storage. Once
 * the plugin's own index holds every paid order (Paid_Order_Index), pages are read from it
 * instead (Paid_Order_Reader decides), and this reader serves the rest.
 *
 * Every query has a finite limit: HPOS turns 'limit' => -1 into
 * 'LIMIT 0, 18446744073709551615' (OrdersTableQuery::build_query(), MYSQL_MAX_UNSIGNED_BIGINT),
 * which the SQLite integration refuses. And every query is checked for database errors, which
 * WooCommerce answers with an empty list: Order_Query_Error is thrown instead (see query()). A
 * failed read is never an empty page.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Queries paid orders and maps one order to the few fields a manufacturing automation needs.
 *
 * Its page() answers a Paid_Order_Query with snapshots (Paid_Order_Snapshot) and a total, in either
 * order:
 * - plain: offset paging by date created, id or last modification, with wc_get_orders() in
 *   that order;
 * - sync: (paid moment ASC, id ASC) after a cursor (paid_after, after_id), up to a bound in the
 *   past. WooCommerce cannot sort by the paid moment (neither storage offers it, nor indexes
 *   it), so it is read from paid-moment range filters (Paid_Moment_Query: two sets, whose
 *   counts add up): counts locate the seconds where a page starts and ends, and only orders
 *   paid within the same second are ordered by id.
 *
 * "Paid at" is the order's paid moment (Paid_Moment): when it first entered a paid status,
 * recorded once; date_paid for orders paid before moments were recorded.
 *
 * The paid-orders index walk (Paid_Order_Index_Walk) loads orders through paid_among() and
 * last_paid_id().
 */
final class Paid_Orders {

	/**
	 * An adapter over WordPress's database connection (the one WooCommerce's queries run on,
	 * watched for their errors).
	 *
	 * @param \wpdb $db The database WooCommerce reads orders from.
	 */
	public function __construct( private \wpdb $db ) {
	}

	const ORDER_TYPE = 'shop_order';

	/**
	 * The earliest second a date_paid range may start at. Both storages read a range's start
	 * with empty(), so a range starting at 0 (the epoch) loses its start: the legacy storage
	 * drops the whole filter (WC_Data_Store_WP::parse_date_for_wp_query), HPOS throws "Invalid
	 * date_query" and answers nothing (OrdersTableQuery::process_date_args).
	 *
	 * And not before 1000000000 (2001-09-09T01:46:40Z): the legacy storage keeps date_paid as
	 * the _date_paid meta and compares it without a numeric type, as text
	 * (WC_Data_Store_WP::parse_date_for_wp_query builds a meta_query with no 'type'), which
	 * orders timestamps correctly only when they have as many digits. From this second to the
	 * year 2286 they all have ten; no WooCommerce order was paid earlier.
	 */
	const FIRST_SECOND = 1000000000;

	/**
	 * The last second with a ten-digit timestamp (2286-11-20T17:46:39Z); see FIRST_SECOND.
	 */
	const LAST_SECOND = 9999999999;

	/**
	 * Counts already made by this instance, by range.
	 *
	 * @var array<string, int>
	 */
	private $counts = array();

	/**
	 * Page size when reading every order of a set whose size is not known in advance.
	 */
	const BATCH = 100;

	/**
	 * Ids paid within one second, already read by this instance, by second.
	 *
	 * @var array<string, int[]>
	 */
	private $seconds = array();

	/**
	 * Whether the commerce API this adapter needs is loaded (WooCommerce active).
	 */
	public static function is_available(): bool {
		return function_exists( 'wc_get_orders' ) && function_exists( 'wc_get_is_paid_statuses' ) && class_exists( 'WC_Order' );
	}

	/**
	 * Statuses WooCommerce counts as paid (filter woocommerce_order_is_paid_statuses), without wc-,
	 * sorted (the index records the set it was walked for and compares it).
	 *
	 * @return string[]
	 */
	public static function paid_statuses(): array {
		$statuses = array();
		foreach ( (array) wc_get_is_paid_statuses() as $status ) {
			$status     = (string) $status;
			$statuses[] = 0 === strpos( $status, 'wc-' ) ? substr( $status, 3 ) : $status;
		}
		$statuses = array_values( array_unique( array_filter( $statuses ) ) );
		sort( $statuses );
		return $statuses;
	}

	/**
	 * Where the site's orders are read from now: the paid-orders index records the source it was
	 * walked from, and does not serve once the source differs. A site switched from HPOS to posts
	 * storage (or back, or to another order data store) reads other orders, and rows of the
	 * orders it no longer has must not be served.
	 *
	 * - commerce: whether WooCommerce is loaded;
	 * - storage: its authoritative order storage, HPOS or posts
	 *   (OrderUtil::custom_orders_table_usage_is_enabled(), the woocommerce_custom_orders_table_enabled
	 *   option; with compatibility mode's sync on, the other storage is a copy, not the source);
	 * - data_store: the order data store WooCommerce loads (WC_Data_Store::load( 'order' ), which
	 *   the woocommerce_order_data_store filter can replace altogether).
	 *
	 * The table prefix and the database are not recorded: the index table and its state live in
	 * the same database, under the same prefix, as the orders.
	 *
	 * @return array{commerce: string, storage: string, data_store: string}
	 */
	public static function order_source(): array {
		if ( ! self::is_available() ) {
			return array(
				'commerce'   => 'none',
				'storage'    => '',
				'data_store' => '',
			);
		}
		$hpos = class_exists( '\Automattic\WooCommerce\Utilities\OrderUtil' ) && \Automattic\WooCommerce\Utilities\OrderUtil::custom_orders_table_usage_is_enabled();
		try {
			$data_store = \WC_Data_Store::load( 'order' )->get_current_class_name();
		} catch ( \Exception $e ) {
			$data_store = '';
		}
		return array(
			'commerce'   => 'woocommerce',
			'storage'    => $hpos ? 'hpos' : 'posts',
			'data_store' => (string) $data_store,
		);
	}

	/**
	 * A page of the query's orders, read from WooCommerce: the plain order with wc_get_orders()
	 * in that order; the sync order by counting (by_paid_at()). Paid_Order_Reader has answered
	 * the queries no order can match (no paid status, an empty sync window).
	 *
	 * @param Paid_Order_Query $query The page.
	 * @return array{orders: array<int, array<string, mixed>>, total: int, more: bool}
	 * @throws Order_Query_Error On a database error in WooCommerce's queries.
	 */
	public function page( Paid_Order_Query $query ): array {
		$filters = array();
		if ( null !== $query->modified_from ) {
			$filters['date_modified'] = Paid_Moment_Query::date_argument( $query->modified_from, $query->modified_to );
		}
		if ( $query->is_sync() ) {
			return $this->by_paid_at( $query->cursor_at, $query->cursor_id, (int) $query->paid_before, $query->offset(), $query->per_page, $filters, $query->fields );
		}
		if ( null !== $query->paid_from ) {
			$filters['paid_at'] = array( $query->paid_from, $query->paid_to );
		}
		$page     = $query->page;
		$per_page = $query->per_page;
		$sort     = self::sort( $query->orderby, $query->order );
		if ( isset( $filters['paid_at'] ) ) {
			$found = $this->page_of_sets( $page, $per_page, $sort, $filters );
		} else {
			$results = $this->query(
				$this->args(
					$filters,
					array(
						'limit'    => $per_page,
						'page'     => $page,
						'paginate' => true,
					) + $sort
				)
			);
			$found   = array(
				'orders' => self::only_orders( $results->orders ),
				'total'  => (int) $results->total,
			);
		}
		if ( ! $found['orders'] && $page > 1 ) {
			// WooCommerce does not count for an empty page (HPOS: OrdersTableQuery::run_query()
			// returns before its count query; legacy: WP_Query::set_found_posts() bails out), so
			// its total is 0 there. Count on page 1, so a page beyond the last one is told apart
			// from an empty set.
			$found['total'] = $this->count( $filters );
		}
		return self::counted( self::snapshots_of( $found['orders'], $query->fields ), $found['total'], $query->offset() );
	}

	/**
	 * A page read with its total, and whether orders follow it.
	 *
	 * @param array<int, array<string, mixed>> $orders Snapshots of the page.
	 * @param int                              $total  Orders in the set.
	 * @param int                              $offset Rank of the page's first order.
	 * @return array{orders: array<int, array<string, mixed>>, total: int, more: bool}
	 */
	private static function counted( array $orders, int $total, int $offset ): array {
		return array(
			'orders' => $orders,
			'total'  => $total,
			'more'   => $total > $offset + count( $orders ),
		);
	}

	/**
	 * The wc_get_orders() sort arguments of a plain order; the id breaks ties, so pages never
	 * overlap or skip between equal dates.
	 *
	 * @param string $orderby date|id|modified.
	 * @param string $order   asc|desc.
	 * @return array{orderby: array<string, string>, order: string}
	 */
	private static function sort( string $orderby, string $order ): array {
		$direction = 'asc' === $order ? 'ASC' : 'DESC';
		$key       = array(
			'date'     => 'date',
			'id'       => 'ID',
			'modified' => 'modified',
		)[ $orderby ] ?? 'date';
		return array(
			'orderby' => 'ID' === $key ? array( 'ID' => $direction ) : array(
				$key => $direction,
				'ID' => $direction,
			),
			'order'   => $direction,
		);
	}

	/**
	 * A page of a plain order filtered on the paid moment, whose sets (Paid_Moment_Query)
	 * WooCommerce reads apart: the page's orders are among the first page * per_page ids of each
	 * set in that order, so those ids are read, then the page among them in one query.
	 *
	 * @param int                                                  $page     Page, from 1.
	 * @param int                                                  $per_page Page size.
	 * @param array{orderby: array<string, string>, order: string} $sort     Sort arguments.
	 * @param array<string, string>                                $filters  Filters, with paid_at.
	 * @return array{orders: \WC_Order[], total: int}
	 */
	private function page_of_sets( int $page, int $per_page, array $sort, array $filters ): array {
		$ids   = array();
		$total = 0;
		foreach ( $this->sets( $filters ) as $set ) {
			$results = $this->query(
				$this->args(
					$set,
					array(
						'limit'    => $page * $per_page,
						'page'     => 1,
						'paginate' => true,
						'return'   => 'ids',
					) + $sort
				)
			);
			$ids     = array_merge( $ids, array_map( 'intval', (array) $results->orders ) );
			$total  += (int) $results->total;
		}
		unset( $filters['paid_at'] );
		$orders = $ids ? $this->query(
			$this->args(
				$filters,
				array(
					'post__in' => $ids,
					'limit'    => $per_page,
					'offset'   => ( $page - 1 ) * $per_page,
				) + $sort
			)
		) : array();
		return array(
			'orders' => self::only_orders( $orders ),
			'total'  => $total,
		);
	}

	/**
	 * The filters as wc_get_orders() argument sets: a paid-moment range (paid_at) is two sets
	 * (Paid_Moment_Query), whose union it is; without one, the filters themselves.
	 *
	 * @param array<string, mixed> $filters Filters (paid_at: the paid moment's inclusive bounds, [from, to|null]).
	 * @return array<int, array<string, mixed>>
	 */
	private function sets( array $filters ): array {
		if ( ! isset( $filters['paid_at'] ) ) {
			return array( $filters );
		}
		list( $from, $to ) = $filters['paid_at'];
		unset( $filters['paid_at'] );
		return array_map( static fn( array $set ): array => $set + $filters, Paid_Moment_Query::sets( $from, $to ) );
	}

	/**
	 * Whether WooCommerce is there and has no paid order, so an empty index is complete.
	 * Without WooCommerce it cannot be told (its orders stay in the database), so no.
	 */
	public function nothing_to_walk(): bool {
		try {
			return self::is_available() && ! $this->any_paid();
		} catch ( Order_Query_Error $e ) {
			return false;
		}
	}

	/**
	 * Snapshots of orders just loaded: their items primed first when lines are wanted.
	 *
	 * @param \WC_Order[]              $orders  Orders.
	 * @param array<string, bool>|null $fields  Fields wanted.
	 * @return array<int, array<string, mixed>>
	 */
	private static function snapshots_of( array $orders, ?array $fields ): array {
		if ( null === $fields || ! empty( $fields['line_items'] ) ) {
			Line_Items::prime( $orders );
		}
		return array_map( static fn( \WC_Order $order ): array => Paid_Order_Snapshot::of( $order, $fields ), $orders );
	}

	/**
	 * Paid orders in the order (paid moment ASC, id ASC), strictly after the cursor
	 * (after_ts, after_id) and paid before $before_ts, from rank $offset, at most $limit.
	 *
	 * @param int                      $after_ts  Cursor second (UTC timestamp); orders paid then count only with an id above $after_id.
	 * @param int                      $after_id  Cursor id (0: the whole second $after_ts).
	 * @param int                      $before_ts Exclusive upper bound (UTC timestamp).
	 * @param int                      $offset    Rank of the first order returned.
	 * @param int                      $limit     Page size.
	 * @param array<string, string>    $filters   Extra wc_get_orders filters (date_modified).
	 * @param array<string, bool>|null $fields    Fields wanted (Paid_Order_Snapshot::of()).
	 * @return array{orders: array<int, array<string, mixed>>, total: int, more: bool}
	 * @throws Order_Query_Error On a database error in WooCommerce's queries.
	 */
	private function by_paid_at( int $after_ts, int $after_id, int $before_ts, int $offset, int $limit, array $filters, ?array $fields ): array {
		$found = $this->by_counting( $after_ts, $after_id, $before_ts, $offset, $limit, $filters );
		return self::counted( self::snapshots_of( $found['orders'], $fields ), $found['total'], $offset );
	}

	/**
	 * The paid orders among these ids, loaded in one query, in id order.
	 *
	 * @param int[] $ids Order ids (not empty).
	 * @return \WC_Order[]
	 * @throws Order_Query_Error On a database error.
	 */
	public function paid_among( array $ids ): array {
		if ( ! $ids || ! self::paid_statuses() ) {
			return array();
		}
		// post__in: WP_Query's own argument on legacy storage, mapped to HPOS's id
		// (OrdersTableQuery::maybe_remap_args()). Never empty: an empty array is no filter there.
		return self::only_orders(
			$this->query(
				$this->args(
					array(),
					array(
						'post__in' => array_values( $ids ),
						'limit'    => count( $ids ),
						'orderby'  => array( 'ID' => 'ASC' ),
					)
				)
			)
		);
	}

	/**
	 * The highest id of a paid order, 0 when there is none (the index walk's end): one id query,
	 * which both storages answer from the end of their primary key.
	 *
	 * @throws Order_Query_Error On a database error.
	 */
	public function last_paid_id(): int {
		if ( ! self::paid_statuses() ) {
			return 0;
		}
		$ids = (array) $this->query(
			$this->args(
				array(),
				array(
					'limit'   => 1,
					'orderby' => array( 'ID' => 'DESC' ),
					'return'  => 'ids',
				)
			)
		);
		return (int) ( $ids[0] ?? 0 );
	}

	/**
	 * Whether any order is paid (one id query).
	 *
	 * @throws Order_Query_Error On a database error.
	 */
	public function any_paid(): bool {
		return self::paid_statuses() && $this->count( array() ) > 0;
	}

	/**
	 * Paid orders in the order (paid moment ASC, id ASC), strictly after the cursor
	 * (after_ts, after_id) and paid before $before_ts, from rank $offset, at most $limit,
	 * located with paid-moment range filters and counts only (no index).
	 *
	 * @param int                  $after_ts  Cursor second (UTC timestamp); orders paid then count only with an id above $after_id.
	 * @param int                  $after_id  Cursor id (0: the whole second $after_ts).
	 * @param int                  $before_ts Exclusive upper bound (UTC timestamp).
	 * @param int                  $offset    Rank of the first order returned.
	 * @param int                  $limit     Page size.
	 * @param array<string, mixed> $filters   Extra wc_get_orders filters (date_modified).
	 * @return array{orders: \WC_Order[], total: int}
	 * @throws Order_Query_Error On a database error.
	 */
	private function by_counting( int $after_ts, int $after_id, int $before_ts, int $offset, int $limit, array $filters ): array {
		// The rest of the cursor's own second: ids are the only order inside one second.
		$first_second = array();
		if ( $after_ts >= self::FIRST_SECOND ) {
			$first_second = Paid_Date_Ranking::after_cursor( $this->ids_paid_in_second( $after_ts, $filters ), $after_id );
		}
		$start = max( $after_ts + 1, self::FIRST_SECOND );
		$head  = count( $first_second );
		$total = $head + $this->count_paid_between( $start, $before_ts, $filters );
		$end   = min( $offset + $limit, $total );
		if ( $offset >= $end ) {
			return array(
				'orders' => array(),
				'total'  => $total,
			);
		}

		$orders = array();
		if ( $offset < $head ) {
			$orders = $this->load_ids( array_slice( $first_second, $offset, min( $end, $head ) - $offset ), $after_ts, $filters );
		}
		if ( $end > $head ) {
			$from = max( $offset, $head );
			// $rank_before( $s ): how many orders of the set come before second $s.
			$rank_before = fn( int $second ): int => $head + $this->count_paid_between( $start, $second, $filters );
			if ( $from === $head && $end === $total ) {
				// Everything after the cursor's second fits: one query, the usual polling case.
				$orders = array_merge( $orders, $this->load_range( $start, $before_ts, $filters, $end - $from ) );
			} else {
				$first_s = Paid_Date_Ranking::second_of_rank( $from, $start, $before_ts, $rank_before );
				$last_s  = Paid_Date_Ranking::second_of_rank( $end - 1, $first_s, $before_ts, $rank_before );
				$skip    = $from - $rank_before( $first_s );
				if ( $first_s === $last_s ) {
					$orders = array_merge( $orders, $this->load_second_slice( $first_s, $skip, $end - $from, $filters ) );
				} else {
					$orders = array_merge(
						$orders,
						$this->load_second_slice( $first_s, $skip, PHP_INT_MAX, $filters ),
						$this->load_range( $first_s + 1, $last_s, $filters, $end - $from ),
						$this->load_second_slice( $last_s, 0, $end - $rank_before( $last_s ), $filters )
					);
				}
			}
		}

		usort(
			$orders,
			static function ( \WC_Order $a, \WC_Order $b ): int {
				return Paid_Date_Ranking::compare( self::paid_moment( $a ), $a->get_id(), self::paid_moment( $b ), $b->get_id() );
			}
		);
		return array(
			'orders' => array_slice( $orders, 0, $limit ),
			'total'  => $total,
		);
	}

	/**
	 * Number of paid orders with $from <= paid moment < $to (seconds).
	 *
	 * @param int                  $from    First second.
	 * @param int                  $to      Exclusive end.
	 * @param array<string, mixed> $filters Extra filters.
	 */
	private function count_paid_between( int $from, int $to, array $filters ): int {
		if ( $to <= $from ) {
			return 0;
		}
		$key = $from . ':' . $to . wp_json_encode( $filters );
		if ( ! isset( $this->counts[ $key ] ) ) {
			$this->counts[ $key ] = $this->count( array( 'paid_at' => array( $from, $to - 1 ) ) + $filters );
		}
		return $this->counts[ $key ];
	}

	/**
	 * Number of paid orders matching the filters: a one-row first page with paginate, whose
	 * total WooCommerce counts whenever that page is not empty (and an empty first page means
	 * there are none).
	 *
	 * @param array<string, mixed> $filters Filters.
	 */
	private function count( array $filters ): int {
		$total = 0;
		foreach ( $this->sets( $filters ) as $set ) {
			$results = $this->query(
				$this->args(
					$set,
					array(
						'limit'    => 1,
						'page'     => 1,
						'paginate' => true,
						'return'   => 'ids',
						'orderby'  => 'none',
					)
				)
			);
			$total  += (int) $results->total;
		}
		return $total;
	}

	/**
	 * Ids of the paid orders paid within one second, ascending.
	 *
	 * @param int                  $second  Second.
	 * @param array<string, mixed> $filters Extra filters.
	 * @return int[]
	 */
	private function ids_paid_in_second( int $second, array $filters ): array {
		$key = $second . wp_json_encode( $filters );
		if ( isset( $this->seconds[ $key ] ) ) {
			return $this->seconds[ $key ];
		}
		// How many were paid in that second is not known here: read them in batches.
		$ids = array_map( 'intval', $this->all( array( 'paid_at' => array( $second, $second ) ) + $filters, 'ids', self::BATCH ) );
		sort( $ids );
		$this->seconds[ $key ] = $ids;
		return $ids;
	}

	/**
	 * All paid orders with $from <= paid moment < $to (a range the caller sized by counting).
	 *
	 * @param int                  $from     First second.
	 * @param int                  $to       Exclusive end.
	 * @param array<string, mixed> $filters  Extra filters.
	 * @param int                  $expected How many the caller's counts put there at most:
	 *                                       one query when that holds, more if orders came in.
	 * @return \WC_Order[]
	 */
	private function load_range( int $from, int $to, array $filters, int $expected ): array {
		if ( $to <= $from ) {
			return array();
		}
		return self::only_orders( $this->all( array( 'paid_at' => array( $from, $to - 1 ) ) + $filters, 'objects', $expected + 1 ) );
	}

	/**
	 * Every paid order (or id) matching the filters, in id order, read $batch at a time until a
	 * page comes back short: a finite limit on each query, never -1.
	 *
	 * @param array<string, mixed> $filters Filters.
	 * @param string               $shape   'ids' or 'objects'.
	 * @param int                  $batch   Page size.
	 * @return array<int, \WC_Order|int>
	 */
	private function all( array $filters, string $shape, int $batch ): array {
		$batch = max( 1, $batch );
		$found = array();
		foreach ( $this->sets( $filters ) as $set ) {
			for ( $page = 1; ; ++$page ) {
				$chunk = (array) $this->query(
					$this->args(
						$set,
						array(
							'limit'   => $batch,
							'page'    => $page,
							'return'  => $shape,
							'orderby' => array( 'ID' => 'ASC' ),
						)
					)
				);
				foreach ( $chunk as $item ) {
					// Keyed by id: an order paid meanwhile can shift a later page by one.
					$found[ $item instanceof \WC_Abstract_Order ? $item->get_id() : (int) $item ] = $item;
				}
				if ( count( $chunk ) < $batch ) {
					break;
				}
			}
		}
		return array_values( $found );
	}

	/**
	 * Orders of one second in id order, from position $skip, at most $count.
	 *
	 * @param int                  $second  Second.
	 * @param int                  $skip    Orders to skip.
	 * @param int                  $count   Orders to return.
	 * @param array<string, mixed> $filters Extra filters.
	 * @return \WC_Order[]
	 */
	private function load_second_slice( int $second, int $skip, int $count, array $filters ): array {
		if ( $count <= 0 ) {
			return array();
		}
		$ids = array_slice( $this->ids_paid_in_second( $second, $filters ), $skip, PHP_INT_MAX === $count ? null : $count );
		return $this->load_ids( $ids, $second, $filters );
	}

	/**
	 * Loads the given orders of one second (one query; an order that changed meanwhile is
	 * dropped if it is no longer paid then).
	 *
	 * @param int[]                $ids     Order ids, ascending.
	 * @param int                  $second  The second they were paid in.
	 * @param array<string, mixed> $filters Extra filters.
	 * @return \WC_Order[]
	 */
	private function load_ids( array $ids, int $second, array $filters ): array {
		if ( ! $ids ) {
			return array();
		}
		$orders = self::only_orders(
			$this->query(
				$this->args(
					$filters,
					array(
						'post__in' => $ids,
						'limit'    => count( $ids ),
						'orderby'  => array( 'ID' => 'ASC' ),
					)
				)
			)
		);
		return array_values( array_filter( $orders, static fn( \WC_Order $order ): bool => self::paid_moment( $order ) === $second ) );
	}

	/**
	 * Calls wc_get_orders(), failing loudly on a database error. WooCommerce reads orders with
	 * wpdb::get_col() and answers a failed query with an empty list and a total of 0 (HPOS's
	 * OrdersTableQuery::run_query(), legacy's WP_Query), so its result alone cannot tell "no
	 * orders" from "the database refused the query". wpdb records every failed query in the
	 * global $EZSQL_ERROR (wpdb::print_error(), and the SQLite integration's WP_SQLite_DB,
	 * which mirrors it), even when it does not display or log errors, and sets last_error:
	 * either one during the call means the result cannot be trusted.
	 *
	 * @param array<string, mixed> $args Query vars.
	 * @return mixed wc_get_orders()'s result.
	 * @throws Order_Query_Error On a database error during the call.
	 */
	private function query( array $args ) {
		global $EZSQL_ERROR; // wpdb's own log of failed queries, kept by wpdb::print_error().
		$errors_before        = is_array( $EZSQL_ERROR ) ? count( $EZSQL_ERROR ) : 0;
		$this->db->last_error = '';
		$result               = wc_get_orders( $args );
		$fault                = Order_Query_Error::fault( is_array( $EZSQL_ERROR ) ? array_slice( $EZSQL_ERROR, $errors_before ) : array(), (string) $this->db->last_error );
		if ( null !== $fault ) {
			throw new Order_Query_Error( esc_html( $fault ) );
		}
		return $result;
	}

	/**
	 * Arguments shared by every query: orders (not refunds) in a paid status.
	 *
	 * @param array<string, mixed> $filters Filters (wc_get_orders() arguments).
	 * @param array<string, mixed> $query   Paging and return arguments.
	 * @return array<string, mixed>
	 */
	private function args( array $filters, array $query ): array {
		return array(
			'type'   => self::ORDER_TYPE,
			'status' => self::paid_statuses(),
		) + $filters + $query;
	}

	/**
	 * Keeps WC_Order objects only.
	 *
	 * @param mixed $orders Query result.
	 * @return \WC_Order[]
	 */
	private static function only_orders( $orders ): array {
		return array_values( array_filter( (array) $orders, static fn( $order ): bool => $order instanceof \WC_Order ) );
	}

	/**
	 * An order's paid moment (Paid_Moment) as a UTC timestamp, 0 if it has none.
	 *
	 * @param \WC_Order $order Order.
	 */
	public static function paid_moment( \WC_Order $order ): int {
		return Paid_Moment::of_order( new Wc_Order_Port( $order ) );
	}

	/**
	 * Last modification of an order as a UTC timestamp (0 if it has none).
	 *
	 * @param \WC_Order $order Order.
	 */
	public static function modified_timestamp( \WC_Order $order ): int {
		$date = $order->get_date_modified();
		return $date ? (int) $date->getTimestamp() : 0;
	}
}

<?php
/**
 * The "All manufacturing orders" screen: its columns and their sorting.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

use WP_Query;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Adds the source order, due date, priority and item count columns to the list table of
 * manufacturing orders, and sorts by the first three.
 *
 * Sorting joins the field's meta row with a LEFT JOIN instead of setting `meta_key`: a
 * `meta_key` query is an INNER JOIN, and records created through REST store only the
 * fields they were sent, so sorting would hide every record without that field.
 */
final class Manufacturing_Order_List_Screen {

	/** Query variable that carries the sort from pre_get_posts to posts_clauses. */
	const SORT_VAR = 'service_integration_manufacturing_sort';

	/** Column => field it shows (a column whose field a site removed is not shown). */
	const COLUMN_FIELDS = array(
		'source_order' => 'source_order_id',
		'due_date'     => 'due_date',
		'priority'     => 'priority',
		'item_count'   => 'items',
	);

	/** Priorities in rank order, for sorting by rank rather than alphabetically. */
	const PRIORITY_RANK = array( 'low', 'normal', 'high' );

	/**
	 * Registers hooks.
	 */
	public static function register(): void {
		$type = Manufacturing_Order_Type::POST_TYPE;
		add_filter( "manage_{$type}_posts_columns", array( self::class, 'columns' ) );
		add_action( "manage_{$type}_posts_custom_column", array( self::class, 'render_column' ), 10, 2 );
		add_filter( "manage_edit-{$type}_sortable_columns", array( self::class, 'sortable_columns' ) );
		add_action( 'pre_get_posts', array( self::class, 'sort_query' ) );
		add_filter( 'posts_clauses', array( self::class, 'sort_clauses' ), 10, 2 );
		add_filter( 'wp_count_posts', array( self::class, 'count_shown_statuses' ), 10, 2 );
	}

	/**
	 * Adds the columns after the title.
	 *
	 * @param array<string, string> $columns Column key => header.
	 * @return array<string, string>
	 */
	public static function columns( $columns ): array {
		$columns = is_array( $columns ) ? $columns : array();
		$fields  = Manufacturing_Order_Type::fields();
		$headers = array(
			'source_order' => __( 'Source order', 'service-integration' ),
			'due_date'     => __( 'Due date', 'service-integration' ),
			'priority'     => __( 'Priority', 'service-integration' ),
			'item_count'   => __( 'Items', 'service-integration' ),
		);
		$added   = array();
		foreach ( $headers as $column => $header ) {
			if ( isset( $fields[ self::COLUMN_FIELDS[ $column ] ] ) ) {
				$added[ $column ] = $header;
			}
		}
		$position = array_search( 'title', array_keys( $columns ), true );
		$position = false === $position ? count( $columns ) : $position + 1;
		return array_slice( $columns, 0, $position, true ) + $added + array_slice( $columns, $position, null, true );
	}

	/**
	 * Prints one cell.
	 *
	 * @param string $column  Column key.
	 * @param int    $post_id Record ID.
	 */
	public static function render_column( $column, $post_id ): void {
		$post_id = (int) $post_id;
		switch ( $column ) {
			case 'source_order':
				self::render_source_order( $post_id );
				break;
			case 'due_date':
				$due = (string) get_post_meta( $post_id, 'due_date', true );
				$day = Calendar_Date::is_valid( $due ) ? \DateTimeImmutable::createFromFormat( '!Y-m-d', $due, wp_timezone() ) : false;
				if ( $day ) {
					printf( '<time datetime="%1$s">%2$s</time>', esc_attr( $due ), esc_html( wp_date( get_option( 'date_format' ), $day->getTimestamp() ) ) );
				} elseif ( '' !== $due ) {
					// Stored before dates were checked, or by site code around the field's check: shown as it is.
					echo esc_html( $due );
				} else {
					self::render_empty();
				}
				break;
			case 'priority':
				$priority = (string) get_post_meta( $post_id, 'priority', true );
				$labels   = Manufacturing_Order_Type::option_labels( 'priority' );
				if ( '' === $priority ) {
					self::render_empty();
				} else {
					printf( '<span data-priority="%1$s">%2$s</span>', esc_attr( $priority ), esc_html( $labels[ $priority ] ?? $priority ) );
				}
				break;
			case 'item_count':
				$items = get_post_meta( $post_id, 'items', true );
				echo esc_html( number_format_i18n( is_array( $items ) ? count( $items ) : 0 ) );
				break;
		}
	}

	/**
	 * Shows the source order one way, as WooCommerce names an order: "#" and its number. The
	 * number is the shop's own when the order exists (linked to its edit screen for who may
	 * edit orders), else the stored number, else the stored ID.
	 *
	 * @param int $post_id Record ID.
	 */
	private static function render_source_order( int $post_id ): void {
		$id     = (int) get_post_meta( $post_id, 'source_order_id', true );
		$number = (string) get_post_meta( $post_id, 'source_order_number', true );
		$order  = 0 < $id && function_exists( 'wc_get_order' ) ? wc_get_order( $id ) : false;
		if ( $order instanceof \WC_Order ) {
			$number = (string) $order->get_order_number();
		} elseif ( '' === $number && 0 < $id ) {
			$number = (string) $id;
		}
		if ( '' === $number ) {
			self::render_empty();
			return;
		}
		/* translators: %s: order number, as WooCommerce shows it (e.g. 123 or WC-123). */
		$text = sprintf( _x( '#%s', 'source order number', 'service-integration' ), $number );
		if ( $order instanceof \WC_Order && current_user_can( 'edit_shop_orders' ) ) {
			printf( '<a href="%1$s">%2$s</a>', esc_url( $order->get_edit_order_url() ), esc_html( $text ) );
			return;
		}
		echo esc_html( $text );
	}

	/**
	 * Marks an empty cell the way core's list tables do.
	 */
	private static function render_empty(): void {
		printf( '<span aria-hidden="true">&#8212;</span><span class="screen-reader-text">%s</span>', esc_html__( 'None', 'service-integration' ) );
	}

	/**
	 * Source order (by its ID, numerically), due date and priority (by rank) sort; the
	 * item count would need the serialized array counted in SQL, so it does not.
	 *
	 * @param array<string, mixed> $columns Sortable column key => orderby value.
	 * @return array<string, mixed>
	 */
	public static function sortable_columns( $columns ): array {
		$columns = is_array( $columns ) ? $columns : array();
		$fields  = Manufacturing_Order_Type::fields();
		foreach ( array( 'source_order', 'due_date', 'priority' ) as $column ) {
			if ( isset( $fields[ self::COLUMN_FIELDS[ $column ] ] ) ) {
				$columns[ $column ] = $column;
			}
		}
		return $columns;
	}

	/**
	 * Turns `orderby=<column>` of the list screen's main query into our sort. Only that
	 * query: other queries of the type (REST, site code) keep core's orderby handling.
	 *
	 * @param WP_Query $query Query.
	 */
	public static function sort_query( $query ): void {
		if ( ! is_admin() || ! $query->is_main_query() || Manufacturing_Order_Type::POST_TYPE !== $query->get( 'post_type' ) ) {
			return;
		}
		$screen = function_exists( 'get_current_screen' ) ? get_current_screen() : null;
		if ( ! $screen || 'edit' !== $screen->base ) {
			return;
		}
		$orderby = $query->get( 'orderby' );
		if ( is_string( $orderby ) && in_array( $orderby, array_keys( self::sortable_columns( array() ) ), true ) ) {
			$query->set( self::SORT_VAR, $orderby );
		}
	}

	/**
	 * Joins the sorted field's meta row (absent for records that never stored it, which
	 * then sort as the field's default) and orders by it, then by date for equal values.
	 *
	 * @param array<string, string> $clauses Query clauses.
	 * @param WP_Query              $query   Query.
	 * @return array<string, string>
	 */
	public static function sort_clauses( $clauses, $query ) {
		$column = $query instanceof WP_Query ? $query->get( self::SORT_VAR ) : '';
		if ( ! is_string( $column ) || ! isset( self::COLUMN_FIELDS[ $column ] ) ) {
			return $clauses;
		}
		global $wpdb;
		$key     = self::COLUMN_FIELDS[ $column ];
		$fields  = Manufacturing_Order_Type::fields();
		$default = $fields[ $key ]['default'] ?? '';
		$order   = 'ASC' === strtoupper( (string) $query->get( 'order' ) ) ? 'ASC' : 'DESC';

		$clauses['join'] .= $wpdb->prepare( " LEFT JOIN {$wpdb->postmeta} AS si_manufacturing_sort ON ( si_manufacturing_sort.post_id = {$wpdb->posts}.ID AND si_manufacturing_sort.meta_key = %s )", $key );
		$value            = $wpdb->prepare( 'COALESCE( si_manufacturing_sort.meta_value, %s )', is_scalar( $default ) ? (string) $default : '' );
		if ( 'source_order' === $column ) {
			// Numerically, as core's meta_value_num does.
			$value = "( {$value} + 0 )";
		} elseif ( 'priority' === $column ) {
			$cases = '';
			foreach ( self::PRIORITY_RANK as $rank => $priority ) {
				$cases .= $wpdb->prepare( ' WHEN %s THEN %d', $priority, $rank );
			}
			// An unknown priority (a site's own enum) sorts after the known ones.
			$value = "( CASE {$value}{$cases} ELSE " . count( self::PRIORITY_RANK ) . ' END )';
		}
		$clauses['orderby'] = "{$value} {$order}, {$wpdb->posts}.post_date {$order}, {$wpdb->posts}.ID {$order}";
		return $clauses;
	}

	/**
	 * Counts only the statuses a manufacturing order can have (and core's Trash and internal
	 * ones), so the list's views (All (N), Published (N), …) count the rows the list shows: a
	 * record left in another plugin's status (WooCommerce registers its order statuses for
	 * every type) is neither listed under All nor counted.
	 *
	 * @param object $counts Number of records by status.
	 * @param string $type   Post type.
	 * @return object
	 */
	public static function count_shown_statuses( $counts, $type ) {
		if ( Manufacturing_Order_Type::POST_TYPE !== $type || ! is_object( $counts ) ) {
			return $counts;
		}
		$kept   = array_merge( Manufacturing_Order_Type::STATUSES, array( 'trash', 'auto-draft', 'inherit' ) );
		$counts = clone $counts;
		foreach ( array_keys( get_object_vars( $counts ) ) as $status ) {
			if ( ! in_array( $status, $kept, true ) ) {
				$counts->$status = 0;
			}
		}
		return $counts;
	}
}

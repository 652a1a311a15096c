<?php
/**
 * REST: GET /service-integration/v1/commandes-payees — paid commerce orders, read-only.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Commerce\Order_Query_Error;
use ServiceIntegration\Commerce\Paid_Order_Query;
use ServiceIntegration\Commerce\Paid_Order_Reader;
use ServiceIntegration\Commerce\Paid_Order_Snapshot;
use ServiceIntegration\Commerce\Paid_Orders;
use ServiceIntegration\Support\Logger;
use ServiceIntegration\Manufacturing\Calendar_Date;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Paid orders only (filtered on the server), only the fields a manufacturing automation
 * needs, paged the WordPress way. Only GET is registered: any write method is answered
 * 404 rest_no_route by WordPress, and nothing here writes to an order.
 *
 * Reading:
 * "Paid" is the order's paid moment, `paid_at` (Commerce\Paid_Moment): when it first entered
 * a status WooCommerce counts as paid, recorded once; `date_paid` is served as WooCommerce has it.
 *
 * - Plain listing: `page`, `per_page` (1-100, default 20), `orderby` = date (created, the
 *   default) | id | modified, `order` = desc (default) | asc, filters `paid_after` /
 *   `modified_after` (inclusive) and `paid_before` / `modified_before` (exclusive).
 * - Incremental sync: `orderby=paid_at` (or its earlier name `date_paid`) sorts by (paid_at ASC,
 *   id ASC). The cursor is the last order received: `paid_after=<its paid_at>&after_id=<its id>`
 *   returns what comes strictly after it, so orders paid in the same second are neither skipped
 *   nor repeated. Only orders paid at least a few seconds ago are returned (the settle delay,
 *   filter `service_integration_paid_orders_settle_seconds`, default 5), so an order whose
 *   payment is still being saved cannot appear later behind a cursor that has moved on;
 *   the bound used is sent in the `X-Paid-Before` header. The `next` Link carries the cursor.
 */
final class Paid_Orders_Controller extends Controller {

	const CAPABILITY       = 'lire_commandes_payees';
	const REST_BASE        = 'commandes-payees';
	const DEFAULT_PER_PAGE = 20;
	const MAX_PER_PAGE     = 100;
	const SETTLE_SECONDS   = 5;

	/**
	 * The route's base.
	 *
	 * @var string
	 */
	protected $rest_base = self::REST_BASE;

	/**
	 * Requires lire_commandes_payees.
	 *
	 * @var string[]
	 */
	protected array $capabilities = array( self::CAPABILITY );

	/**
	 * Reads the pages (from the index or WooCommerce).
	 *
	 * @var Paid_Order_Reader|null
	 */
	private $reader;

	/**
	 * Fields included for the request being answered.
	 *
	 * @var array<string, bool>|null
	 */
	private $included = null;

	/**
	 * The request $included was worked out for.
	 *
	 * @var WP_REST_Request|null
	 */
	private $included_for = null;

	/**
	 * Constructor.
	 *
	 * @param Paid_Order_Reader|null $reader Reader (Plugin's); null for a controller asked only
	 *                                      for its schema and parameters (List_Paid_Orders),
	 *                                      which answers no request.
	 */
	public function __construct( ?Paid_Order_Reader $reader = null ) {
		$this->reader = $reader;
	}

	/**
	 * Registers the route: GET only.
	 */
	public function register_routes(): void {
		$this->register_route( '', array( $this->endpoint( WP_REST_Server::READABLE, 'get_items', $this->get_collection_params() ) ) );
		add_filter( 'rest_json_encode_options', array( $this, 'json_encode_options' ), 10, 2 );
	}

	/**
	 * This route's JSON is UTF-8 as is (RFC 8259): core escapes every non-ASCII character as
	 * \uXXXX (6 bytes for an "é" that takes 2) and every slash, which only makes pages bigger.
	 *
	 * @param int             $options json_encode() flags.
	 * @param WP_REST_Request $request The request being served.
	 */
	public function json_encode_options( $options, $request ): int {
		if ( $request instanceof WP_REST_Request && '/' . $this->namespace . '/' . $this->rest_base === $request->get_route() ) {
			$options |= JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES;
		}
		return (int) $options;
	}

	/**
	 * Lists paid orders.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_items( $request ) {
		if ( ! Paid_Orders::is_available() ) {
			return new WP_Error(
				'commerce_unavailable',
				__( 'WooCommerce is not active on this site, so paid orders cannot be read. Activate WooCommerce and retry.', 'service-integration' ),
				array( 'status' => 503 )
			);
		}

		// The request's parameters as one typed value, the only thing the readers see.
		$query = Paid_Order_Query::from_request( $request, time() - self::settle_seconds(), $this->included_fields( $request ) );
		if ( $query->matches_nothing ) {
			return $this->respond( array(), 0, $request, null );
		}

		try {
			return $this->list_orders( $request, $query );
		} catch ( Order_Query_Error $e ) {
			// WooCommerce answers a failed order query with an empty list: say so instead of
			// serving an empty page, which a poller would take for "nothing new". The message was
			// escaped where it was thrown; the log gets the database's own text back.
			return self::database_error( wp_specialchars_decode( $e->getMessage(), ENT_QUOTES ) );
		}
	}

	/**
	 * The answer to a database error, never an empty page. The database's own message (which
	 * may quote SQL) goes to the server's log only, as one line of text (the SQLite
	 * integration's last_error is an HTML block).
	 *
	 * @param string $detail What went wrong, for the log.
	 */
	private static function database_error( string $detail ): WP_Error {
		$detail = trim( (string) preg_replace( '/\s+/', ' ', wp_strip_all_tags( $detail ) ) );
		Logger::error( // An operator must see why the route failed.
			sprintf( 'Service Integration: paid orders could not be read: a database error (answered 500 rest_paid_orders_database_error): %s', '' !== $detail ? substr( $detail, 0, 2000 ) : 'no message' )
		);
		return new WP_Error(
			'rest_paid_orders_database_error',
			__( 'The orders could not be read from the database, so no page is served. Try again later; the site’s error log has the details.', 'service-integration' ),
			array( 'status' => 500 )
		);
	}

	/**
	 * Reads the page asked for (get_items() after validation) and turns its orders into their
	 * views in one go (Paid_Order_Snapshot::present(): the SKUs of the whole page in one read).
	 * The reader's Order_Query_Error (a database error) reaches get_items(), which answers it.
	 *
	 * @param WP_REST_Request  $request Request.
	 * @param Paid_Order_Query $query   The page.
	 * @return WP_REST_Response|WP_Error
	 * @throws \LogicException When the controller was built for its schema only.
	 */
	private function list_orders( WP_REST_Request $request, Paid_Order_Query $query ) {
		if ( null === $this->reader ) {
			throw new \LogicException( 'A paid-orders controller built for its schema only was asked for orders.' );
		}
		$result = $this->reader->page( $query );
		if ( is_wp_error( $result ) ) {
			// The plugin's index could not be read (Database_Error logged the database's
			// message): the same answer as a failed WooCommerce query.
			return self::database_error( 'the paid-orders index could not be read (' . $result->get_error_code() . ', see the line before)' );
		}

		$max_pages = (int) ceil( (int) $result['total'] / $query->per_page );
		if ( null !== $result['total'] && $query->page > $max_pages && $result['total'] > 0 ) {
			return new WP_Error(
				'rest_paid_orders_invalid_page_number',
				__( 'The page number requested is larger than the number of pages available.', 'service-integration' ),
				array( 'status' => 400 )
			);
		}

		$items = array();
		foreach ( Paid_Order_Snapshot::present( $result['orders'], $query->fields ) as $i => $view ) {
			$items[] = $this->prepare_response_for_collection( $this->order_response( $view, (int) $result['orders'][ $i ]['id'], $request ) );
		}
		return $this->respond( $items, $result['total'], $request, $query->paid_before, $result['orders'], $result['more'] );
	}

	/**
	 * The response with WordPress's paging headers and Link header.
	 *
	 * @param array<int, mixed>                $items       Items.
	 * @param int|null                         $total       Matching orders (null: not counted, with_total=false: no X-WP-Total).
	 * @param WP_REST_Request                  $request     Request.
	 * @param int|null                         $paid_before Bound used in the sync order.
	 * @param array<int, array<string, mixed>> $orders      The snapshots returned (for the cursor).
	 * @param bool                             $more        Whether orders follow this page.
	 */
	private function respond( array $items, ?int $total, WP_REST_Request $request, ?int $paid_before, array $orders = array(), bool $more = false ): WP_REST_Response {
		$page      = (int) $request['page'];
		$per_page  = (int) $request['per_page'];
		$max_pages = (int) ceil( (int) $total / max( 1, $per_page ) );
		$response  = rest_ensure_response( $items );
		if ( null !== $total ) {
			$response->header( 'X-WP-Total', (string) $total );
			$response->header( 'X-WP-TotalPages', (string) $max_pages );
		}

		// The parameters as validated: a boolean (with_total) spelled out, which add_query_arg() would drop to a bare name.
		$query = array_map( static fn( $value ) => is_bool( $value ) ? ( $value ? 'true' : 'false' ) : $value, $request->get_query_params() );
		$base  = add_query_arg( urlencode_deep( $query ), rest_url( sprintf( '%s/%s', $this->namespace, $this->rest_base ) ) );
		if ( $page > 1 ) {
			$response->link_header( 'prev', add_query_arg( 'page', min( $page - 1, max( 1, $max_pages ) ), $base ) );
		}
		if ( null !== $paid_before ) {
			$response->header( 'X-Paid-Before', gmdate( 'Y-m-d\TH:i:s\Z', $paid_before ) );
			$last = end( $orders );
			if ( $last && $more ) {
				$cursor = array(
					'paid_after' => $last['paid_at'],
					'after_id'   => $last['id'],
				);
				$response->link_header( 'next', add_query_arg( urlencode_deep( $cursor ), remove_query_arg( 'page', $base ) ) );
			}
		} elseif ( $more ) {
			$response->link_header( 'next', add_query_arg( 'page', $page + 1, $base ) );
		}
		return $response;
	}

	/**
	 * One order, minimal.
	 *
	 * @param array<string, mixed> $item    The order's snapshot (Paid_Order_Snapshot).
	 * @param WP_REST_Request      $request Request.
	 * @return WP_REST_Response
	 */
	public function prepare_item_for_response( $item, $request ) {
		return $this->order_response( Paid_Order_Snapshot::present( array( $item ), $this->included_fields( $request ) )[0], (int) $item['id'], $request );
	}

	/**
	 * The response of one order's view: the fields other plugins registered added, then the
	 * service_integration_rest_prepare_paid_order filter.
	 *
	 * @param array<string, mixed> $data     The order's view (Paid_Order_Snapshot::present()).
	 * @param int                  $order_id The order's id.
	 * @param WP_REST_Request      $request  Request.
	 * @return WP_REST_Response
	 */
	private function order_response( array $data, int $order_id, $request ) {
		if ( $this->get_additional_fields() ) {
			// Fields other plugins registered (register_rest_field) may carry their own contexts.
			$data = $this->view_data( $data, $request );
		}
		$response = rest_ensure_response( $data );
		if ( ! has_filter( 'service_integration_rest_prepare_paid_order' ) ) {
			return $response;
		}

		/**
		 * Filters one paid order of the paid-orders endpoint.
		 *
		 * @since 0.1.0
		 *
		 * @param WP_REST_Response $response Response.
		 * @param \WC_Order|false  $order    The order, as WooCommerce loads it (loaded only when
		 *                                   this filter is used).
		 * @param WP_REST_Request  $request  Request.
		 */
		return apply_filters( 'service_integration_rest_prepare_paid_order', $response, wc_get_order( $order_id ), $request );
	}

	/**
	 * Which of the order fields the response includes (_fields), worked out once per request:
	 * every field of the schema is in the view context, the only context the route offers.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return array<string, bool>
	 */
	private function included_fields( $request ): array {
		if ( null === $this->included || $this->included_for !== $request ) {
			$fields             = $this->get_fields_for_response( $request );
			$this->included     = array();
			$this->included_for = $request;
			foreach ( Paid_Order_Snapshot::FIELDS as $field ) {
				$this->included[ $field ] = rest_is_field_included( $field, $fields );
			}
		}
		return $this->included;
	}

	/**
	 * Schema of one paid order: everything the route returns, nothing more.
	 *
	 * @return array<string, mixed>
	 */
	protected function item_schema(): array {
		return Schemas\Paid_Order::order();
	}

	/**
	 * Query parameters, validated by WordPress against their schema (400 rest_invalid_param
	 * naming the parameter).
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public function get_collection_params() {
		$date = static fn( string $description ): array => array(
			'description'       => $description,
			'type'              => 'string',
			'format'            => 'date-time',
			'validate_callback' => array( self::class, 'validate_date' ),
		);
		return array(
			'context'         => $this->get_context_param( array( 'default' => 'view' ) ),
			'page'            => array(
				'description'       => __( 'Page of the collection.', 'service-integration' ),
				'type'              => 'integer',
				'default'           => 1,
				'minimum'           => 1,
				'validate_callback' => 'rest_validate_request_arg',
			),
			'per_page'        => array(
				'description'       => __( 'Orders per page.', 'service-integration' ),
				'type'              => 'integer',
				'default'           => self::DEFAULT_PER_PAGE,
				'minimum'           => 1,
				'maximum'           => self::MAX_PER_PAGE,
				'validate_callback' => 'rest_validate_request_arg',
			),
			'orderby'         => array(
				'description'       => __( 'Sort key: date (created), id, modified, or paid_at (the incremental-sync order: paid_at then id, ascending; date_paid is its earlier name and sorts the same way).', 'service-integration' ),
				'type'              => 'string',
				'enum'              => array( 'date', 'id', 'modified', 'paid_at', 'date_paid' ),
				'default'           => 'date',
				'validate_callback' => 'rest_validate_request_arg',
			),
			'order'           => array(
				'description'       => __( 'Direction: desc by default, asc for paid_at (the only direction the sync order allows).', 'service-integration' ),
				'type'              => 'string',
				'enum'              => array( 'asc', 'desc' ),
				'validate_callback' => array( $this, 'validate_order' ),
			),
			'paid_after'      => $date( __( 'Orders whose paid_at is at or after this time (ISO 8601; UTC when no offset is given). With orderby=paid_at, the cursor time.', 'service-integration' ) ),
			'paid_before'     => $date( __( 'Orders whose paid_at is before this time (ISO 8601).', 'service-integration' ) ),
			'modified_after'  => $date( __( 'Orders changed at or after this time (ISO 8601).', 'service-integration' ) ),
			'modified_before' => $date( __( 'Orders changed before this time (ISO 8601).', 'service-integration' ) ),
			'after_id'        => array(
				'description'       => __( 'Cursor id, with orderby=paid_at and paid_after: of the orders paid exactly at paid_after, only those with a greater id.', 'service-integration' ),
				'type'              => 'integer',
				'minimum'           => 1,
				'validate_callback' => array( $this, 'validate_after_id' ),
			),
			'with_total'      => array(
				'description'       => __( 'Whether to count the matching orders for X-WP-Total and X-WP-TotalPages (default true). false: no count and no such headers, the next link still given; on a large store the count is most of what a page costs.', 'service-integration' ),
				'type'              => 'boolean',
				'default'           => true,
				'validate_callback' => 'rest_validate_request_arg',
			),
		);
	}

	/**
	 * Whether a sort key is the sync order: paid_at, or its earlier name date_paid.
	 *
	 * @param mixed $orderby Sort key.
	 */
	private static function is_sync( $orderby ): bool {
		return in_array( $orderby, array( 'paid_at', 'date_paid' ), true );
	}

	/**
	 * `order`: the schema, and no desc in the sync order.
	 *
	 * @param mixed           $value   Value.
	 * @param WP_REST_Request $request Request.
	 * @param string          $param   Name.
	 * @return true|WP_Error
	 */
	public function validate_order( $value, $request, $param ) {
		$valid = rest_validate_request_arg( $value, $request, $param );
		if ( true !== $valid ) {
			return $valid;
		}
		if ( 'desc' === $value && self::is_sync( $request->get_param( 'orderby' ) ) ) {
			return new WP_Error( 'rest_invalid_param', __( 'orderby=paid_at is ascending only.', 'service-integration' ) );
		}
		return true;
	}

	/**
	 * A date filter: the schema (ISO 8601), and a day that exists: core's `date-time` check takes
	 * 2026-02-30T00:00:00Z and PHP would roll it to 2 March.
	 *
	 * @param mixed           $value   Value.
	 * @param WP_REST_Request $request Request.
	 * @param string          $param   Name.
	 * @return true|WP_Error
	 */
	public static function validate_date( $value, $request, $param ) {
		$valid = rest_validate_request_arg( $value, $request, $param );
		if ( true !== $valid ) {
			return $valid;
		}
		if ( ! Calendar_Date::is_valid_in_date_time( (string) $value ) ) {
			return new WP_Error(
				'rest_invalid_date',
				/* translators: 1: parameter name (e.g. paid_after), 2: the value given. */
				sprintf( __( '%1$s is not a date that exists: %2$s.', 'service-integration' ), $param, (string) $value )
			);
		}
		return true;
	}

	/**
	 * `after_id`: the schema, and only as part of the sync order's cursor.
	 *
	 * @param mixed           $value   Value.
	 * @param WP_REST_Request $request Request.
	 * @param string          $param   Name.
	 * @return true|WP_Error
	 */
	public function validate_after_id( $value, $request, $param ) {
		$valid = rest_validate_request_arg( $value, $request, $param );
		if ( true !== $valid ) {
			return $valid;
		}
		if ( ! self::is_sync( $request->get_param( 'orderby' ) ) || null === $request->get_param( 'paid_after' ) ) {
			return new WP_Error( 'rest_invalid_param', __( 'after_id is part of the cursor of the sync order: send it with orderby=paid_at and paid_after.', 'service-integration' ) );
		}
		return true;
	}

	/**
	 * Settle delay of the sync order, in seconds.
	 */
	private static function settle_seconds(): int {
		/**
		 * Filters how long after its paid moment an order appears in the sync order.
		 *
		 * @since 0.1.0
		 *
		 * @param int $seconds Seconds (default 5).
		 */
		return max( 0, (int) apply_filters( 'service_integration_paid_orders_settle_seconds', self::SETTLE_SECONDS ) );
	}
}

<?php
/**
 * REST: the paid-orders index's state, and a rebuild (administrators).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Commerce\Paid_Order_Index;
use ServiceIntegration\Commerce\Paid_Order_Index_Walk;
use ServiceIntegration\Commerce\Paid_Orders;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * GET /paid-orders/index: whether the index serves the paid-orders route, its walk and its
 * rows. POST /paid-orders/index/rebuild: walks every order again, as the daily check does
 * (Paid_Order_Index_Walk::check()), now; with keep_serving false the route reads WooCommerce
 * directly until the walk has finished, for an index one no longer trusts.
 */
final class Paid_Order_Index_Controller extends Controller {

	/**
	 * The routes' base.
	 *
	 * @var string
	 */
	protected $rest_base = 'paid-orders/index';

	/**
	 * Administrators only.
	 *
	 * @var string[]
	 */
	protected array $capabilities = array( 'manage_options' );

	/**
	 * Constructor.
	 *
	 * @param Paid_Order_Index      $index The index.
	 * @param Paid_Order_Index_Walk $walk  Its walk, which a rebuild starts.
	 */
	public function __construct( private Paid_Order_Index $index, private Paid_Order_Index_Walk $walk ) {}

	/**
	 * Registers the routes.
	 */
	public function register_routes(): void {
		$keep_serving = array(
			'keep_serving' => array(
				'description' => __( 'Whether the index keeps serving the paid-orders route during the walk (false: WooCommerce is read directly until it has finished).', 'service-integration' ),
				'type'        => 'boolean',
				'default'     => true,
			),
		);
		$this->register_route( '', array( $this->endpoint( WP_REST_Server::READABLE, 'get_item', $this->context_args() ) ) );
		$this->register_route( '/rebuild', array( $this->endpoint( WP_REST_Server::CREATABLE, 'rebuild', $keep_serving ) ) );
	}

	/**
	 * The index's state.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error 500 service_integration_database_error when the table cannot be read.
	 */
	public function get_item( $request ) {
		$state = $this->state();
		return is_wp_error( $state ) ? $state : $this->view_response( $state, $request );
	}

	/**
	 * Starts a walk of every order; 503 without WooCommerce (nothing to walk).
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function rebuild( $request ) {
		if ( ! Paid_Orders::is_available() ) {
			return new WP_Error(
				'commerce_unavailable',
				__( 'WooCommerce is not active on this site, so there are no orders to index. Activate WooCommerce and retry.', 'service-integration' ),
				array( 'status' => 503 )
			);
		}
		$this->walk->restart( (bool) $request['keep_serving'] );
		$state = $this->state();
		return is_wp_error( $state ) ? $state : $this->view_response( $state, $request, 202 );
	}

	/**
	 * What both routes answer.
	 *
	 * @return array<string, mixed>|WP_Error The error when the table cannot be read.
	 */
	private function state() {
		$rows = $this->index->row_count();
		if ( is_wp_error( $rows ) ) {
			return $rows;
		}
		$available = Paid_Orders::is_available();
		$serving   = $available && $this->index->is_ready( Paid_Orders::paid_statuses(), Paid_Orders::order_source() );
		$state     = $this->index->state();
		return array(
			'commerce_available' => $available,
			'serving'            => $serving,
			'walking'            => null !== $state['walk'],
			'walk_position'      => $state['walk'],
			'generation'         => $state['generation'],
			'walked_at'          => $state['walked_at'] ? gmdate( 'c', $state['walked_at'] ) : null,
			'rows'               => $rows,
			'statuses'           => $state['statuses'],
			'source'             => (object) $state['source'],
		);
	}

	/**
	 * What the routes answer.
	 *
	 * @return array<string, mixed>
	 */
	protected function item_schema(): array {
		return Schemas\Paid_Order_Index::state();
	}
}

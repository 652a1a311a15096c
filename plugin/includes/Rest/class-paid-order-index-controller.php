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

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * GET /paid-orders/index: whether the index serves the paid-orders route, its walk and its
 * rows. POST /paid-orders/index/rebuild: walks every order again, as the daily check does
 * (Paid_Order_Index_Walk::check()), now; with keep_serving false the route reads WooCommerce
 * directly until the walk has finished, for an index one no longer trusts.
 */
final class Paid_Order_Index_Controller extends View_Controller {

	/**
	 * Constructor.
	 *
	 * @param Paid_Order_Index      $index The index.
	 * @param Paid_Order_Index_Walk $walk  Its walk, which a rebuild starts.
	 */
	public function __construct( private Paid_Order_Index $index, private Paid_Order_Index_Walk $walk ) {
		$this->namespace = REST_NAMESPACE;
		$this->rest_base = 'paid-orders/index';
	}

	/**
	 * Registers the routes.
	 */
	public function register_routes(): void {
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base,
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_item' ),
					'permission_callback' => array( $this, 'get_item_permissions_check' ),
					'args'                => $this->context_args(),
				),
				'schema' => array( $this, 'get_public_item_schema' ),
			)
		);
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base . '/rebuild',
			array(
				array(
					'methods'             => WP_REST_Server::CREATABLE,
					'callback'            => array( $this, 'rebuild' ),
					'permission_callback' => array( $this, 'get_item_permissions_check' ),
					'args'                => array(
						'keep_serving' => array(
							'description' => __( 'Whether the index keeps serving the paid-orders route during the walk (false: WooCommerce is read directly until it has finished).', 'service-integration' ),
							'type'        => 'boolean',
							'default'     => true,
						),
					),
				),
				'schema' => array( $this, 'get_public_item_schema' ),
			)
		);
	}

	/**
	 * Administrators only.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|WP_Error
	 */
	public function get_item_permissions_check( $request ) {
		return Permissions::require_capability( 'manage_options' );
	}

	/**
	 * The index's state.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error 500 service_integration_database_error when the table cannot be read.
	 */
	public function get_item( $request ) {
		$state = $this->state();
		return is_wp_error( $state ) ? $state : new WP_REST_Response( $this->view_data( $state, $request ) );
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
		return is_wp_error( $state ) ? $state : new WP_REST_Response( $this->view_data( $state, $request ), 202 );
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
	public function get_item_schema() {
		if ( ! $this->schema ) {
			$this->schema = Schemas\Paid_Order_Index::state();
		}
		return $this->add_additional_fields_schema( $this->schema );
	}
}

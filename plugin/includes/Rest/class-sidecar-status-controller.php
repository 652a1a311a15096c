<?php
/**
 * REST: the sidecar's health as seen from WordPress (administrators).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Sidecar\Sidecar_Client;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * GET /service-integration/v1/sidecar/status: proves the signed round trip works.
 */
final class Sidecar_Status_Controller extends View_Controller {

	/**
	 * Constructor.
	 *
	 * @param Sidecar_Client $sidecar Sidecar client.
	 */
	public function __construct( private Sidecar_Client $sidecar ) {
		$this->namespace = REST_NAMESPACE;
		$this->rest_base = 'sidecar/status';
	}

	/**
	 * Registers the route.
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
	 * Asks the sidecar for its status over the signed channel.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_item( $request ) {
		$answer = $this->sidecar->request_json( 'GET', '/v1/status' );
		if ( is_wp_error( $answer ) ) {
			$answer->add_data(
				array_merge( (array) $answer->get_error_data(), array( 'sidecar_url' => $this->sidecar->base_url() ) )
			);
			return $answer;
		}
		$status              = is_array( $answer['body'] ) ? $answer['body'] : array();
		$status['reachable'] = true;
		$status['url']       = $this->sidecar->base_url();
		return new WP_REST_Response( $this->view_data( $status, $request ), 200 );
	}

	/**
	 * Schema of what WordPress adds to the sidecar's status (the rest is the sidecar's).
	 *
	 * @return array<string, mixed>
	 */
	public function get_item_schema() {
		if ( ! $this->schema ) {
			$this->schema = Schemas\Sidecar::status();
		}
		return $this->add_additional_fields_schema( $this->schema );
	}
}

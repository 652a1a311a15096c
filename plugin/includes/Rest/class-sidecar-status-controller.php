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

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * GET /service-integration/v1/sidecar/status: proves the signed round trip works.
 */
final class Sidecar_Status_Controller extends Controller {

	/**
	 * The route's base.
	 *
	 * @var string
	 */
	protected $rest_base = 'sidecar/status';

	/**
	 * Administrators only.
	 *
	 * @var string[]
	 */
	protected array $capabilities = array( 'manage_options' );

	/**
	 * Constructor.
	 *
	 * @param Sidecar_Client $sidecar Sidecar client.
	 */
	public function __construct( private Sidecar_Client $sidecar ) {}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		$this->register_route( '', array( $this->endpoint( WP_REST_Server::READABLE, 'get_item', $this->context_args() ) ) );
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
		return $this->view_response( $status, $request );
	}

	/**
	 * Schema of what WordPress adds to the sidecar's status (the rest is the sidecar's).
	 *
	 * @return array<string, mixed>
	 */
	protected function item_schema(): array {
		return Schemas\Sidecar::status();
	}
}

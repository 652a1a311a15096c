<?php
/**
 * REST: the plugin's Site Health tests, which Site Health fetches asynchronously.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Admin\Site_Health;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * GET /service-integration/v1/site-health/<test>: one test's result, for whoever may view
 * Site Health (core's view_site_health_checks).
 */
final class Site_Health_Controller extends View_Controller {

	/**
	 * Constructor.
	 *
	 * @param Site_Health $site_health The tests.
	 */
	public function __construct( private Site_Health $site_health ) {
		$this->namespace = REST_NAMESPACE;
		$this->rest_base = 'site-health';
	}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base . '/(?P<test>' . implode( '|', Site_Health::TESTS ) . ')',
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_item' ),
					'permission_callback' => array( $this, 'get_item_permissions_check' ),
					'args'                => array_merge(
						array(
							'test' => array(
								'description' => __( 'Which test to run.', 'service-integration' ),
								'type'        => 'string',
								'enum'        => Site_Health::TESTS,
							),
						),
						$this->context_args()
					),
				),
				'schema' => array( $this, 'get_public_item_schema' ),
			)
		);
	}

	/**
	 * Whoever may view Site Health.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|\WP_Error
	 */
	public function get_item_permissions_check( $request ) {
		return Permissions::require_capability( 'view_site_health_checks' );
	}

	/**
	 * Runs the test.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response
	 */
	public function get_item( $request ) {
		return new WP_REST_Response( $this->view_data( $this->site_health->run( (string) $request['test'] ), $request ), 200 );
	}

	/**
	 * Site Health's result shape.
	 *
	 * @return array<string, mixed>
	 */
	public function get_item_schema() {
		if ( ! $this->schema ) {
			$this->schema = Schemas\Site_Health_Result::result();
		}
		return $this->add_additional_fields_schema( $this->schema );
	}
}

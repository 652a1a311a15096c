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

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * GET /service-integration/v1/site-health/<test>: one test's result, for whoever may view
 * Site Health (core's view_site_health_checks).
 */
final class Site_Health_Controller extends Controller {

	/**
	 * The route's base.
	 *
	 * @var string
	 */
	protected $rest_base = 'site-health';

	/**
	 * Whoever may view Site Health.
	 *
	 * @var string[]
	 */
	protected array $capabilities = array( 'view_site_health_checks' );

	/**
	 * Constructor.
	 *
	 * @param Site_Health $site_health The tests.
	 */
	public function __construct( private Site_Health $site_health ) {}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		$test = array(
			'test' => array(
				'description' => __( 'Which test to run.', 'service-integration' ),
				'type'        => 'string',
				'enum'        => Site_Health::TESTS,
			),
		);
		$this->register_route(
			'/(?P<test>' . implode( '|', Site_Health::TESTS ) . ')',
			array( $this->endpoint( WP_REST_Server::READABLE, 'get_item', array_merge( $test, $this->context_args() ) ) )
		);
	}

	/**
	 * Runs the test.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response
	 */
	public function get_item( $request ) {
		return $this->view_response( $this->site_health->run( (string) $request['test'] ), $request );
	}

	/**
	 * Site Health's result shape.
	 *
	 * @return array<string, mixed>
	 */
	protected function item_schema(): array {
		return Schemas\Site_Health_Result::result();
	}
}

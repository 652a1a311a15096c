<?php
/**
 * REST: administrators manage outbound endpoints and deliveries, through the sidecar.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Outbound\Endpoint_Notices;
use ServiceIntegration\Outbound\Hand_Over;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Sidecar\Sidecar_Client;
use WP_REST_Controller;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The sidecar owns endpoints, secrets and the delivery log (secrets stay out of the
 * WordPress database); these routes forward an administrator's calls over the signed
 * channel and pass the sidecar's answer, or its error, through unchanged.
 */
final class Webhooks_Controller extends WP_REST_Controller {

	const ID = '(?P<id>[A-Za-z0-9_:-]{1,100})';

	/**
	 * Constructor.
	 *
	 * @param Sidecar_Client $sidecar Client.
	 */
	public function __construct( private Sidecar_Client $sidecar ) {
		$this->namespace = REST_NAMESPACE;
		$this->rest_base = 'webhooks';
	}

	/**
	 * Registers the routes: route => methods, each forwarded to the same sidecar path under /v1.
	 */
	public function register_routes(): void {
		$routes = array(
			'/endpoints'                         => 'GET, POST',
			'/endpoints/' . self::ID             => 'GET, PATCH, DELETE',
			'/endpoints/' . self::ID . '/rotate-secret' => 'POST',
			'/endpoints/' . self::ID . '/enable' => 'POST',
			'/endpoints/' . self::ID . '/disable' => 'POST',
			'/deliveries'                        => 'GET',
			'/events/' . self::ID                => 'GET',
			'/events/' . self::ID . '/replay'    => 'POST',
			'/replay'                            => 'POST',
		);
		foreach ( $routes as $route => $methods ) {
			register_rest_route(
				$this->namespace,
				'/' . $this->rest_base . $route,
				array(
					'methods'             => $methods,
					'callback'            => array( $this, 'forward' ),
					'permission_callback' => array( $this, 'permissions_check' ),
				)
			);
		}
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base . '/outbox',
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'outbox' ),
					'permission_callback' => array( $this, 'permissions_check' ),
				),
				array(
					'methods'             => WP_REST_Server::CREATABLE,
					'callback'            => array( $this, 'flush_outbox' ),
					'permission_callback' => array( $this, 'permissions_check' ),
				),
			)
		);
	}

	/**
	 * Administrators only.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|\WP_Error
	 */
	public function permissions_check( $request ) {
		return Permissions::require_capability( 'manage_options' );
	}

	/**
	 * Forwards the call to the sidecar.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|\WP_Error
	 */
	public function forward( $request ) {
		$prefix = '/' . $this->namespace . '/' . $this->rest_base;
		$path   = '/v1' . substr( $request->get_route(), strlen( $prefix ) );
		$query  = $request->get_query_params();
		unset( $query['_locale'], $query['rest_route'] );
		if ( $query ) {
			$path .= '?' . http_build_query( $query );
		}
		$method = $request->get_method();
		$body   = in_array( $method, array( 'POST', 'PATCH', 'PUT' ), true ) ? (string) wp_json_encode( (object) ( $request->get_json_params() ?? array() ) ) : '';

		$answer = $this->sidecar->request( $method, $path, $body );
		if ( is_wp_error( $answer ) ) {
			return $answer;
		}
		// The admin notice of a disabled endpoint goes once it is enabled again or deleted
		// (a 404 on delete: it was gone already). A deletion is remembered, so that a notice
		// the sidecar sent or retried before it, arriving late, does not bring it back.
		if ( $answer['status'] < 400 && preg_match( '#^/v1/endpoints/([^/?]+)/enable$#', $path, $match ) ) {
			Endpoint_Notices::forget( $match[1] );
		} elseif ( 'DELETE' === $method && ( $answer['status'] < 400 || 404 === $answer['status'] ) && preg_match( '#^/v1/endpoints/([^/?]+)$#', $path, $match ) ) {
			Endpoint_Notices::deleted( $match[1] );
		}
		$response = new WP_REST_Response( $answer['body'], $answer['status'] );
		if ( is_array( $answer['body'] ) && isset( $answer['body']['secret'] ) ) {
			$response->header( 'Cache-Control', 'no-store' );
		}
		return $response;
	}

	/**
	 * Outbox counts.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function outbox( $request ): WP_REST_Response {
		return new WP_REST_Response( Outbox::counts() );
	}

	/**
	 * Hands pending events to the sidecar now (the cron does it every minute). Waits up to
	 * 5 s for a hand-over already running elsewhere, then answers 409 hand_over_in_progress.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function flush_outbox( $request ): WP_REST_Response {
		$result = Hand_Over::flush( Hand_Over::MAX_BATCHES, 5.0 );
		$status = 200;
		if ( Hand_Over::BUSY === $result['error'] ) {
			$status = 409;
		} elseif ( null !== $result['error'] ) {
			$status = 503;
		}
		return new WP_REST_Response( array_merge( $result, Outbox::counts() ), $status );
	}
}

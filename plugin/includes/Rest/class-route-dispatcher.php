<?php
/**
 * Runs one of the site's REST routes in-process, as the current user.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use WP_Error;
use WP_REST_Request;
use WP_REST_Response;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The one in-process dispatcher: WP-CLI's commands (Cli\Rest_Runner) and the abilities build the
 * request a route takes and dispatch it with rest_do_request(), so the route's validation,
 * permission checks, the capability clamp and every filter of the route apply as they do over
 * HTTP. A body goes as JSON, as the admin page sends it.
 */
final class Route_Dispatcher {

	/**
	 * Dispatches a request and answers the route's response, an error answer included.
	 *
	 * @param string                $method  HTTP method.
	 * @param string                $route   Full route, e.g. /wp/v2/commandes-fabrication.
	 * @param array<string, mixed>  $params  Query parameters (GET) or body parameters.
	 * @param array<string, string> $headers Request headers.
	 */
	public static function dispatch( string $method, string $route, array $params = array(), array $headers = array() ): WP_REST_Response {
		$request = new WP_REST_Request( $method, $route );
		if ( 'GET' === $method ) {
			$request->set_query_params( $params );
		} else {
			$request->set_header( 'Content-Type', 'application/json' );
			$request->set_body( (string) wp_json_encode( (object) $params ) );
		}
		foreach ( $headers as $name => $value ) {
			$request->set_header( $name, $value );
		}
		return rest_do_request( $request );
	}

	/**
	 * Dispatches a request; an error answer becomes the WP_Error the route gave, with its code,
	 * message and status (what an ability returns).
	 *
	 * @param string                $method  HTTP method.
	 * @param string                $route   Full route.
	 * @param array<string, mixed>  $params  Query parameters (GET) or body parameters.
	 * @param array<string, string> $headers Request headers.
	 * @return WP_REST_Response|WP_Error
	 */
	public static function dispatch_or_error( string $method, string $route, array $params = array(), array $headers = array() ) {
		$response = self::dispatch( $method, $route, $params, $headers );
		return $response->is_error() ? $response->as_error() : $response;
	}
}

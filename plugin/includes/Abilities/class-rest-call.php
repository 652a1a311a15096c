<?php
/**
 * Runs an ability through the plugin's REST route it stands for.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Abilities;

use WP_Error;
use WP_REST_Request;
use WP_REST_Response;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One code path: an ability builds the request its route takes and dispatches it in-process
 * (rest_do_request), so the route's validation, permission checks, the capability clamp and
 * every filter of the route apply as they do over HTTP. An error answer becomes the WP_Error
 * the route gave, with its code, message and status.
 */
final class Rest_Call {

	/**
	 * Dispatches a request as the current user.
	 *
	 * @param string                $method  HTTP method.
	 * @param string                $route   Route, e.g. /wp/v2/commandes-fabrication.
	 * @param array<string, mixed>  $params  Query parameters (GET) or body parameters.
	 * @param array<string, string> $headers Request headers.
	 * @return WP_REST_Response|WP_Error
	 */
	public static function dispatch( string $method, string $route, array $params = array(), array $headers = array() ) {
		$request = new WP_REST_Request( $method, $route );
		if ( 'GET' === $method ) {
			$request->set_query_params( $params );
		} else {
			$request->set_body_params( $params );
		}
		foreach ( $headers as $name => $value ) {
			$request->set_header( $name, $value );
		}
		$response = rest_do_request( $request );
		return $response->is_error() ? $response->as_error() : $response;
	}
}

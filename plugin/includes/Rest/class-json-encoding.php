<?php
/**
 * How the plugin's REST answers are encoded.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The plugin's routes answer with unescaped slashes. WordPress encodes "/" as "\/" by default,
 * which JSON allows, but a person reading curl's output copies a webhook secret such as
 * "whsec_ab\/cd" by eye and gets one that never verifies; URLs read the same way.
 */
final class Json_Encoding {

	/**
	 * Hooks the encoding options of WP_REST_Server::serve_request() (WordPress 6.1+).
	 */
	public static function register(): void {
		add_filter( 'rest_json_encode_options', array( self::class, 'options' ), 10, 2 );
	}

	/**
	 * Adds JSON_UNESCAPED_SLASHES for requests to the plugin's namespace, and for nothing else.
	 *
	 * @param int              $options json_encode() options.
	 * @param \WP_REST_Request $request The request being answered.
	 */
	public static function options( $options, $request ): int {
		$route = $request instanceof \WP_REST_Request ? $request->get_route() : '';
		if ( 0 === strpos( $route, '/' . REST_NAMESPACE . '/' ) ) {
			return (int) $options | JSON_UNESCAPED_SLASHES;
		}
		return (int) $options;
	}
}

<?php
/**
 * REST: administrators' calls to the sidecar (endpoints, deliveries, events, inbound sources
 * and their log), from one route table.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Inbound\Inbound_Route;
use ServiceIntegration\Sidecar_Contract;
use ServiceIntegration\Sidecar\Sidecar_Client;
use ServiceIntegration\Sidecar\Sidecar_Messages;
use WP_Error;
use WP_REST_Controller;
use WP_REST_Request;
use WP_REST_Response;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The sidecar owns endpoints, sources, their secrets and the delivery log (secrets stay out
 * of the WordPress database). Each route of the table (Sidecar_Proxy_Routes) forwards an
 * administrator's call over the signed channel to its sidecar path and passes the answer, or
 * its error: a refusal goes on with its code and data, its English message replaced by the
 * translated one (Sidecar_Messages). The sidecar checks every field; the arguments registered
 * here describe them (OPTIONS), and are checked here too only where a route asks for it.
 */
final class Sidecar_Proxy_Controller extends WP_REST_Controller {

	/** Query parameters that belong to WordPress's REST server, never forwarded. */
	const WORDPRESS_QUERY_PARAMS = array( 'rest_route', '_locale', '_method', '_envelope', '_fields', '_embed', '_jsonp' );

	/**
	 * Sidecar_Contract::responses(), once made.
	 *
	 * @var array<string, array<string, mixed>>|null
	 */
	private ?array $responses = null;

	/**
	 * Constructor.
	 *
	 * @param Sidecar_Client                      $sidecar Client.
	 * @param array<string, array<string, mixed>> $routes  Route table (Sidecar_Proxy_Routes::all()).
	 */
	public function __construct( private Sidecar_Client $sidecar, private array $routes ) {
		$this->namespace = REST_NAMESPACE;
	}

	/**
	 * Registers every route of the table.
	 */
	public function register_routes(): void {
		foreach ( $this->routes as $route => $definition ) {
			$handlers = array();
			foreach ( $definition['methods'] as $method => $options ) {
				$handlers[] = array(
					'methods'             => $method,
					'callback'            => fn( WP_REST_Request $request ) => $this->forward( $definition, $options, $request ),
					'permission_callback' => array( $this, 'permissions_check' ),
					'args'                => empty( $definition['validate'] ) ? Route_Args::described( $options['args'] ?? array() ) : ( $options['args'] ?? array() ),
				);
			}
			if ( ! empty( $definition['refuse_other_methods'] ) ) {
				$allowed    = array_keys( $definition['methods'] );
				$handlers[] = array(
					'methods'             => implode( ', ', array_diff( array( 'GET', 'POST', 'PUT', 'PATCH', 'DELETE' ), $allowed ) ),
					'callback'            => static fn( WP_REST_Request $request ) => self::method_not_allowed( $request, $allowed ),
					'permission_callback' => array( $this, 'permissions_check' ),
					'args'                => array(),
				);
			}
			$title              = (string) $definition['schema'];
			$handlers['schema'] = fn(): array => array( '$schema' => 'http://json-schema.org/draft-04/schema#' ) + $this->responses()[ $title ];
			register_rest_route( $this->namespace, $route, $handlers );
		}
	}

	/**
	 * The routes' response schemas, made once and only when a schema is asked for (OPTIONS, the
	 * route index): they hold a few hundred translated descriptions.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	private function responses(): array {
		$this->responses ??= Sidecar_Contract::responses();
		return $this->responses;
	}

	/**
	 * Administrators only.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|WP_Error
	 */
	public function permissions_check( $request ) {
		return Permissions::require_capability( 'manage_options' );
	}

	/**
	 * Forwards one call to the sidecar.
	 *
	 * @param array<string, mixed> $definition The route's entry in the table.
	 * @param array<string, mixed> $options    The method's entry.
	 * @param WP_REST_Request      $request    Request.
	 * @return WP_REST_Response|WP_Error
	 */
	private function forward( array $definition, array $options, WP_REST_Request $request ) {
		$path   = self::sidecar_path( (string) $definition['sidecar'], $request->get_url_params(), $request->get_query_params() );
		$method = (string) ( $options['sidecar_method'] ?? $request->get_method() );
		$body   = in_array( $method, array( 'POST', 'PATCH', 'PUT' ), true ) ? (string) wp_json_encode( (object) ( $request->get_json_params() ?? array() ) ) : '';

		$answer = $this->sidecar->request( $method, $path, $body );
		if ( is_wp_error( $answer ) ) {
			return $answer;
		}
		$payload = $answer['body'];
		if ( $answer['status'] >= 400 ) {
			return Sidecar_Messages::refusal( $answer['status'], $payload );
		}
		if ( ! empty( $definition['receiving_url'] ) && $answer['status'] < 400 ) {
			$payload = self::with_receiving_urls( $payload );
		}
		$response = new WP_REST_Response( $payload, $answer['status'] );
		if ( is_array( $payload ) && isset( $payload['secret'] ) ) {
			$response->header( 'Cache-Control', 'no-store' );
		}
		return $response;
	}

	/**
	 * The sidecar path of a call: the table's path with the URL's ids put in, and the
	 * caller's query (WordPress's own parameters left out).
	 *
	 * @param string               $template Sidecar path, e.g. /v1/endpoints/{id}.
	 * @param array<string, mixed> $url      URL parameters of the matched route.
	 * @param array<string, mixed> $query    Query parameters.
	 */
	public static function sidecar_path( string $template, array $url, array $query ): string {
		$path  = preg_replace_callback(
			'/\{(\w+)\}/',
			static fn( array $name ): string => rawurlencode( (string) ( $url[ $name[1] ] ?? '' ) ),
			$template
		);
		$query = array_diff_key( $query, array_flip( self::WORDPRESS_QUERY_PARAMS ) );
		return $query ? $path . '?' . http_build_query( $query ) : $path;
	}

	/**
	 * Adds to a source, or to each source of a list, the URL its provider must send to.
	 *
	 * @param mixed $payload The sidecar's answer.
	 * @return mixed
	 */
	private static function with_receiving_urls( $payload ) {
		if ( ! is_array( $payload ) ) {
			return $payload;
		}
		if ( isset( $payload['sources'] ) && is_array( $payload['sources'] ) ) {
			$payload['sources'] = array_map( array( self::class, 'with_receiving_urls' ), $payload['sources'] );
		} elseif ( isset( $payload['id'] ) && is_string( $payload['id'] ) ) {
			$payload['receiving_url'] = Inbound_Route::receiving_url( $payload['id'] );
		}
		return $payload;
	}

	/**
	 * 405 with Allow for a method the route does not take (rather than core's 404).
	 *
	 * @param WP_REST_Request $request Request.
	 * @param string[]        $allowed Methods the route takes.
	 */
	private static function method_not_allowed( WP_REST_Request $request, array $allowed ): WP_REST_Response {
		$response = rest_convert_error_to_response(
			new WP_Error(
				'method_not_allowed',
				/* translators: 1: HTTP method, 2: the methods allowed. */
				sprintf( __( '%1$s is not allowed here; use %2$s.', 'service-integration' ), $request->get_method(), implode( ', ', $allowed ) ),
				array(
					'status'  => 405,
					'allowed' => $allowed,
				)
			)
		);
		$response->header( 'Allow', implode( ', ', $allowed ) );
		return $response;
	}
}

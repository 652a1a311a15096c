<?php
/**
 * What the plugin's REST controllers share, as WordPress core's share WP_REST_Controller.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use WP_Error;
use WP_REST_Controller;
use WP_REST_Request;
use WP_REST_Response;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A controller keeps only its routes: their paths, arguments, callbacks and schema. Here are the
 * namespace, the one permission check of all its routes, its item schema made once, and answers
 * that follow their schema's contexts as core's do: `_fields` works on every route (core's
 * rest_filter_response_fields); `context` and the fields other plugins register
 * (register_rest_field) need the answer shaped here.
 */
abstract class Controller extends WP_REST_Controller {

	/**
	 * The namespace of every route.
	 *
	 * @var string
	 */
	protected $namespace = REST_NAMESPACE;

	/**
	 * What the caller must hold, every one, on each route of the controller (core's answer
	 * otherwise: rest_forbidden, 401 anonymous, 403 logged in). Each controller says it; one whose
	 * callers are not told by capabilities overrides permissions_check() instead. Left unset, a
	 * route fails rather than opens.
	 *
	 * @var string[]
	 */
	protected array $capabilities;

	/**
	 * The item schema, without the fields other plugins registered.
	 *
	 * @return array<string, mixed>
	 */
	abstract protected function item_schema(): array;

	/**
	 * Who may call the controller's routes.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|WP_Error
	 */
	public function permissions_check( $request ) {
		return Permissions::require_capability( ...$this->capabilities );
	}

	/**
	 * The item schema, made once (its descriptions are translated), with the registered fields.
	 *
	 * @return array<string, mixed>
	 */
	public function get_item_schema() {
		$this->schema ??= $this->item_schema();
		return $this->add_additional_fields_schema( $this->schema );
	}

	/**
	 * Registers one route below the controller's base, with the schema OPTIONS shows.
	 *
	 * @param string                           $path      What follows rest_base ('' for the base itself).
	 * @param array<int, array<string, mixed>> $endpoints The route's endpoints (endpoint()).
	 * @param callable|null                    $schema    The route's schema when it is not the item schema.
	 */
	protected function register_route( string $path, array $endpoints, ?callable $schema = null ): void {
		$endpoints['schema'] = $schema ?? array( $this, 'get_public_item_schema' );
		register_rest_route( $this->namespace, '/' . $this->rest_base . $path, $endpoints );
	}

	/**
	 * One endpoint of a route, behind the controller's permission check.
	 *
	 * @param string                              $methods  HTTP methods (WP_REST_Server's constants).
	 * @param string                              $callback The controller's method that answers.
	 * @param array<string, array<string, mixed>> $args     Arguments.
	 * @return array<string, mixed>
	 */
	protected function endpoint( string $methods, string $callback, array $args = array() ): array {
		return array(
			'methods'             => $methods,
			'callback'            => array( $this, $callback ),
			'permission_callback' => array( $this, 'permissions_check' ),
			'args'                => $args,
		);
	}

	/**
	 * The `context` argument of a route that reads.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	protected function context_args(): array {
		return array( 'context' => $this->get_context_param( array( 'default' => 'view' ) ) );
	}

	/**
	 * The response of an answer, for the request's context (view_data()).
	 *
	 * @param array<string, mixed>      $data    Answer.
	 * @param WP_REST_Request           $request Request.
	 * @param int                       $status  HTTP status.
	 * @param array<string, mixed>|null $schema  The answer's schema when it is not the item schema.
	 */
	protected function view_response( array $data, WP_REST_Request $request, int $status = 200, ?array $schema = null ): WP_REST_Response {
		return new WP_REST_Response( $this->view_data( $data, $request, $schema ), $status );
	}

	/**
	 * The answer for the request's context: an item of the controller's own schema gets the
	 * registered additional fields; an answer of another schema (a route of the same
	 * controller answering something else) is filtered by that schema.
	 *
	 * @param array<string, mixed>      $data    Answer.
	 * @param WP_REST_Request           $request Request.
	 * @param array<string, mixed>|null $schema  The answer's schema when it is not the item schema.
	 * @return array<string, mixed>
	 */
	protected function view_data( array $data, WP_REST_Request $request, ?array $schema = null ): array {
		// Only a route that takes `context` (validated against the schema's) reads it: elsewhere a
		// stray ?context= would filter every field out.
		$attributes = $request->get_attributes();
		$context    = isset( $attributes['args']['context'] ) && ! empty( $request['context'] ) ? (string) $request['context'] : 'view';
		if ( null !== $schema ) {
			return (array) rest_filter_response_by_context( $data, $schema, $context );
		}
		$data = $this->add_additional_fields_to_object( $data, $request );
		return (array) $this->filter_response_by_context( $data, $context );
	}
}

<?php
/**
 * A REST controller whose answers follow their schema's contexts, as WordPress core's do.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use WP_REST_Controller;
use WP_REST_Request;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * `_fields` works on every route (core's rest_filter_response_fields); `context` and the fields
 * other plugins register (register_rest_field) need the answer shaped here.
 */
abstract class View_Controller extends WP_REST_Controller {

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

	/**
	 * The `context` argument of a route that reads.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	protected function context_args(): array {
		return array( 'context' => $this->get_context_param( array( 'default' => 'view' ) ) );
	}
}

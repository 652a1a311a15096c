<?php
/**
 * Ability service-integration/create-manufacturing-order: POST /wp/v2/commandes-fabrication.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Abilities;

use ServiceIntegration\Manufacturing\Manufacturing_Order_Type;
use ServiceIntegration\Rest\Permissions;
use ServiceIntegration\Rest\Route_Dispatcher;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Creates a manufacturing order through its REST route: the route validates the status and
 * every custom field before anything is written, and answers the record as it does over
 * HTTP. `idempotency_key` is sent as the route's `Idempotency-Key` header, so a retried call
 * gets whatever the route does with that header (the same record, when it keeps keys).
 */
final class Create_Manufacturing_Order {

	const NAME = 'service-integration/create-manufacturing-order';

	/**
	 * Registration args.
	 *
	 * @return array<string, mixed>
	 */
	public static function args(): array {
		$schema = Manufacturing_Order_Type::rest_item_schema();
		return array(
			'label'               => __( 'Create a manufacturing order', 'service-integration' ),
			'description'         => __( 'Creates a manufacturing order (title, status and custom fields: source order, items, due date, priority, notes) through its REST route, with the same validation: an invalid field is refused by name and nothing is written.', 'service-integration' ),
			'input_schema'        => array(
				// No input is an empty one, so a missing title is refused by name.
				'default'              => array(),
				'type'                 => 'object',
				'additionalProperties' => false,
				'required'             => array( 'title' ),
				'properties'           => array(
					// The route takes the title as a plain string too (core's posts controller).
					'title'           => array(
						'description' => $schema['properties']['title']['description'] ?? '',
						'type'        => 'string',
						'minLength'   => 1,
					),
					'status'          => Rest_Schema::input( $schema['properties']['status'] ),
					'meta'            => Rest_Schema::input( $schema['properties']['meta'] ),
					'idempotency_key' => array(
						'description' => __( 'Optional. Sent as the Idempotency-Key header of the REST route, so a call retried with the same key is handled as the route handles a repeated key.', 'service-integration' ),
						'type'        => 'string',
						'minLength'   => 1,
					),
				),
			),
			'output_schema'       => Rest_Schema::output( $schema ),
			'execute_callback'    => array( self::class, 'execute' ),
			'permission_callback' => static fn() => Permissions::require_capability( get_post_type_object( Manufacturing_Order_Type::POST_TYPE )->cap->create_posts ),
			'meta'                => Abilities::meta(
				array(
					'readonly'    => false,
					'destructive' => false,
					'idempotent'  => false,
				)
			),
		);
	}

	/**
	 * Runs the route.
	 *
	 * @param array<string, mixed>|null $input Validated input.
	 * @return array<string, mixed>|WP_Error The record as the route answers it.
	 */
	public static function execute( $input = null ) {
		$params  = is_array( $input ) ? $input : array();
		$headers = array();
		if ( isset( $params['idempotency_key'] ) ) {
			$headers['Idempotency-Key'] = (string) $params['idempotency_key'];
		}
		unset( $params['idempotency_key'] );
		$response = Route_Dispatcher::dispatch_or_error( 'POST', Manufacturing_Order_Type::rest_route(), $params, $headers );
		return is_wp_error( $response ) ? $response : (array) $response->get_data();
	}
}

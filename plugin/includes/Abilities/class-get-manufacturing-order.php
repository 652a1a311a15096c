<?php
/**
 * Ability service-integration/get-manufacturing-order: GET /wp/v2/commandes-fabrication/<id>.
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
 * Reads one manufacturing order through its REST route, which lets an author read only their
 * own records (administrators read all).
 */
final class Get_Manufacturing_Order {

	const NAME = 'service-integration/get-manufacturing-order';

	/**
	 * Registration args.
	 *
	 * @return array<string, mixed>
	 */
	public static function args(): array {
		$schema = Manufacturing_Order_Type::rest_item_schema();
		return array(
			'label'               => __( 'Get a manufacturing order', 'service-integration' ),
			'description'         => __( 'Reads one manufacturing order by its ID, with its custom fields, through its REST route: an automation reads only the records it created.', 'service-integration' ),
			'input_schema'        => array(
				// No input is an empty one, so a missing id is refused by name.
				'default'              => array(),
				'type'                 => 'object',
				'additionalProperties' => false,
				'required'             => array( 'id' ),
				'properties'           => array(
					'id' => Rest_Schema::input( $schema['properties']['id'] ),
				),
			),
			'output_schema'       => Rest_Schema::output( $schema ),
			'execute_callback'    => array( self::class, 'execute' ),
			'permission_callback' => static fn() => Permissions::require_capability( get_post_type_object( Manufacturing_Order_Type::POST_TYPE )->cap->read ),
			'meta'                => Abilities::meta(
				array(
					'readonly'    => true,
					'destructive' => false,
					'idempotent'  => true,
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
		$id       = is_array( $input ) ? (int) ( $input['id'] ?? 0 ) : 0;
		$response = Route_Dispatcher::dispatch_or_error( 'GET', Manufacturing_Order_Type::rest_route() . '/' . $id );
		return is_wp_error( $response ) ? $response : (array) $response->get_data();
	}
}

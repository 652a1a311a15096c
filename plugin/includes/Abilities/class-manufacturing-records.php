<?php
/**
 * Where the manufacturing-order abilities take their route and schema from.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Abilities;

use ServiceIntegration\Manufacturing\Manufacturing_Order_Type;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The post type's own REST controller (Manufacturing_Orders_Controller) and route.
 */
final class Manufacturing_Records {

	/**
	 * The collection route, /wp/v2/commandes-fabrication.
	 */
	public static function route(): string {
		$type = get_post_type_object( Manufacturing_Order_Type::POST_TYPE );
		return '/' . $type->rest_namespace . '/' . Manufacturing_Order_Type::REST_BASE;
	}

	/**
	 * The record's schema as the route documents it (core's fields and the custom fields).
	 *
	 * @return array<string, mixed>
	 */
	public static function item_schema(): array {
		return get_post_type_object( Manufacturing_Order_Type::POST_TYPE )->get_rest_controller()->get_item_schema();
	}
}

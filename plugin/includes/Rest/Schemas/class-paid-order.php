<?php
/**
 * Answer of GET /commandes-payees (Rest\Paid_Orders_Controller).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One paid order; the route offers the view context only.
 */
final class Paid_Order {

	/**
	 * One paid order: everything the route returns, nothing more.
	 *
	 * @return array<string, mixed>
	 */
	public static function order(): array {
		$view = array( 'view' );
		return array(
			'$schema'    => 'http://json-schema.org/draft-04/schema#',
			'title'      => 'commande-payee',
			'type'       => 'object',
			'properties' => array(
				'id'            => array(
					'description' => __( 'Order ID.', 'service-integration' ),
					'type'        => 'integer',
					'context'     => $view,
					'readonly'    => true,
				),
				'number'        => array(
					'description' => __( 'Order number shown to the customer.', 'service-integration' ),
					'type'        => 'string',
					'context'     => $view,
					'readonly'    => true,
				),
				'status'        => array(
					'description' => __( 'Order status, one of the statuses WooCommerce counts as paid (processing, completed by default).', 'service-integration' ),
					'type'        => 'string',
					'context'     => $view,
					'readonly'    => true,
				),
				'date_paid'     => array(
					'description' => __( 'WooCommerce’s payment date, as WooCommerce has it (null until it stamps one: cash on delivery at completion), ISO 8601 in UTC.', 'service-integration' ),
					'type'        => array( 'string', 'null' ),
					'format'      => 'date-time',
					'context'     => $view,
					'readonly'    => true,
				),
				'paid_at'       => array(
					'description' => __( 'When the order was paid: when it first entered a status WooCommerce counts as paid, recorded once and never moved (its date_paid for orders paid before this was recorded); null when unknown. The sync order and the paid_after and paid_before filters use it. ISO 8601 in UTC.', 'service-integration' ),
					'type'        => array( 'string', 'null' ),
					'format'      => 'date-time',
					'context'     => $view,
					'readonly'    => true,
				),
				'date_modified' => array(
					'description' => __( 'When the order last changed, ISO 8601 in UTC.', 'service-integration' ),
					'type'        => array( 'string', 'null' ),
					'format'      => 'date-time',
					'context'     => $view,
					'readonly'    => true,
				),
				'currency'      => array(
					'description' => __( 'Currency, ISO 4217.', 'service-integration' ),
					'type'        => 'string',
					'context'     => $view,
					'readonly'    => true,
				),
				'total'         => array(
					'description' => __( 'Grand total as a decimal string, as WooCommerce gives it.', 'service-integration' ),
					'type'        => 'string',
					'context'     => $view,
					'readonly'    => true,
				),
				'customer'      => array(
					'description' => __( 'Customer (billing name and email).', 'service-integration' ),
					'type'        => 'object',
					'context'     => $view,
					'readonly'    => true,
					'properties'  => array(
						'first_name' => array(
							'description' => __( 'Billing first name.', 'service-integration' ),
							'type'        => 'string',
							'context'     => $view,
						),
						'last_name'  => array(
							'description' => __( 'Billing last name.', 'service-integration' ),
							'type'        => 'string',
							'context'     => $view,
						),
						'email'      => array(
							'description' => __( 'Billing email address.', 'service-integration' ),
							'type'        => 'string',
							'format'      => 'email',
							'context'     => $view,
						),
					),
				),
				'line_items'    => array(
					'description' => __( 'Products to make.', 'service-integration' ),
					'type'        => 'array',
					'context'     => $view,
					'readonly'    => true,
					'items'       => array(
						'type'       => 'object',
						'properties' => array(
							'product_id'   => array(
								'description' => __( 'Product ID.', 'service-integration' ),
								'type'        => 'integer',
								'context'     => $view,
							),
							'variation_id' => array(
								'description' => __( 'Variation ID, 0 for a simple product.', 'service-integration' ),
								'type'        => 'integer',
								'context'     => $view,
							),
							'sku'          => array(
								'description' => __( 'SKU of the product (of the variation when there is one); null if the product no longer exists.', 'service-integration' ),
								'type'        => array( 'string', 'null' ),
								'context'     => $view,
							),
							'name'         => array(
								'description' => __( 'Product name as ordered.', 'service-integration' ),
								'type'        => 'string',
								'context'     => $view,
							),
							'quantity'     => array(
								'description' => __( 'Quantity ordered.', 'service-integration' ),
								'type'        => 'integer',
								'context'     => $view,
							),
						),
					),
				),
			),
		);
	}
}

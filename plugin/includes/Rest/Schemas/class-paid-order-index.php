<?php
/**
 * Answer of the paid-orders index routes (Rest\Paid_Order_Index_Controller).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The index's state.
 */
final class Paid_Order_Index {

	/**
	 * GET /paid-orders/index and POST /paid-orders/index/rebuild.
	 *
	 * @return array<string, mixed>
	 */
	public static function state(): array {
		return Schema::answer(
			'paid-orders-index',
			array(
				'commerce_available' => Schema::field( 'boolean', __( 'Whether WooCommerce is active.', 'service-integration' ) ),
				'serving'            => Schema::field( 'boolean', __( 'Whether the paid-orders route reads the index (false: it reads WooCommerce directly).', 'service-integration' ) ),
				'walking'            => Schema::field( 'boolean', __( 'Whether a walk of every order is under way (in Action Scheduler).', 'service-integration' ) ),
				'walk_position'      => Schema::field( array( 'integer', 'null' ), __( 'The last order ID the walk under way has passed; null when none is under way.', 'service-integration' ) ),
				'generation'         => Schema::field( 'integer', __( 'How many walks have started.', 'service-integration' ) ),
				'walked_at'          => Schema::time_field( __( 'When the last walk finished (UTC).', 'service-integration' ) ),
				'rows'               => Schema::field( 'integer', __( 'Paid orders in the index.', 'service-integration' ) ),
				'statuses'           => Schema::list_field( __( 'The order statuses counted as paid when the index was walked.', 'service-integration' ), array( 'type' => 'string' ) ),
				'source'             => Schema::field( 'object', __( 'The order storage the index was walked from.', 'service-integration' ), array( 'additionalProperties' => array( 'type' => 'string' ) ) ),
			)
		);
	}
}

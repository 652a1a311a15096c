<?php
/**
 * Answer of POST service-integration-inbound/v1/<source> (Inbound\Inbound_Route) to a sender.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What a sender gets: 202 for a new event, 200 for a duplicate or a WooCommerce ping.
 */
final class Inbound_Receipt {

	/**
	 * The receipt.
	 *
	 * @return array<string, mixed>
	 */
	public static function receipt(): array {
		return Schema::answer(
			'inbound-webhook-receipt',
			array(
				'received'  => Schema::field( 'boolean', __( 'Whether the event is stored (now or earlier).', 'service-integration' ) ),
				'duplicate' => Schema::field( 'boolean', __( 'The event was stored before: acknowledged, not processed again.', 'service-integration' ) ),
				'id'        => Schema::field( 'integer', __( 'The stored event\'s id (new events only).', 'service-integration' ) ),
				'ping'      => Schema::field( 'boolean', __( 'A WooCommerce webhook\'s test ping: nothing stored.', 'service-integration' ) ),
			),
			// A new event has received, duplicate and id; a duplicate received and duplicate; a ping received and ping.
			array( 'duplicate', 'id', 'ping' )
		);
	}
}

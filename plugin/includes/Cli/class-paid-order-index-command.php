<?php
/**
 * WP-CLI: `wp service-integration paid-orders index`.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Shows and rebuilds the index that serves the paid-orders endpoint.
 *
 * Through /service-integration/v1/paid-orders/index: whether it serves, its walk of every
 * order, and a rebuild.
 *
 * ## EXAMPLES
 *
 *     wp service-integration paid-orders index status --user=admin
 *     wp service-integration paid-orders index rebuild --user=admin
 */
final class Paid_Order_Index_Command {

	/** The route. */
	const ROUTE = '/paid-orders/index';

	/**
	 * Shows the index: whether it serves, its walk, its rows and what it was walked from.
	 *
	 * ## OPTIONS
	 *
	 * [--format=<format>]
	 * : How to print it.
	 * ---
	 * default: table
	 * options:
	 *   - table
	 *   - json
	 *   - yaml
	 * ---
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration paid-orders index status --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function status( array $args, array $assoc ): void {
		Terminal::print_object( Rest_Runner::call( 'GET', self::ROUTE ), $assoc );
	}

	/**
	 * Walks every order again (in Action Scheduler, as the daily check does), now.
	 *
	 * By default the index keeps serving the paid-orders endpoint meanwhile; with
	 * --no-keep-serving the endpoint reads WooCommerce directly until the walk has finished.
	 *
	 * ## OPTIONS
	 *
	 * [--[no-]keep-serving]
	 * : Whether the index keeps serving during the walk (default: yes).
	 *
	 * [--format=<format>]
	 * : How to print the state after the start.
	 * ---
	 * default: table
	 * options:
	 *   - table
	 *   - json
	 *   - yaml
	 * ---
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration paid-orders index rebuild --user=admin
	 *     wp service-integration paid-orders index rebuild --no-keep-serving --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function rebuild( array $args, array $assoc ): void {
		$params = isset( $assoc['keep-serving'] ) ? array( 'keep_serving' => (bool) $assoc['keep-serving'] ) : array();
		$state  = Rest_Runner::call( 'POST', self::ROUTE . '/rebuild', $params );
		Terminal::print_outcome(
			__( 'The walk of every order has started; it runs in Action Scheduler (see: wp service-integration paid-orders index status).', 'service-integration' ),
			$state,
			$assoc
		);
	}
}

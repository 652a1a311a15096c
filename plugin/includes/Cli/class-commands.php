<?php
/**
 * WP-CLI: registers `wp service-integration …`.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Adds the commands, only when WP-CLI runs (the command classes need WP-CLI's own classes).
 */
final class Commands {

	/**
	 * Registers every command group.
	 */
	public static function register(): void {
		if ( ! ( defined( 'WP_CLI' ) && WP_CLI ) ) {
			return;
		}
		WP_CLI::add_command( 'service-integration', Cli_Namespace::class );
		WP_CLI::add_command( 'service-integration service-account', Service_Account_Command::class );
		WP_CLI::add_command( 'service-integration service-account password', Application_Password_Command::class );
		WP_CLI::add_command( 'service-integration endpoint', Endpoint_Command::class );
		WP_CLI::add_command( 'service-integration delivery', Delivery_Command::class );
		WP_CLI::add_command( 'service-integration inbound', Inbound_Namespace::class );
		WP_CLI::add_command( 'service-integration inbound source', Inbound_Source_Command::class );
		WP_CLI::add_command( 'service-integration inbound event', Inbound_Event_Command::class );
		WP_CLI::add_command( 'service-integration paid-orders', Paid_Orders_Namespace::class );
		WP_CLI::add_command( 'service-integration paid-orders index', Paid_Order_Index_Command::class );
		WP_CLI::add_command( 'service-integration outbox', Outbox_Command::class );
		WP_CLI::add_command( 'service-integration sidecar', Sidecar_Command::class );
	}
}

<?php
/**
 * WP-CLI: the `wp service-integration` namespace.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI\Dispatcher\CommandNamespace;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Manages Service Integration's service account, webhooks, outbox, sidecar and paid-orders index.
 *
 * The service account, webhook endpoints and their deliveries, inbound sources and events, the
 * paid-orders index, the outbox and the sidecar's status.
 *
 * Every command calls the plugin's own REST routes (those the admin page uses) as the user
 * given with --user, which must be an administrator.
 *
 * ## EXAMPLES
 *
 *     wp service-integration service-account status --user=admin
 *     wp service-integration service-account password create --name=n8n --user=admin
 */
final class Cli_Namespace extends CommandNamespace {
}

<?php
/**
 * WP-CLI: the `wp service-integration inbound` namespace.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI\Dispatcher\CommandNamespace;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Manages inbound webhooks: the sources the sidecar verifies, and the events stored in WordPress.
 *
 * ## EXAMPLES
 *
 *     wp service-integration inbound source add stripe --scheme=stripe --secret=whsec_... --user=admin
 *     wp service-integration inbound event list --status=failed --user=admin
 */
final class Inbound_Namespace extends CommandNamespace {
}

<?php
/**
 * WP-CLI: the `wp service-integration paid-orders` namespace.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI\Dispatcher\CommandNamespace;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The paid-orders endpoint's index: its state, and a rebuild.
 *
 * ## EXAMPLES
 *
 *     wp service-integration paid-orders index status --user=admin
 *     wp service-integration paid-orders index rebuild --user=admin
 */
final class Paid_Orders_Namespace extends CommandNamespace {
}

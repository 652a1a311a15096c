<?php
/**
 * Plugin Name:       Service Integration
 * Description:       Least-privilege service account for automation tools, a read-only paid-orders endpoint, and reliable signed webhooks (in and out) through a Node sidecar.
 * Version:           0.2.0
 * Requires at least: 6.5
 * Requires PHP:      8.1
 * WC requires at least: 9.4
 * WC tested up to:   10.0
 * Author:            Service Integration contributors
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       service-integration
 * Domain Path:       /languages
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const VERSION        = '0.2.0';
const PLUGIN_FILE    = __FILE__;
const REST_NAMESPACE = 'service-integration/v1';

require_once __DIR__ . '/includes/autoload.php';

register_activation_hook( __FILE__, array( Plugin::class, 'activate' ) );
register_deactivation_hook( __FILE__, array( Lifecycle::class, 'deactivate' ) );

add_action( 'plugins_loaded', array( Plugin::class, 'boot' ) );

// PHP strings: a language pack (wp-content/languages/plugins) if there is one, else languages/ (see its README).
// First thing on init, so the plugin's own init work (the role's name at priority 5) is translated too.
add_action(
	'init',
	static function (): void {
		load_plugin_textdomain( 'service-integration', false, dirname( plugin_basename( __FILE__ ) ) . '/languages' );
	},
	1
);

// Orders are read through wc_get_orders() / WC_Order only, so both order storages work.
add_action(
	'before_woocommerce_init',
	static function (): void {
		if ( class_exists( \Automattic\WooCommerce\Utilities\FeaturesUtil::class ) ) {
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'custom_order_tables', __FILE__, true );
		}
	}
);

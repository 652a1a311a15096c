<?php
/**
 * Plugin Name: Service Integration – your own must-use plugins
 * Description: Mounted only by `npm start` and the end-to-end suite (never shipped): loads every .php file of wp-content/local-mu-plugins (npm start mounts the repository's git-ignored local-mu-plugins/ there) the way WordPress loads wp-content/mu-plugins, which this environment's own must-use plugins take.
 *
 * @package ServiceIntegration
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/*
 * At file scope, as wp-settings.php includes must-use plugins: a plugin's top-level variables
 * stay global. Only the folder's own .php files, in name order, with the action WordPress
 * fires after each must-use plugin.
 */
foreach ( glob( WP_CONTENT_DIR . '/local-mu-plugins/*.php' ) ?: array() as $service_integration_local_mu_plugin ) {
	include_once $service_integration_local_mu_plugin;
	do_action( 'mu_plugin_loaded', $service_integration_local_mu_plugin );
}
unset( $service_integration_local_mu_plugin );

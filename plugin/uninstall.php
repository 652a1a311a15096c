<?php
/**
 * Removes what the plugin created. Runs only on "Delete" in wp-admin, never on deactivation.
 *
 * @package ServiceIntegration
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

delete_option( 'service_integration_version' );

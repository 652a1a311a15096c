<?php
/**
 * Installs WordPress on the production runtime's MariaDB without a browser (WP-CLI is in no
 * registry this project may use): `php install-wordpress.php <docroot> <site url> <admin password>`,
 * run once on a fresh copy of core whose wp-config.php is written. wp_install() is what
 * wp-admin/install.php calls. Prints one JSON line.
 *
 * @package ServiceIntegration
 */

if ( PHP_SAPI !== 'cli' || $argc < 4 ) {
	fwrite( STDERR, "Usage: php install-wordpress.php <docroot> <site url> <admin password>\n" );
	exit( 2 );
}

$si_production_url  = rtrim( $argv[2], '/' );
$si_production_host = (string) parse_url( $si_production_url, PHP_URL_HOST ) . ( parse_url( $si_production_url, PHP_URL_PORT ) ? ':' . parse_url( $si_production_url, PHP_URL_PORT ) : '' );

define( 'WP_INSTALLING', true );
// wp-load.php and wp_install() read these when they are not run through a web server;
// wp_guess_url() builds the site URL from them.
$_SERVER['HTTP_HOST']   = $si_production_host;
$_SERVER['SERVER_NAME'] = (string) parse_url( $si_production_url, PHP_URL_HOST );
$_SERVER['REQUEST_URI'] = '/wp-admin/install.php';

require rtrim( $argv[1], '/' ) . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

if ( is_blog_installed() ) {
	echo wp_json_encode( array( 'installed' => false, 'reason' => 'already installed' ) ), "\n";
	exit( 0 );
}

$si_production_result = wp_install( 'Service Integration (production runtime)', 'admin', 'admin@example.org', false, '', wp_slash( $argv[3] ) );
if ( is_wp_error( $si_production_result ) ) {
	fwrite( STDERR, 'wp_install failed: ' . $si_production_result->get_error_message() . "\n" );
	exit( 1 );
}
update_option( 'siteurl', $si_production_url );
update_option( 'home', $si_production_url );
// Pretty permalinks, as most sites run them: /wp-json/ routes. nginx's try_files does the rewriting.
update_option( 'permalink_structure', '/%postname%/' );
/*
 * The local environment's must-use plugin (copied in for its site report) would activate the
 * plugins itself on the next request. Here the site owner's way does it (wp-admin's upload
 * form and Activate links, scripts/production/wordpress.ts), so mark its work as done.
 */
update_option(
	'service_integration_local_activated',
	array(
		'woocommerce/woocommerce.php'                 => true,
		'service-integration/service-integration.php' => true,
	),
	true
);
echo wp_json_encode( array( 'installed' => true, 'user_id' => $si_production_result['user_id'] ) ), "\n";

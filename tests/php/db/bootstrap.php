<?php
/**
 * Loads real WordPress (its wpdb, options, object cache, cron and errors) on a real MariaDB, installs
 * it there when the database is empty, then loads the plugin's classes through its own autoloader.
 * The server and the WordPress build come from the environment (tests/php/db/stores.test.ts starts
 * the server and passes them):
 *   SERVICE_INTEGRATION_TEST_WORDPRESS  the unpacked WordPress build (read only: nothing is written in it)
 *   SERVICE_INTEGRATION_TEST_DB_HOST    host:port of the MariaDB server
 *   SERVICE_INTEGRATION_TEST_DB_NAME, SERVICE_INTEGRATION_TEST_DB_USER, SERVICE_INTEGRATION_TEST_DB_PASSWORD
 *
 * @package ServiceIntegration
 */

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedConstantFound,WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedVariableFound -- WordPress's own constants and globals, as wp-config.php sets them

$service_integration_env = static function ( string $name ): string {
	$value = getenv( $name );
	if ( false === $value || '' === $value ) {
		fwrite( STDERR, "tests/php/db: {$name} is not set; run this suite through tests/php/db/stores.test.ts, which starts MariaDB\n" ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_fwrite -- no WordPress yet; tells the runner what is missing
		exit( 1 );
	}
	return $value;
};

define( 'ABSPATH', rtrim( $service_integration_env( 'SERVICE_INTEGRATION_TEST_WORDPRESS' ), '/' ) . '/' );
define( 'DB_HOST', $service_integration_env( 'SERVICE_INTEGRATION_TEST_DB_HOST' ) );
define( 'DB_NAME', $service_integration_env( 'SERVICE_INTEGRATION_TEST_DB_NAME' ) );
define( 'DB_USER', $service_integration_env( 'SERVICE_INTEGRATION_TEST_DB_USER' ) );
define( 'DB_PASSWORD', $service_integration_env( 'SERVICE_INTEGRATION_TEST_DB_PASSWORD' ) );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
define( 'WP_DEBUG', false );
// Installing: WordPress neither redirects to its installer nor loads plugins; wp_installing( false ) below ends it.
define( 'WP_INSTALLING', true );
$table_prefix = 'wp_'; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- wp-config.php's setting, set here as wp-config.php would

// What wp_install() reads to guess the site's address.
$_SERVER['HTTP_HOST']   = 'example.org';
$_SERVER['SERVER_NAME'] = 'example.org';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PORT'] = '80';

// What the stores would write to the PHP error log goes to a file the tests can read.
define( 'SERVICE_INTEGRATION_TEST_LOG', sys_get_temp_dir() . '/service-integration-phpunit-db-' . getmypid() . '.log' );
ini_set( 'error_log', SERVICE_INTEGRATION_TEST_LOG ); // phpcs:ignore WordPress.PHP.IniSet.Risky -- the tests read what the plugin logs from this file
register_shutdown_function( static fn() => file_exists( SERVICE_INTEGRATION_TEST_LOG ) && unlink( SERVICE_INTEGRATION_TEST_LOG ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink -- removes the test log

require ABSPATH . 'wp-settings.php';

if ( ! is_blog_installed() ) {
	require_once ABSPATH . 'wp-admin/includes/upgrade.php';
	// No mail server here: the new site's notification is not sent.
	add_filter( 'pre_wp_mail', '__return_true' );
	wp_install( 'Store tests', 'admin', 'admin@example.org', false, '', wp_generate_password() );
	remove_filter( 'pre_wp_mail', '__return_true' );
}
wp_installing( false );
// phpcs:enable

require dirname( __DIR__, 3 ) . '/plugin/includes/autoload.php';
require dirname( __DIR__ ) . '/support/class-fixed-clock.php';
require __DIR__ . '/support/class-store-test-case.php';

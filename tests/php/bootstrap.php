<?php
/**
 * Loads the plugin's classes through its own autoloader, without WordPress: classes that need
 * none of it, and the paid-orders index over the stand-ins in support/ (a recording wpdb, a fixed
 * clock, options, actions and cron events in memory). The stores on a real database are tested in
 * db/ (on WordPress and MariaDB); the rest by the end-to-end suite.
 *
 * @package ServiceIntegration
 */

// The plugin's files stop when loaded outside WordPress; these tests stand in for it.
define( 'ABSPATH', __DIR__ . '/' ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedConstantFound -- WordPress's constant, which the plugin's files check for
define( 'ARRAY_A', 'ARRAY_A' ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedConstantFound -- wpdb's output type, as WordPress defines it

require dirname( __DIR__, 2 ) . '/plugin/includes/autoload.php';

// What the stores would write to the PHP error log goes to a file the tests can read.
define( 'SERVICE_INTEGRATION_TEST_LOG', sys_get_temp_dir() . '/service-integration-phpunit-' . getmypid() . '.log' );
ini_set( 'error_log', SERVICE_INTEGRATION_TEST_LOG ); // phpcs:ignore WordPress.PHP.IniSet.Risky -- the tests read what the plugin logs from this file
register_shutdown_function( static fn() => file_exists( SERVICE_INTEGRATION_TEST_LOG ) && unlink( SERVICE_INTEGRATION_TEST_LOG ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink -- no WordPress here; removes the test log

// WordPress's few functions and classes the stores and the idempotent create call, in memory.
require __DIR__ . '/support/wordpress-functions.php';
require __DIR__ . '/support/class-wp-error.php';
require __DIR__ . '/support/class-wpdb.php';
require __DIR__ . '/support/class-wp-rest-request.php';
require __DIR__ . '/support/class-wp-rest-response.php';

// In-memory implementations of the plugin's ports, for the units that read through them.
require __DIR__ . '/support/class-in-memory-order.php';
require __DIR__ . '/support/class-fixed-clock.php';
require __DIR__ . '/support/class-in-memory-options.php';
require __DIR__ . '/support/class-recording-wpdb.php';

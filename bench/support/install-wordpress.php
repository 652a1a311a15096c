<?php
/**
 * Installs WordPress without a browser, for the benchmarks' native runtime:
 * `php install-wordpress.php <wordpress dir> <admin password>`, run once on a fresh copy of
 * core whose wp-config.php and SQLite db.php drop-in are already written. Prints one JSON line.
 *
 * @package ServiceIntegrationBench
 */

if ( PHP_SAPI !== 'cli' || $argc < 3 ) {
	fwrite( STDERR, "Usage: php install-wordpress.php <wordpress dir> <admin password>\n" );
	exit( 2 );
}

define( 'WP_INSTALLING', true );
// wp-load.php and wp_install() read these when they are not run through a web server.
$_SERVER['HTTP_HOST']   = 'localhost';
$_SERVER['REQUEST_URI'] = '/wp-admin/install.php';
$_SERVER['SERVER_NAME'] = 'localhost';

require rtrim( $argv[1], '/' ) . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

if ( is_blog_installed() ) {
	echo wp_json_encode( array( 'installed' => false, 'reason' => 'already installed' ) ), "\n";
	exit( 0 );
}

$si_bench_result = wp_install( 'Service Integration (native bench)', 'admin', 'admin@example.org', false, '', wp_slash( $argv[2] ) );
if ( is_wp_error( $si_bench_result ) ) {
	fwrite( STDERR, 'wp_install failed: ' . $si_bench_result->get_error_message() . "\n" );
	exit( 1 );
}
// Pretty permalinks, so /wp-json/ routes (the local-environment must-use plugin would set them on the first request too).
update_option( 'permalink_structure', '/%postname%/' );
echo wp_json_encode( array( 'installed' => true, 'user_id' => $si_bench_result['user_id'] ) ), "\n";

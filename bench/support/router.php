<?php
/**
 * Router for PHP's built-in web server (`php -S host:port -t <wordpress> router.php`), for
 * the benchmarks' native runtime only: what Apache's or nginx's rewrite rules do for
 * WordPress. Existing files and folders are served as they are (PHP files run, folders get
 * their index.php); any other path goes to WordPress's index.php (pretty permalinks, /wp-json/).
 *
 * @package ServiceIntegrationBench
 */

/*
 * Site Health's weekly cron check asks mysqli for its client version even when the SQLite
 * drop-in replaces the database; Playground's PHP has mysqli, Debian's PHP without
 * php8.2-mysql does not, and the call would end that WP-Cron run with a fatal error.
 */
if ( ! function_exists( 'mysqli_get_client_info' ) ) {
	function mysqli_get_client_info(): string { // phpcs:ignore
		return 'none (SQLite)';
	}
}

$si_bench_root = (string) $_SERVER['DOCUMENT_ROOT'];
$si_bench_path = '/' . ltrim( (string) parse_url( urldecode( (string) $_SERVER['REQUEST_URI'] ), PHP_URL_PATH ), '/' );

// The SQLite database and the debug log live under wp-content, like .htaccess protects them.
if ( str_contains( $si_bench_path, '/.ht' ) || str_ends_with( $si_bench_path, '/debug.log' ) ) {
	http_response_code( 403 );
	return true;
}

if ( file_exists( $si_bench_root . $si_bench_path ) ) {
	if ( is_dir( $si_bench_root . $si_bench_path ) && ! str_ends_with( $si_bench_path, '/' ) ) {
		header( 'Location: ' . $si_bench_path . '/' );
		return true;
	}
	return false;
}

$_SERVER['SCRIPT_NAME']     = '/index.php';
$_SERVER['PHP_SELF']        = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $si_bench_root . '/index.php';
chdir( $si_bench_root );
require $si_bench_root . '/index.php';

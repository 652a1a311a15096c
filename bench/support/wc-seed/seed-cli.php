<?php
/**
 * BENCH ONLY: seeds orders through WooCommerce's API in ONE PHP process (Debian's php-cli),
 * against the WordPress of a production-runtime benchmark site, instead of one REST request per
 * chunk. Reads order specs as JSON, one a line, on stdin (bench/paid-orders.ts writes them);
 * prints "created <n>" after every 100 orders and "done <n> <ms>" at the end, on stdout.
 *
 * Usage: php seed-cli.php <WordPress docroot> < specs.jsonl
 *
 * Each order goes through si_bench_wc_seed() of the bench-only plugin (si-bench-wc-seed.php,
 * active on that site): wc_create_order(), add_product(), calculate_totals()..., with
 * WooCommerce Analytics' import and the plugin's outbound order events unhooked and no mail.
 *
 * @package ServiceIntegrationBench
 */

if ( 'cli' !== PHP_SAPI ) {
	exit( 1 );
}
$docroot = $argv[1] ?? '';
if ( '' === $docroot || ! is_file( $docroot . '/wp-load.php' ) ) {
	fwrite( STDERR, "Usage: php seed-cli.php <WordPress docroot> < specs.jsonl\n" );
	exit( 2 );
}

// One of the seeding plugin's requests, whose no-mail filters it adds at load for its own paths.
$_SERVER['REQUEST_URI'] = '/wp-json/si-bench-wc/v1/seed';
$_SERVER['HTTP_HOST']   = $_SERVER['HTTP_HOST'] ?? 'localhost';
define( 'WP_USE_THEMES', false );
require $docroot . '/wp-load.php';

if ( ! function_exists( 'si_bench_wc_seed' ) || ! function_exists( 'wc_create_order' ) ) {
	fwrite( STDERR, "The bench-only seeding plugin (si-bench-wc-seed) and WooCommerce must be active on this site.\n" );
	exit( 3 );
}
$admins = get_users(
	array(
		'role'   => 'administrator',
		'number' => 1,
		'fields' => 'ID',
	)
);
wp_set_current_user( (int) ( $admins[0] ?? 0 ) );

/**
 * The specs on stdin, one JSON object a line, decoded as they arrive.
 *
 * @return Generator<int, array<string, mixed>>
 * @throws RuntimeException On a line that is not a JSON object.
 */
function si_bench_wc_read_specs(): Generator {
	$n = 0;
	while ( false !== ( $line = fgets( STDIN ) ) ) { // phpcs:ignore WordPress.CodeAnalysis.AssignmentInCondition
		$line = trim( $line );
		if ( '' === $line ) {
			continue;
		}
		++$n;
		$spec = json_decode( $line, true );
		if ( ! is_array( $spec ) ) {
			throw new RuntimeException( "line {$n} is not a JSON object" );
		}
		yield $spec;
	}
}

$started = microtime( true );
try {
	$ids = si_bench_wc_seed(
		si_bench_wc_read_specs(),
		static function ( int $created ): void {
			if ( 0 === $created % 100 ) {
				fwrite( STDOUT, "created {$created}\n" );
			}
		}
	);
} catch ( Throwable $error ) {
	fwrite( STDERR, get_class( $error ) . ': ' . $error->getMessage() . ' at ' . $error->getFile() . ':' . $error->getLine() . "\n" );
	exit( 4 );
}
fwrite( STDOUT, 'done ' . count( $ids ) . ' ' . (int) round( ( microtime( true ) - $started ) * 1000 ) . "\n" );

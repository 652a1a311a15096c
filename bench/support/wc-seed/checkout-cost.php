<?php
/**
 * BENCH ONLY: what the plugin adds to a checkout, in one php-cli process against the bench's site.
 * Creates paid orders through WooCommerce's API (si_bench_wc_create_order() of the seeding
 * plugin: lines, addresses, shipping, taxes, payment, status processing, one save) in
 * interleaved pairs: one with the plugin's callbacks on every hook (its paid moment, and its
 * callbacks on `shutdown`, run right after the order in their priority order as the request's end
 * would: the index row, the outbox rows), one with every callback of the plugin's classes
 * detached. Not timed, as no checkout waits for it: the hand-over to the sidecar, which Hand_Over
 * queues on `shutdown` once the response is sent (fastcgi_finish_request()), and which runs here
 * when the process ends. Then deletes every order
 * it created (with the plugin's callbacks on, so their index rows go too). Prints one JSON object:
 * {"with": [ms, ...], "without": [ms, ...]}.
 *
 * Usage: php checkout-cost.php <WordPress docroot> <pairs> < spec.json
 *
 * @package ServiceIntegrationBench
 */

if ( 'cli' !== PHP_SAPI ) {
	exit( 1 );
}
$si_bench_docroot = $argv[1] ?? '';
$si_bench_pairs   = max( 1, (int) ( $argv[2] ?? 20 ) );
if ( '' === $si_bench_docroot || ! is_file( $si_bench_docroot . '/wp-load.php' ) ) {
	fwrite( STDERR, "Usage: php checkout-cost.php <WordPress docroot> <pairs> < spec.json\n" );
	exit( 2 );
}
// One of the seeding plugin's requests, whose no-mail filters it adds at load for its own paths.
$_SERVER['REQUEST_URI'] = '/wp-json/si-bench-wc/v1/checkout';
$_SERVER['HTTP_HOST']   = $_SERVER['HTTP_HOST'] ?? 'localhost';
define( 'WP_USE_THEMES', false );
require $si_bench_docroot . '/wp-load.php';

$si_bench_spec = json_decode( (string) stream_get_contents( STDIN ), true );
if ( ! is_array( $si_bench_spec ) || ! function_exists( 'si_bench_wc_create_order' ) ) {
	fwrite( STDERR, "A JSON order spec on stdin and the active seeding plugin are needed.\n" );
	exit( 3 );
}

/**
 * Every callback of the plugin's own classes (ServiceIntegration\...), on any hook.
 *
 * @return array<int, array{0: string, 1: callable, 2: int, 3: int}> Hook, callback, priority, accepted args.
 */
function si_bench_plugin_callbacks(): array {
	global $wp_filter;
	$found = array();
	foreach ( $wp_filter as $hook => $filter ) {
		foreach ( $filter->callbacks as $priority => $callbacks ) {
			foreach ( $callbacks as $callback ) {
				$function = $callback['function'];
				$owner    = is_array( $function ) ? ( is_object( $function[0] ) ? get_class( $function[0] ) : (string) $function[0] ) : '';
				if ( str_starts_with( $owner, 'ServiceIntegration\\' ) ) {
					$found[] = array( (string) $hook, $function, (int) $priority, (int) $callback['accepted_args'] );
				}
			}
		}
	}
	return $found;
}

/**
 * What a step is called in the report: its hook, class (without the namespace) and method.
 *
 * @param string   $hook     Hook.
 * @param callable $callback The plugin's callback.
 */
function si_bench_step_name( string $hook, $callback ): string {
	$class = is_object( $callback[0] ) ? get_class( $callback[0] ) : (string) $callback[0];
	return $hook . ' ' . substr( (string) strrchr( '\\' . $class, '\\' ), 1 ) . '::' . $callback[1];
}

/**
 * Time and queries of each step in the current checkout.
 *
 * @var array<string, array{calls: int, ms: float, queries: int}>
 */
$si_bench_current = array();

/**
 * The callback in a timer that adds its time and query count to its step's.
 *
 * @param string   $name     Step name.
 * @param callable $callback The plugin's callback.
 */
function si_bench_timed( string $name, $callback ): Closure {
	return static function ( ...$args ) use ( $name, $callback ) {
		global $si_bench_current, $wpdb;
		$queries = (int) $wpdb->num_queries;
		$started = hrtime( true );
		try {
			return $callback( ...$args );
		} finally {
			$step                      = $si_bench_current[ $name ] ?? array(
				'calls'   => 0,
				'ms'      => 0.0,
				'queries' => 0,
			);
			$step['calls']            += 1;
			$step['ms']               += ( hrtime( true ) - $started ) / 1e6;
			$step['queries']          += (int) $wpdb->num_queries - $queries;
			$si_bench_current[ $name ] = $step;
		}
	};
}

// Each of the plugin's callbacks swapped for its timer: [hook, timer, priority, accepted args].
$si_bench_callbacks = array();
// The plugin's end-of-request steps: timers by priority.
$si_bench_shutdown = array();
$si_bench_outbox   = false;
foreach ( si_bench_plugin_callbacks() as $si_bench_c ) {
	remove_action( $si_bench_c[0], $si_bench_c[1], $si_bench_c[2] );
	$si_bench_timer = si_bench_timed( si_bench_step_name( $si_bench_c[0], $si_bench_c[1] ), $si_bench_c[1] );
	add_action( $si_bench_c[0], $si_bench_timer, $si_bench_c[2], $si_bench_c[3] );
	$si_bench_callbacks[] = array( $si_bench_c[0], $si_bench_timer, $si_bench_c[2], $si_bench_c[3] );
	if ( 'shutdown' === $si_bench_c[0] ) {
		$si_bench_shutdown[ $si_bench_c[2] ][] = $si_bench_timer;
		// The step that writes the outbox rows of the order events.
		$si_bench_outbox = $si_bench_outbox || ( is_array( $si_bench_c[1] ) && 'write_pending' === $si_bench_c[1][1] );
	}
}
ksort( $si_bench_shutdown );
if ( ! $si_bench_outbox ) {
	fwrite( STDERR, "The plugin's outbox step (Order_Events::write_pending on shutdown) was not found.\n" );
	exit( 4 );
}
$si_bench_steps    = array();
$si_bench_products = array();
$si_bench_created  = array();
$si_bench_times    = array(
	'with'    => array(),
	'without' => array(),
);
for ( $si_bench_i = 0; $si_bench_i < 2 * $si_bench_pairs; $si_bench_i++ ) {
	// Alternate which arm goes first, so neither always follows the other.
	$si_bench_with = ( 0 === $si_bench_i % 2 ) === ( 0 === intdiv( $si_bench_i, 2 ) % 2 );
	if ( ! $si_bench_with ) {
		foreach ( $si_bench_callbacks as $si_bench_c ) {
			remove_action( $si_bench_c[0], $si_bench_c[1], $si_bench_c[2] );
		}
	}
	$si_bench_spec['date_created'] = gmdate( 'Y-m-d\TH:i:s\Z' );
	$si_bench_spec['date_paid']    = gmdate( 'Y-m-d\TH:i:s\Z' );
	$si_bench_current              = array();
	$si_bench_started              = hrtime( true );
	$si_bench_created[]            = si_bench_wc_create_order( $si_bench_spec, $si_bench_products );
	if ( $si_bench_with ) {
		foreach ( array_merge( ...array_values( $si_bench_shutdown ) ) as $si_bench_step ) {
			$si_bench_step();
		}
	}
	$si_bench_times[ $si_bench_with ? 'with' : 'without' ][] = ( hrtime( true ) - $si_bench_started ) / 1e6;
	if ( $si_bench_with ) {
		$si_bench_steps[] = $si_bench_current;
	}
	if ( ! $si_bench_with ) {
		foreach ( $si_bench_callbacks as $si_bench_c ) {
			add_action( $si_bench_c[0], $si_bench_c[1], $si_bench_c[2], $si_bench_c[3] );
		}
	}
	wp_cache_flush_runtime();
}
foreach ( $si_bench_created as $si_bench_id ) {
	$si_bench_order = wc_get_order( $si_bench_id );
	if ( $si_bench_order ) {
		$si_bench_order->delete( true );
	}
}
// Per step, one entry per checkout with the plugin (0 where the step did not run in it).
$si_bench_times['steps'] = array();
foreach ( array_unique( array_merge( array(), ...array_map( 'array_keys', $si_bench_steps ) ) ) as $si_bench_name ) {
	foreach ( array( 'calls', 'ms', 'queries' ) as $si_bench_field ) {
		$si_bench_times['steps'][ $si_bench_name ][ $si_bench_field ] = array_map(
			static fn( array $checkout ) => $checkout[ $si_bench_name ][ $si_bench_field ] ?? 0,
			$si_bench_steps
		);
	}
}
echo wp_json_encode( $si_bench_times ) . "\n";

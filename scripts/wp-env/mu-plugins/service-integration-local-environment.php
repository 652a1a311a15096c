<?php
/**
 * Plugin Name: Service Integration – local environment
 * Description: Mounted only by `npm start` and the end-to-end suite (never shipped): activates the plugin and the commerce plugin it finds, once per site (a later deactivation sticks), and turns on pretty permalinks so /wp-json/ answers. It replaces the WP-CLI steps the Playground runtime cannot run.
 *
 * @package ServiceIntegration
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/*
 * Playground's auto-login (on init) answers 302 to any request without this cookie.
 * Browsers should keep being logged in as admin, but API clients (automation tools, the
 * sidecar's signed callbacks, WP-Cron) must reach WordPress untouched, as on a real site.
 */
$service_integration_uri = isset( $_SERVER['REQUEST_URI'] ) ? (string) $_SERVER['REQUEST_URI'] : ''; // phpcs:ignore WordPress.Security.ValidatedSanitizedInput
if (
	str_starts_with( $service_integration_uri, '/wp-json' )
	|| str_contains( $service_integration_uri, 'rest_route=' )
	|| str_starts_with( $service_integration_uri, '/wp-cron.php' )
	|| str_starts_with( $service_integration_uri, '/xmlrpc.php' ) // Core empties $_COOKIE there.
	|| ! empty( $_SERVER['HTTP_AUTHORIZATION'] )
) {
	$_COOKIE['playground_auto_login_already_happened'] = '1';
}

/*
 * Activation runs on wp_loaded, where wp-admin/plugins.php activates plugins: after
 * pluggable.php, init and the current user. WooCommerce's activation calls
 * current_user_can(); on muplugins_loaded that is an undefined function, a fatal on every
 * request before the "activated" option could be saved.
 */
add_action(
	'wp_loaded',
	static function (): void {
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
		$wanted = array(
			'woocommerce/woocommerce.php',
			'service-integration/service-integration.php',
		);
		$done      = (array) get_option( 'service_integration_local_activated', array() );
		$activated = false;
		foreach ( $wanted as $plugin ) {
			if ( isset( $done[ $plugin ] ) || ! file_exists( WP_PLUGIN_DIR . '/' . $plugin ) ) {
				continue;
			}
			$result = is_plugin_active( $plugin ) ? null : activate_plugin( $plugin );
			if ( is_wp_error( $result ) ) {
				error_log( 'service-integration local environment: cannot activate ' . $plugin . ': ' . $result->get_error_message() ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log
				continue;
			}
			$done[ $plugin ] = true;
			$activated       = $activated || null === $result;
			update_option( 'service_integration_local_activated', $done, true );
		}
		if ( $activated ) {
			/*
			 * A plugin activated this late has missed its own set-up hooks for this request
			 * (WooCommerce 9.4 on WordPress 6.5 then dies rendering the page: wc_product_post_class
			 * is hooked but its file is not loaded). wp-admin/plugins.php never renders after
			 * activating either: it redirects. 307 keeps the method; the client asks again.
			 */
			$host = isset( $_SERVER['HTTP_HOST'] ) ? sanitize_text_field( wp_unslash( $_SERVER['HTTP_HOST'] ) ) : wp_parse_url( home_url(), PHP_URL_HOST );
			$uri  = isset( $_SERVER['REQUEST_URI'] ) ? esc_url_raw( wp_unslash( $_SERVER['REQUEST_URI'] ) ) : '/';
			nocache_headers();
			wp_safe_redirect( set_url_scheme( 'http://' . $host . $uri ), 307 );
			exit;
		}
	}
);

add_action(
	'init',
	static function (): void {
		if ( '/%postname%/' !== get_option( 'permalink_structure' ) ) {
			update_option( 'permalink_structure', '/%postname%/' );
			flush_rewrite_rules( false );
		}
	},
	99
);

/*
 * wp-env's Playground blueprint logs in before it defines DISABLE_WP_CRON, so that request's
 * spawn_cron() takes WP-Cron's lock (the doing_cron transient) and fires a loopback that
 * Playground drops: every wp-cron.php request would then return at once for a minute. Playground
 * serves one request at a time, so when a system cron (the e2e suite) requests wp-cron.php no
 * other run can hold the lock: one still there is that spawn's, and is released.
 */
if ( defined( 'DOING_CRON' ) && defined( 'DISABLE_WP_CRON' ) && DISABLE_WP_CRON && empty( $_GET['doing_wp_cron'] ) ) { // phpcs:ignore WordPress.Security.NonceVerification.Recommended
	add_action(
		'init',
		static function (): void {
			delete_transient( 'doing_cron' );
		}
	);
}

/*
 * This machine is offline: WordPress's update checks (from WP-Cron, on the single PHP worker
 * Playground runs) would otherwise wait up to 30 s each for api.wordpress.org and hold up
 * every request queued behind them. They are answered at once with a 503, which core's checks
 * take quietly; a WP_Error would make each of them log a PHP warning (wp_version_check(),
 * wp_update_plugins() and wp_update_themes() trigger_error() when the HTTPS request fails), at
 * whatever moment cron runs them, into the debug.log that tests read for PHP problems.
 */
add_filter(
	'pre_http_request',
	static function ( $preempt, $args, $url ) {
		$host = strtolower( (string) wp_parse_url( (string) $url, PHP_URL_HOST ) );
		if ( 'wordpress.org' === $host || str_ends_with( $host, '.wordpress.org' ) || str_ends_with( $host, '.w.org' ) ) {
			return array(
				'headers'  => array(),
				'body'     => '',
				'response' => array(
					'code'    => 503,
					'message' => 'The local environment does not call wordpress.org.',
				),
				'cookies'  => array(),
				'filename' => null,
			);
		}
		return $preempt;
	},
	10,
	3
);

/*
 * What this site runs, for `npm start`'s summary and the e2e setup's state (so tests and
 * reports say which WordPress, commerce plugin and order storage they ran on). Versions and
 * the storage mode are public here (this plugin exists only in local environments); the order
 * row counts, which let a test see where an order landed, are for administrators.
 */
add_action(
	'rest_api_init',
	static function (): void {
		register_rest_route(
			'service-integration-local/v1',
			'/environment',
			array(
				'methods'             => 'GET',
				'permission_callback' => '__return_true',
				'callback'            => static function (): array {
					global $wp_version, $wpdb;
					$commerce = array(
						'plugin'        => null,
						'version'       => null,
						'order_storage' => null,
					);
					if ( function_exists( 'WC' ) && class_exists( 'Automattic\WooCommerce\Utilities\OrderUtil' ) ) {
						$commerce = array(
							'plugin'        => 'woocommerce',
							'version'       => WC()->version,
							'order_storage' => \Automattic\WooCommerce\Utilities\OrderUtil::custom_orders_table_usage_is_enabled() ? 'hpos' : 'legacy',
						);
					}
					$report = array(
						'wordpress_version' => $wp_version,
						'commerce'          => $commerce,
					);
					if ( current_user_can( 'manage_options' ) ) {
						$count_table = static function ( string $table ) use ( $wpdb ): ?int {
							if ( $wpdb->get_var( $wpdb->prepare( 'SHOW TABLES LIKE %s', $table ) ) !== $table ) {
								return null;
							}
							return (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$table}" ); // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared
						};
						$count_posts = static function ( string $type ) use ( $wpdb ): int {
							return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_type = %s", $type ) );
						};
						$report['order_rows'] = array(
							'hpos_table'        => $count_table( $wpdb->prefix . 'wc_orders' ),
							'posts'             => $count_posts( 'shop_order' ),
							'placeholder_posts' => $count_posts( 'shop_order_placehold' ),
						);
						if ( null !== $commerce['plugin'] ) {
							$features = wc_get_container()->get( 'Automattic\WooCommerce\Internal\Features\FeaturesController' );
							$report['hpos_compatible_plugins'] = array_values( $features->get_compatible_plugins_for_feature( 'custom_order_tables', true )['compatible'] );
						}
					}
					return $report;
				},
			)
		);
	}
);

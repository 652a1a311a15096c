<?php
/**
 * The plugin's one way to write to the site's error log.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Support;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Writes the lines an operator must see (why a route answered 500, why inbound senders are asked
 * to retry, why the paid-orders index is rebuilt, a database error) to PHP's error log, one line
 * each, through error_log() and nothing else.
 *
 * It follows the site's logging as WordPress sets it up: with WP_DEBUG and WP_DEBUG_LOG on,
 * wp_debug_mode() points PHP's error_log at wp-content/debug.log (or WP_DEBUG_LOG's path), so the
 * lines go there; otherwise they go where the server's PHP sends its own messages (the PHP-FPM
 * pool's error_log, or nginx's error log), which is where docs/production.md tells a live site's
 * operator to look. Nothing is written to the page or to the database.
 */
final class Logger {

	/**
	 * Writes one line to the error log.
	 *
	 * @param string $message The line, without a trailing newline.
	 */
	public static function error( string $message ): void {
		error_log( $message ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log -- the plugin's one logging point: operator-facing failures, which go where the site's PHP and WP_DEBUG_LOG send errors.
	}
}

<?php
/**
 * A failed query of the plugin's own tables, as an error.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Support;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * WordPress's wpdb answers a failed SELECT with an empty result (get_results() an empty array, get_var()
 * null) and sets last_error; a failed write returns false. Either must reach the caller as an
 * error, never as "no rows". The database's message goes to the PHP error log only: it can
 * name tables and columns, which a REST client has no business reading.
 */
final class Database_Error {

	/** The WP_Error code. */
	const CODE = 'service_integration_database_error';

	/**
	 * The error of the query that returned $result on $db, or null when it succeeded.
	 *
	 * @param \wpdb  $db     Connection the query ran on.
	 * @param mixed  $result What the wpdb method returned.
	 * @param string $what   What the query did, for the log (e.g. "outbox: read pending rows").
	 */
	public static function of( \wpdb $db, $result, string $what ): ?WP_Error {
		if ( false !== $result && '' === (string) $db->last_error ) {
			return null;
		}
		return self::failed( $what, '' !== (string) $db->last_error ? (string) $db->last_error : 'unknown database error' );
	}

	/**
	 * The error of a query that failed: logged with the database's message, answered without it.
	 *
	 * @param string $what    What the query did.
	 * @param string $message What went wrong, for the log.
	 */
	public static function failed( string $what, string $message ): WP_Error {
		Logger::error( 'service-integration: ' . $what . ' failed: ' . $message );
		return new WP_Error(
			self::CODE,
			__( 'The database did not answer as expected. Try again in a moment.', 'service-integration' ),
			array( 'status' => 500 )
		);
	}
}

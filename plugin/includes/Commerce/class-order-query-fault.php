<?php
/**
 * Whether a WooCommerce order query met a database error.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * WooCommerce answers a failed order query with an empty list, so Paid_Orders::query() looks at
 * what the connection recorded during the call instead: the failed queries wpdb::print_error()
 * added to the global $EZSQL_ERROR (each {query, error_str}), and the connection's last_error.
 * Either one means the result cannot be trusted. Pure.
 */
final class Order_Query_Fault {

	/**
	 * What went wrong during the call, for the log, or null when nothing did.
	 *
	 * @param array<int, mixed> $errors     Entries $EZSQL_ERROR gained during the call.
	 * @param string            $last_error The connection's last_error after it.
	 */
	public static function of( array $errors, string $last_error ): ?string {
		if ( '' !== $last_error ) {
			return $last_error;
		}
		if ( ! $errors ) {
			return null;
		}
		$error = end( $errors );
		return is_array( $error ) ? (string) ( $error['error_str'] ?? '' ) : '';
	}
}

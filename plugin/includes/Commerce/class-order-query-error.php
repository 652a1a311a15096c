<?php
/**
 * A database error while the paid-orders adapter read orders.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Thrown by Paid_Orders when a wc_get_orders() call hit a database error: WooCommerce answers
 * such a failure with an empty list (and a total of 0), which must never reach a client as an
 * empty page. The message is the database's, for the server's log only, HTML-escaped where it is
 * thrown (esc_html()): whatever prints it cannot print markup; the log decodes it.
 *
 * Whether a call failed is told by fault(): WooCommerce's answer cannot, so Paid_Orders::query()
 * looks at what the connection recorded during the call instead: the failed queries
 * wpdb::print_error() added to the global $EZSQL_ERROR (each {query, error_str}), and the
 * connection's last_error. Either one means the result cannot be trusted.
 */
final class Order_Query_Error extends \RuntimeException {

	/**
	 * What went wrong during the call, for the log, or null when nothing did. Pure.
	 *
	 * @param array<int, mixed> $errors     Entries $EZSQL_ERROR gained during the call.
	 * @param string            $last_error The connection's last_error after it.
	 */
	public static function fault( array $errors, string $last_error ): ?string {
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

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
 */
final class Order_Query_Error extends \RuntimeException {
}

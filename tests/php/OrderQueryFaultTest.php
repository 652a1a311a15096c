<?php
/**
 * Whether a WooCommerce order query met a database error.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Commerce\Order_Query_Error;

/**
 * What the connection recorded during a wc_get_orders() call makes of its result.
 */
final class OrderQueryFaultTest extends TestCase {

	/**
	 * A call that recorded nothing is trusted.
	 */
	public function test_a_call_that_recorded_nothing_is_trusted(): void {
		$this->assertNull( Order_Query_Error::fault( array(), '' ) );
	}

	/**
	 * The connections last error is the fault.
	 */
	public function test_the_connections_last_error_is_the_fault(): void {
		$this->assertSame( "Table 'wp_wc_orders' doesn't exist", Order_Query_Error::fault( array(), "Table 'wp_wc_orders' doesn't exist" ) );
	}

	/**
	 * A failed query recorded by wpdb is the fault even once last error is cleared.
	 */
	public function test_a_failed_query_recorded_by_wpdb_is_the_fault_even_once_last_error_is_cleared(): void {
		$errors = array(
			array(
				'query'     => 'SELECT 1',
				'error_str' => 'first',
			),
			array(
				'query'     => 'SELECT 2',
				'error_str' => 'Lost connection',
			),
		);
		$this->assertSame( 'Lost connection', Order_Query_Error::fault( $errors, '' ) );
	}

	/**
	 * Last error wins over the recorded queries.
	 */
	public function test_last_error_wins_over_the_recorded_queries(): void {
		$this->assertSame( 'now', Order_Query_Error::fault( array( array( 'error_str' => 'before' ) ), 'now' ) );
	}

	/**
	 * A recorded failure without a message is still a fault.
	 */
	public function test_a_recorded_failure_without_a_message_is_still_a_fault(): void {
		$this->assertSame( '', Order_Query_Error::fault( array( 'not an entry' ), '' ) );
		$this->assertSame( '', Order_Query_Error::fault( array( array( 'query' => 'SELECT 1' ) ), '' ) );
	}
}

<?php
/**
 * A failed query of the plugin's own tables, as an error.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * Database_Error::of().
 */
final class DatabaseErrorTest extends TestCase {

	/**
	 * A query that succeeded is no error even when it found nothing.
	 */
	public function test_a_query_that_succeeded_is_no_error_even_when_it_found_nothing(): void {
		$db = new Recording_Wpdb();
		foreach ( array( 0, array(), null, '0' ) as $result ) {
			$this->assertNull( Database_Error::of( $db, $result, 'a read' ) );
		}
	}

	/**
	 * False is an error even without a message.
	 */
	public function test_false_is_an_error_even_without_a_message(): void {
		$error = Database_Error::of( new Recording_Wpdb(), false, 'a write' );
		$this->assertInstanceOf( WP_Error::class, $error );
		$this->assertSame( Database_Error::CODE, $error->get_error_code() );
		$this->assertSame( array( 'status' => 500 ), $error->get_error_data() );
	}

	/**
	 * An empty result with last error set is an error.
	 */
	public function test_an_empty_result_with_last_error_set_is_an_error(): void {
		$db             = new Recording_Wpdb();
		$db->last_error = "Table 'wp_si_outbox' doesn't exist";
		$this->assertInstanceOf( WP_Error::class, Database_Error::of( $db, array(), 'a read' ) );
	}

	/**
	 * The database message goes to the log never to the client.
	 */
	public function test_the_database_message_goes_to_the_log_never_to_the_client(): void {
		$db             = new Recording_Wpdb();
		$db->last_error = "Table 'wp_si_outbox' doesn't exist";
		$error          = Database_Error::of( $db, null, 'outbox: count rows' );
		$this->assertStringNotContainsString( 'wp_si_outbox', $error->get_error_message() );
		$this->assertStringContainsString( "service-integration: outbox: count rows failed: Table 'wp_si_outbox' doesn't exist", (string) file_get_contents( SERVICE_INTEGRATION_TEST_LOG ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- reads the local test log, no URL
	}
}

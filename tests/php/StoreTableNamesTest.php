<?php
/**
 * The stores' table names (what they keep and return is tested on MariaDB: tests/php/db).
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Inbound\Inbound_Store;
use ServiceIntegration\Manufacturing\Idempotency_Store;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * Each store's table follows the site's table prefix.
 */
final class StoreTableNamesTest extends TestCase {

	/**
	 * The tables are named after the site prefix.
	 */
	public function test_the_tables_are_named_after_the_site_prefix(): void {
		$db         = new Recording_Wpdb();
		$db->prefix = 'shop_';
		$clock      = new Fixed_Clock( 0 );
		$options    = new In_Memory_Options();
		$this->assertSame( 'shop_si_outbox', ( new Outbox( $db, $clock, $options ) )->table() );
		$this->assertSame( 'shop_si_inbound_events', ( new Inbound_Store( $db, $clock, $options ) )->table() );
		$this->assertSame( 'shop_si_idempotency_keys', ( new Idempotency_Store( $db, $clock, $options ) )->table() );
	}
}

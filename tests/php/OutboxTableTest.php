<?php
/**
 * The outbox's table name (what it keeps and returns is tested on MariaDB: tests/php/db/OutboxTest.php).
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * The outbox's table follows the site's table prefix.
 */
final class OutboxTableTest extends TestCase {

	/**
	 * The table is named after the site prefix.
	 */
	public function test_the_table_is_named_after_the_site_prefix(): void {
		$db         = new Recording_Wpdb();
		$db->prefix = 'shop_';
		$this->assertSame( 'shop_si_outbox', ( new Outbox( $db, new Fixed_Clock( 0 ), new In_Memory_Options() ) )->table() );
	}
}

<?php
/**
 * The inbound events store's pure helpers: a page's window, the ids its unique
 * index sees (what it keeps and returns is tested on MariaDB: tests/php/db/InboundStoreTest.php).
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Inbound\Inbound_Store;

/**
 * Inbound_Store::page_window() and storable_event_id().
 */
final class InboundStoreHelpersTest extends TestCase {

	/**
	 * A page window starts at zero and never goes under one row.
	 */
	public function test_a_page_window_starts_at_zero_and_never_goes_under_one_row(): void {
		$this->assertSame( array( 20, 0 ), Inbound_Store::page_window( 1, 20 ) );
		$this->assertSame( array( 20, 40 ), Inbound_Store::page_window( 3, 20 ) );
		$this->assertSame( array( 1, 0 ), Inbound_Store::page_window( 0, 0 ) );
		$this->assertSame( array( 5, 0 ), Inbound_Store::page_window( -2, 5 ) );
	}

	/**
	 * Event ids and what the unique index stores.
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	public static function event_ids(): array {
		$at_limit = str_repeat( 'a', Inbound_Store::MAX_EVENT_ID_LENGTH );
		$over     = $at_limit . 'b';
		return array(
			'a short id'                  => array( 'evt_1', 'evt_1' ),
			'empty'                       => array( '', '' ),
			'at the limit'                => array( $at_limit, $at_limit ),
			'one byte over'               => array( $over, 'sha256:' . hash( 'sha256', $over ) ),
			'a Standard Webhooks maximum' => array( str_repeat( 'z', 256 ), 'sha256:' . hash( 'sha256', str_repeat( 'z', 256 ) ) ),
			'multibyte, counted in bytes' => array( str_repeat( 'é', 96 ), 'sha256:' . hash( 'sha256', str_repeat( 'é', 96 ) ) ),
		);
	}

	/**
	 * As-is up to MAX_EVENT_ID_LENGTH bytes, hashed past it.
	 *
	 * @dataProvider event_ids
	 * @param string $event_id Event id.
	 * @param string $stored   Stored id.
	 */
	public function test_an_event_id_is_stored_as_is_up_to_the_limit_and_hashed_past_it( string $event_id, string $stored ): void {
		$this->assertSame( $stored, Inbound_Store::storable_event_id( $event_id ) );
		$this->assertLessThanOrEqual( Inbound_Store::MAX_EVENT_ID_LENGTH, strlen( $stored ) );
	}
}

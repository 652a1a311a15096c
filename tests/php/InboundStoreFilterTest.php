<?php
/**
 * The inbound events page's filter, and the ids the store's unique index sees.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Inbound\Inbound_Store;

/**
 * Inbound_Store::page_where() and storable_event_id().
 */
final class InboundStoreFilterTest extends TestCase {

	/**
	 * Filters and their conditions.
	 *
	 * @return array<string, array{0: array, 1: string, 2: string[]}>
	 */
	public static function filters(): array {
		return array(
			'none'                         => array( array(), '1=1', array() ),
			'empty values are no filter'   => array(
				array(
					'source'    => '',
					'status'    => '',
					'event_id'  => '',
					'duplicate' => false,
				),
				'1=1',
				array(),
			),
			'a source'                     => array( array( 'source' => 'stripe' ), '1=1 AND source = %s', array( 'stripe' ) ),
			'a status'                     => array( array( 'status' => 'failed' ), '1=1 AND status = %s', array( 'failed' ) ),
			'an event id or delivery id'   => array( array( 'event_id' => 'evt_1' ), '1=1 AND (event_id = %s OR delivery_id = %s)', array( 'evt_1', 'evt_1' ) ),
			'duplicates only'              => array( array( 'duplicate' => true ), '1=1 AND duplicate_count > 0', array() ),
			'everything, in that order'    => array(
				array(
					'duplicate' => true,
					'event_id'  => 'e',
					'status'    => 'received',
					'source'    => 'github',
				),
				'1=1 AND source = %s AND status = %s AND (event_id = %s OR delivery_id = %s) AND duplicate_count > 0',
				array( 'github', 'received', 'e', 'e' ),
			),
			'an unknown filter is ignored' => array( array( 'type' => 'x' ), '1=1', array() ),
		);
	}

	/**
	 * Conditions with placeholders, values apart.
	 *
	 * @dataProvider filters
	 * @param array    $filter Filter.
	 * @param string   $where  Condition.
	 * @param string[] $values Values.
	 */
	public function test_a_filter_becomes_placeholders_and_values( array $filter, string $where, array $values ): void {
		$this->assertSame( array( $where, $values ), Inbound_Store::page_where( $filter ) );
	}

	/**
	 * A long event id is looked up by its hash and as a delivery id as given.
	 */
	public function test_a_long_event_id_is_looked_up_by_its_hash_and_as_a_delivery_id_as_given(): void {
		$long = str_repeat( 'x', 200 );
		$this->assertSame(
			array( '1=1 AND (event_id = %s OR delivery_id = %s)', array( 'sha256:' . hash( 'sha256', $long ), $long ) ),
			Inbound_Store::page_where( array( 'event_id' => $long ) )
		);
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

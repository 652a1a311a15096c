<?php
/**
 * An outbox row as the sidecar's event.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Outbound\Outbound_Rules;

/**
 * Outbound_Rules::event(): the event a row stands for, or none for a payload that cannot make one.
 */
final class OutboxEventTest extends TestCase {

	/**
	 * A row.
	 *
	 * @param string $payload      Stored payload.
	 * @param string $ordering_key Ordering key.
	 */
	private static function row( string $payload, string $ordering_key = 'order:12' ): object {
		return (object) array(
			'id'           => '3',
			'event_id'     => 'evt-3',
			'type'         => 'order.paid',
			'ordering_key' => $ordering_key,
			'payload'      => $payload,
		);
	}

	/**
	 * A row makes the event with its timestamp and data.
	 */
	public function test_a_row_makes_the_event_with_its_timestamp_and_data(): void {
		$this->assertSame(
			array(
				'id'           => 'evt-3',
				'type'         => 'order.paid',
				'timestamp'    => '2026-07-08T12:00:00Z',
				'data'         => array(
					'id'    => 12,
					'total' => '42.50',
				),
				'ordering_key' => 'order:12',
			),
			Outbound_Rules::event( self::row( '{"timestamp":"2026-07-08T12:00:00Z","data":{"id":12,"total":"42.50"},"extra":1}' ) )
		);
	}

	/**
	 * An empty ordering key is none and empty data is still data.
	 */
	public function test_an_empty_ordering_key_is_none_and_empty_data_is_still_data(): void {
		$event = Outbound_Rules::event( self::row( '{"timestamp":"t","data":{}}', '' ) );
		$this->assertNull( $event['ordering_key'] );
		$this->assertSame( array(), $event['data'] );
		$this->assertSame( 't', $event['timestamp'] );
	}

	/**
	 * Payloads that cannot make an event.
	 *
	 * @return array<string, array{0: string}>
	 */
	public static function unsendable(): array {
		return array(
			'null (not encodable when written)' => array( 'null' ),
			'empty'                             => array( '' ),
			'not JSON'                          => array( 'timestamp=1' ),
			'a list'                            => array( '["2026-07-08T12:00:00Z",{}]' ),
			'no timestamp'                      => array( '{"data":{}}' ),
			'a numeric timestamp'               => array( '{"timestamp":1752000000,"data":{}}' ),
			'a null timestamp'                  => array( '{"timestamp":null,"data":{}}' ),
			'no data'                           => array( '{"timestamp":"t"}' ),
			'data that is text'                 => array( '{"timestamp":"t","data":"x"}' ),
			'null data'                         => array( '{"timestamp":"t","data":null}' ),
		);
	}

	/**
	 * None: Hand_Over parks the row.
	 *
	 * @dataProvider unsendable
	 * @param string $payload Stored payload.
	 */
	public function test_a_payload_without_a_string_timestamp_and_a_data_object_makes_no_event( string $payload ): void {
		$this->assertNull( Outbound_Rules::event( self::row( $payload ) ) );
	}
}

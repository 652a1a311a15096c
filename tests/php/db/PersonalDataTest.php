<?php
/**
 * The privacy exporter and eraser on the real outbox and inbound tables in MariaDB.
 *
 * @package ServiceIntegration
 */

use ServiceIntegration\Inbound\Inbound_Store;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Privacy\Personal_Data;
use ServiceIntegration\Privacy\Personal_Data_Json;
use ServiceIntegration\Sidecar\Sidecar_Client;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\Store_Test_Case;
use ServiceIntegration\Support\Wp_Options;

/**
 * Personal_Data's tables: the rows whose payload mentions the email, a page at a time, exported
 * or rewritten with markers; a read or a write the database refuses is reported (an export
 * fails, an erasure says what it retained), never taken for "nothing there".
 */
final class PersonalDataTest extends Store_Test_Case {

	const EMAIL = 'Ada@Example.com';

	/**
	 * The exporter and eraser under test (no sidecar configured).
	 *
	 * @var Personal_Data
	 */
	private Personal_Data $privacy;

	/**
	 * The outbox.
	 *
	 * @var Outbox
	 */
	private Outbox $outbox;

	/**
	 * The inbound events.
	 *
	 * @var Inbound_Store
	 */
	private Inbound_Store $inbound;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		parent::setUp();
		$clock         = new Fixed_Clock( 1767225600 );
		$this->outbox  = new Outbox( $this->db, $clock, new Wp_Options( $this->db ) );
		$this->inbound = new Inbound_Store( $this->db, $clock, new Wp_Options( $this->db ) );
		$this->privacy = new Personal_Data( $this->db, new Sidecar_Client( 'http://127.0.0.1:9529', '' ), $this->outbox, $this->inbound );
	}

	/**
	 * An order event in the outbox whose billing email is $email; returns its row id.
	 *
	 * @param int    $order Order id.
	 * @param string $email The billing email in its payload.
	 */
	private function order_event( int $order, string $email ): int {
		$payload = array(
			'id'      => $order,
			'billing' => array(
				'first_name' => 'Ada',
				'email'      => $email,
			),
		);
		$this->assertTrue( $this->outbox->add( 'evt_' . $order, 'order.paid', 'order:' . $order, $payload ) );
		return (int) $this->payloads( $this->outbox->table(), 'evt_' . $order )['id'];
	}

	/**
	 * One row's id and payload (decoded) by event id.
	 *
	 * @param string $table    Table.
	 * @param string $event_id Event id.
	 * @return array{id: string, payload: mixed}
	 */
	private function payloads( string $table, string $event_id ): array {
		$rows = $this->rows( $table, $this->db->prepare( 'event_id = %s', $event_id ) );
		$this->assertCount( 1, $rows );
		return array(
			'id'      => $rows[0]['id'],
			'payload' => json_decode( (string) $rows[0]['payload'], true ),
		);
	}

	/**
	 * An export answers the rows holding the email (whatever its case and spaces), not those
	 * holding a longer address that contains it.
	 */
	public function test_an_export_answers_the_rows_holding_the_email_and_skips_longer_addresses(): void {
		$ada = $this->order_event( 43, 'ada@example.com' );
		$this->order_event( 47, 'lovelace.ada@example.com' );
		$this->order_event( 48, 'grace@example.com' );
		$page = $this->privacy->export_table( 'outbox', ' ' . self::EMAIL . ' ', 1 );
		$this->assertSame( array( 'service-integration-outbox-' . $ada ), array_column( $page['data'], 'item_id' ) );
		$this->assertTrue( $page['done'] );
		$this->assertContains(
			array(
				'name'  => 'Email',
				'value' => 'ada@example.com',
			),
			$page['data'][0]['data']
		);
		$this->assertContains(
			array(
				'name'  => 'Event id',
				'value' => 'evt_43',
			),
			$page['data'][0]['data']
		);
	}

	/**
	 * Pages hold fifty rows each, by id, and say when another page follows.
	 */
	public function test_an_export_pages_fifty_rows_at_a_time(): void {
		$ids = array();
		for ( $order = 1; $order <= Personal_Data::PER_PAGE + 2; $order++ ) {
			$ids[] = $this->order_event( $order, 'ada@example.com' );
		}
		$first = $this->privacy->export_table( 'outbox', self::EMAIL, 1 );
		$this->assertFalse( $first['done'] );
		$this->assertCount( Personal_Data::PER_PAGE, $first['data'] );
		$second = $this->privacy->export_table( 'outbox', self::EMAIL, 2 );
		$this->assertTrue( $second['done'] );
		$this->assertSame(
			array( 'service-integration-outbox-' . $ids[ Personal_Data::PER_PAGE ], 'service-integration-outbox-' . $ids[ Personal_Data::PER_PAGE + 1 ] ),
			array_column( $second['data'], 'item_id' )
		);
	}

	/**
	 * An email with LIKE's wildcards matches them literally: rows that only a wildcard would
	 * match take no place in a page (here a page's worth of them comes first).
	 */
	public function test_an_email_with_like_wildcards_matches_them_literally(): void {
		for ( $n = 1; $n <= Personal_Data::PER_PAGE; $n++ ) {
			$this->inbound->insert_once( 'shop', 'evt_lookalike_' . $n, 'customer.created', '{"email":"axbyc@example.com"}', '' );
		}
		$this->inbound->insert_once( 'shop', 'evt_wild', 'customer.created', '{"email":"a_b%c@example.com"}', '' );
		$page = $this->privacy->export_table( 'inbound', 'a_b%c@example.com', 1 );
		$this->assertTrue( $page['done'] );
		$this->assertCount( 1, $page['data'] );
		$this->assertContains(
			array(
				'name'  => 'Event id',
				'value' => 'evt_wild',
			),
			$page['data'][0]['data']
		);
		$this->assertSame( array(), $this->privacy->export_table( 'inbound', 'a_b_c@example.com', 1 )['data'] );
	}

	/**
	 * An export whose read fails is an error, not an empty export.
	 */
	public function test_an_export_whose_read_fails_is_an_error_not_an_empty_export(): void {
		$this->inbound->insert_once( 'shop', 'evt_1', 'customer.created', '{"email":"ada@example.com"}', '' );
		$this->break_table( $this->inbound->table() );
		$answer = $this->privacy->export_table( 'inbound', self::EMAIL, 1 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( 'service_integration_privacy_query_failed', $answer->get_error_code() );
	}

	/**
	 * An erasure rewrites each row holding the email with markers, and leaves the others.
	 */
	public function test_an_erasure_rewrites_each_row_holding_the_email_with_markers(): void {
		$this->order_event( 43, 'ada@example.com' );
		$this->order_event( 47, 'lovelace.ada@example.com' );
		$this->order_event( 48, 'grace@example.com' );
		$answer = $this->privacy->erase_table( 'outbox', self::EMAIL );
		$this->assertSame(
			array(
				'items_removed'  => true,
				'items_retained' => false,
				'messages'       => array(),
				'done'           => true,
			),
			$answer
		);
		// The customer's object: every personal field; the ids stay.
		$payload = $this->payloads( $this->outbox->table(), 'evt_43' )['payload'];
		$this->assertSame( Personal_Data_Json::marker( 'ada@example.com' ), $payload['billing']['email'] );
		$this->assertSame( Personal_Data_Json::marker( 'Ada' ), $payload['billing']['first_name'] );
		$this->assertSame( 43, $payload['id'] );
		// Another address that contains the email: the email inside it, and nothing else of that object.
		$other = $this->payloads( $this->outbox->table(), 'evt_47' )['payload'];
		$this->assertSame( 'lovelace.' . Personal_Data_Json::marker( 'ada@example.com' ), $other['billing']['email'] );
		$this->assertSame( 'Ada', $other['billing']['first_name'] );
		$this->assertSame( 'grace@example.com', $this->payloads( $this->outbox->table(), 'evt_48' )['payload']['billing']['email'] );
		// Nothing of hers is left to export.
		$this->assertSame( array(), $this->privacy->export_table( 'outbox', self::EMAIL, 1 )['data'] );
	}

	/**
	 * A row that cannot be rewritten is reported retained, and the others are rewritten.
	 */
	public function test_a_row_that_cannot_be_rewritten_is_reported_retained_and_the_others_are_rewritten(): void {
		$refused = $this->order_event( 3, 'ada@example.com' );
		$this->order_event( 4, 'ada@example.com' );
		$this->refuse( 'UPDATE', $this->outbox->table(), 'OLD.id = ' . $refused );
		$answer = $this->privacy->erase_table( 'outbox', self::EMAIL );
		$this->assertTrue( $answer['items_removed'] );
		$this->assertTrue( $answer['items_retained'] );
		$this->assertSame( array( 'Row ' . $refused . ' of ' . $this->outbox->table() . ' could not be rewritten; run the erasure again.' ), $answer['messages'] );
		$this->assertSame( 'ada@example.com', $this->payloads( $this->outbox->table(), 'evt_3' )['payload']['billing']['email'] );
		$this->assertSame( Personal_Data_Json::marker( 'ada@example.com' ), $this->payloads( $this->outbox->table(), 'evt_4' )['payload']['billing']['email'] );
	}

	/**
	 * An erasure whose read fails says the data is retained.
	 */
	public function test_an_erasure_whose_read_fails_says_the_data_is_retained(): void {
		$this->inbound->insert_once( 'shop', 'evt_1', 'customer.created', '{"email":"ada@example.com"}', '' );
		$this->break_table( $this->inbound->table() );
		$answer = $this->privacy->erase_table( 'inbound', self::EMAIL );
		$this->assertSame( array( false, true ), array( $answer['items_removed'], $answer['items_retained'] ) );
		$this->assertCount( 1, $answer['messages'] );
	}
}

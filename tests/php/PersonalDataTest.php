<?php
/**
 * The privacy exporter and eraser over the outbox and inbound tables, on a recording database.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Inbound\Inbound_Store;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Privacy\Personal_Data;
use ServiceIntegration\Privacy\Personal_Data_Json;
use ServiceIntegration\Sidecar\Sidecar_Client;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * Personal_Data's tables: the rows whose payload mentions the email, read a page at a time by
 * id, exported or rewritten with markers; a read or a write the database refuses is reported
 * (an export fails, an erasure says what it retained), never taken for "nothing there".
 */
final class PersonalDataTest extends TestCase {

	const EMAIL = 'Ada@Example.com';

	/**
	 * The database.
	 *
	 * @var Recording_Wpdb
	 */
	private Recording_Wpdb $db;

	/**
	 * The exporter and eraser under test (no sidecar configured).
	 *
	 * @var Personal_Data
	 */
	private Personal_Data $privacy;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		$this->db         = new Recording_Wpdb();
		$this->db->prefix = 'shop_';
		$clock            = new Fixed_Clock( 1767225600 );
		$this->privacy    = new Personal_Data(
			$this->db,
			new Sidecar_Client( 'http://127.0.0.1:8787', '' ),
			new Outbox( $this->db, $clock, new In_Memory_Options() ),
			new Inbound_Store( $this->db, $clock, new In_Memory_Options() )
		);
	}

	/**
	 * An outbox row as the candidates' query returns it.
	 *
	 * @param int    $id    Row id.
	 * @param string $email The billing email in its payload.
	 */
	private static function row( int $id, string $email ): object {
		return (object) array(
			'id'       => $id,
			'event_id' => 'evt_' . $id,
			'type'     => 'order.paid',
			'at'       => '2026-01-01 00:00:00',
			'payload'  => wp_json_encode(
				array(
					'id'      => 40 + $id,
					'billing' => array(
						'first_name' => 'Ada',
						'email'      => $email,
					),
				)
			),
		);
	}

	/**
	 * An export reads the rows mentioning the email and skips longer addresses.
	 */
	public function test_an_export_reads_the_rows_mentioning_the_email_and_skips_longer_addresses(): void {
		$this->db->answers( 'FROM shop_si_outbox', array( self::row( 3, 'ada@example.com' ), self::row( 7, 'lovelace.ada@example.com' ) ) );
		$page = $this->privacy->export_table( 'outbox', ' ' . self::EMAIL . ' ', 2 );
		$this->assertSame( array( 'service-integration-outbox-3' ), array_column( $page['data'], 'item_id' ) );
		$this->assertTrue( $page['done'] );
		$this->assertContains(
			array(
				'name'  => 'Email',
				'value' => 'ada@example.com',
			),
			$page['data'][0]['data']
		);
		$read = $this->db->prepared[0];
		$this->assertStringContainsString( 'FROM shop_si_outbox WHERE id > %d AND LOWER(payload) LIKE LOWER(%s)', $read['sql'] );
		// Page 2: rows 51 to 100, and one more to know whether another page follows.
		$this->assertSame( array( 0, '%' . self::EMAIL . '%', Personal_Data::PER_PAGE + 1, Personal_Data::PER_PAGE ), $read['args'] );
	}

	/**
	 * An email with like wildcards matches them literally.
	 */
	public function test_an_email_with_like_wildcards_matches_them_literally(): void {
		$this->privacy->export_table( 'inbound', 'a_b%c@example.com', 1 );
		$this->assertSame( '%a\_b\%c@example.com%', $this->db->prepared[0]['args'][1] );
		$this->assertStringContainsString( 'FROM shop_si_inbound_events', $this->db->prepared[0]['sql'] );
	}

	/**
	 * An export whose read fails is an error not an empty export.
	 */
	public function test_an_export_whose_read_fails_is_an_error_not_an_empty_export(): void {
		$this->db->fails( 'FROM shop_si_inbound_events' );
		$answer = $this->privacy->export_table( 'inbound', self::EMAIL, 1 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( 'service_integration_privacy_query_failed', $answer->get_error_code() );
	}

	/**
	 * An erasure rewrites each row holding the email with markers.
	 */
	public function test_an_erasure_rewrites_each_row_holding_the_email_with_markers(): void {
		$this->db->answers( 'FROM shop_si_outbox', array( self::row( 3, 'ada@example.com' ), self::row( 7, 'lovelace.ada@example.com' ) ) );
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
		$this->assertSame( array( array( 'id' => 3 ), array( 'id' => 7 ) ), array_column( $this->db->updates, 'where' ) );
		// The customer's object: every personal field; the ids stay.
		$payload = json_decode( $this->db->updates[0]['data']['payload'], true );
		$this->assertSame( Personal_Data_Json::marker( 'ada@example.com' ), $payload['billing']['email'] );
		$this->assertSame( Personal_Data_Json::marker( 'Ada' ), $payload['billing']['first_name'] );
		$this->assertSame( 43, $payload['id'] );
		// Another address that contains the email: the email inside it, and nothing else of that object.
		$other = json_decode( $this->db->updates[1]['data']['payload'], true );
		$this->assertSame( 'lovelace.' . Personal_Data_Json::marker( 'ada@example.com' ), $other['billing']['email'] );
		$this->assertSame( 'Ada', $other['billing']['first_name'] );
	}

	/**
	 * A row that cannot be rewritten is reported retained and the others are rewritten.
	 */
	public function test_a_row_that_cannot_be_rewritten_is_reported_retained_and_the_others_are_rewritten(): void {
		$this->db->answers( 'FROM shop_si_outbox', array( self::row( 3, 'ada@example.com' ), self::row( 4, 'ada@example.com' ) ) );
		$this->db->fails( 'UPDATE shop_si_outbox' );
		$answer = $this->privacy->erase_table( 'outbox', self::EMAIL );
		$this->assertTrue( $answer['items_removed'] );
		$this->assertTrue( $answer['items_retained'] );
		$this->assertSame( array( 'Row 3 of shop_si_outbox could not be rewritten; run the erasure again.' ), $answer['messages'] );
		$this->assertSame( array( array( 'id' => 3 ), array( 'id' => 4 ) ), array_column( $this->db->updates, 'where' ) );
	}

	/**
	 * An erasure whose read fails says the data is retained.
	 */
	public function test_an_erasure_whose_read_fails_says_the_data_is_retained(): void {
		$this->db->fails( 'FROM shop_si_inbound_events' );
		$answer = $this->privacy->erase_table( 'inbound', self::EMAIL );
		$this->assertSame( array( false, true ), array( $answer['items_removed'], $answer['items_retained'] ) );
		$this->assertCount( 1, $answer['messages'] );
		$this->assertSame( array(), $this->db->updates );
	}
}

<?php
/**
 * The outbox over a recording database.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Database_Error;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * What Outbox reads and writes, and that a database error is an error, never an empty result.
 */
final class OutboxTest extends TestCase {

	/** 2026-01-01 00:00:00 UTC. */
	const NOW = 1767225600;

	/**
	 * The database.
	 *
	 * @var Recording_Wpdb
	 */
	private Recording_Wpdb $db;

	/**
	 * The site's options.
	 *
	 * @var In_Memory_Options
	 */
	private In_Memory_Options $options;

	/**
	 * The outbox under test.
	 *
	 * @var Outbox
	 */
	private Outbox $outbox;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		$this->db         = new Recording_Wpdb();
		$this->db->prefix = 'shop_';
		$this->options    = new In_Memory_Options();
		$this->outbox     = new Outbox( $this->db, new Fixed_Clock( self::NOW ), $this->options );
	}

	/**
	 * The table is named after the site prefix.
	 */
	public function test_the_table_is_named_after_the_site_prefix(): void {
		$this->assertSame( 'shop_si_outbox', $this->outbox->table() );
	}

	/**
	 * A new event is inserted once at the clock time.
	 */
	public function test_a_new_event_is_inserted_once_at_the_clock_time(): void {
		$this->db->answers( 'INSERT IGNORE INTO shop_si_outbox', 1 );
		$this->assertTrue( $this->outbox->add( 'evt_1', 'order.paid', 'order:7', array( 'type' => 'order.paid' ) ) );
		$this->assertSame( array( 'evt_1', 'order.paid', 'order:7', '{"type":"order.paid"}', '2026-01-01 00:00:00' ), $this->db->prepared[0]['args'] );
	}

	/**
	 * A request's events are one statement, their rows in the order given.
	 */
	public function test_several_events_are_one_statement_in_their_order(): void {
		$this->db->answers( 'INSERT IGNORE INTO shop_si_outbox', 1 );
		$written = $this->outbox->add_all(
			array(
				array(
					'event_id'     => 'evt_created',
					'type'         => 'order.created',
					'ordering_key' => 'order:7',
					'payload'      => array( 'type' => 'order.created' ),
				),
				array(
					'event_id'     => 'evt_paid',
					'type'         => 'order.paid',
					'ordering_key' => 'order:7',
					'payload'      => array( 'type' => 'order.paid' ),
				),
			)
		);
		$this->assertSame( 1, $written ); // One of the two was stored already.
		$this->assertCount( 1, $this->db->prepared );
		$this->assertStringEndsWith( 'VALUES (%s, %s, %s, %s, %s), (%s, %s, %s, %s, %s)', $this->db->prepared[0]['sql'] );
		$this->assertSame(
			array( 'evt_created', 'order.created', 'order:7', '{"type":"order.created"}', '2026-01-01 00:00:00', 'evt_paid', 'order.paid', 'order:7', '{"type":"order.paid"}', '2026-01-01 00:00:00' ),
			$this->db->prepared[0]['args']
		);
	}

	/**
	 * No event, no statement.
	 */
	public function test_no_event_is_no_statement(): void {
		$this->assertSame( 0, $this->outbox->add_all( array() ) );
		$this->assertSame( array(), $this->db->prepared );
	}

	/**
	 * A refused statement counts each of its events as a write failure.
	 */
	public function test_a_refused_statement_counts_each_of_its_events(): void {
		$this->db->fails( 'INSERT IGNORE', 'The table is full' );
		$event   = array(
			'type'         => 'order.paid',
			'ordering_key' => 'order:7',
			'payload'      => array(),
		);
		$written = $this->outbox->add_all( array( array( 'event_id' => 'evt_a' ) + $event, array( 'event_id' => 'evt_b' ) + $event ) );
		$this->assertSame( 0, $written );
		$tally = $this->options->values[ Outbox::WRITE_FAILURES_OPTION ];
		$this->assertSame( array( 2, 'evt_b' ), array( $tally['count'], $tally['last_event'] ) );
	}

	/**
	 * An event already stored is no new row and no failure.
	 */
	public function test_an_event_already_stored_is_no_new_row_and_no_failure(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->assertFalse( $this->outbox->add( 'evt_1', 'order.paid', 'order:7', array() ) );
		$this->assertSame( array(), $this->options->values );
	}

	/**
	 * An event the database refuses is counted as a write failure.
	 */
	public function test_an_event_the_database_refuses_is_counted_as_a_write_failure(): void {
		$this->db->fails( 'INSERT IGNORE', 'The table is full' );
		$this->assertFalse( $this->outbox->add( 'evt_1', 'order.paid', 'order:7', array() ) );
		$tally = $this->options->values[ Outbox::WRITE_FAILURES_OPTION ];
		$this->assertFalse( $this->options->autoload[ Outbox::WRITE_FAILURES_OPTION ] );
		$this->assertSame( 1, $tally['count'] );
		$this->assertSame( 'evt_1', $tally['last_event'] );
		$this->assertSame( 'The table is full', $tally['last_error'] );
		$this->assertSame( '2026-01-01T00:00:00+00:00', $tally['last_at'] );
	}

	/**
	 * A payload that cannot be encoded is kept as null and counted.
	 */
	public function test_a_payload_that_cannot_be_encoded_is_kept_as_null_and_counted(): void {
		$this->db->answers( 'INSERT IGNORE', 1 );
		$this->assertTrue( $this->outbox->add( 'evt_1', 'order.paid', 'order:7', array( 'total' => NAN ) ) );
		$this->assertSame( 'null', $this->db->prepared[0]['args'][3] );
		$this->assertSame( 1, $this->options->values[ Outbox::WRITE_FAILURES_OPTION ]['count'] );
	}

	/**
	 * Pending reads the oldest rows neither handed over nor rejected.
	 */
	public function test_pending_reads_the_oldest_rows_neither_handed_over_nor_rejected(): void {
		$rows = array( (object) array( 'id' => '3' ), (object) array( 'id' => '4' ) );
		$this->db->answers( 'SELECT id, event_id', $rows );
		$this->assertSame( $rows, $this->outbox->pending( 2 ) );
		$this->assertStringContainsString( 'WHERE rejected_at IS NULL AND handed_over_at IS NULL ORDER BY id ASC LIMIT 2', $this->db->sql()[0] );
	}

	/**
	 * Pending on a database error is an error not an empty outbox.
	 */
	public function test_pending_on_a_database_error_is_an_error_not_an_empty_outbox(): void {
		$this->db->fails( 'SELECT id, event_id' );
		$answer = $this->outbox->pending( 100 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
	}

	/**
	 * Acknowledged events are marked handed over at the clock time.
	 */
	public function test_acknowledged_events_are_marked_handed_over_at_the_clock_time(): void {
		$this->db->answers( 'UPDATE shop_si_outbox SET handed_over_at', 2 );
		$this->assertTrue( $this->outbox->mark_handed_over( array( 'evt_1', 'evt_2' ) ) );
		$this->assertSame( "UPDATE shop_si_outbox SET handed_over_at = '2026-01-01 00:00:00' WHERE event_id IN ('evt_1','evt_2')", $this->db->sql()[0] );
	}

	/**
	 * Nothing acknowledged writes nothing.
	 */
	public function test_nothing_acknowledged_writes_nothing(): void {
		$this->assertTrue( $this->outbox->mark_handed_over( array() ) );
		$this->assertTrue( $this->outbox->mark_failed( array(), 'timeout' ) );
		$this->assertSame( array(), $this->db->queries );
	}

	/**
	 * Marking handed over on a database error is an error.
	 */
	public function test_marking_handed_over_on_a_database_error_is_an_error(): void {
		$this->db->fails( 'SET handed_over_at' );
		$this->assertInstanceOf( WP_Error::class, $this->outbox->mark_handed_over( array( 'evt_1' ) ) );
	}

	/**
	 * A failed hand over counts an attempt on each row with the reason cut to the column.
	 */
	public function test_a_failed_hand_over_counts_an_attempt_on_each_row_with_the_reason_cut_to_the_column(): void {
		$this->db->answers( 'SET attempts = attempts + 1, last_error', 2 );
		$this->assertTrue( $this->outbox->mark_failed( array( 3, '4' ), str_repeat( 'x', 300 ) ) );
		$args = $this->db->prepared[0]['args'];
		$this->assertSame( Outbox::ERROR_LENGTH, strlen( $args[0] ) );
		$this->assertSame( array( 3, 4 ), array_slice( $args, 1 ) );
	}

	/**
	 * A rejected row is parked at the clock time with its reason.
	 */
	public function test_a_rejected_row_is_parked_at_the_clock_time_with_its_reason(): void {
		$this->db->answers( 'SET rejected_at', 1 );
		$this->assertTrue( $this->outbox->mark_rejected( 9, 'invalid_body: events.0.timestamp' ) );
		$this->assertSame( array( '2026-01-01 00:00:00', 'invalid_body: events.0.timestamp', 9 ), $this->db->prepared[0]['args'] );
	}

	/**
	 * Parking on a database error is an error.
	 */
	public function test_parking_on_a_database_error_is_an_error(): void {
		$this->db->fails( 'SET rejected_at' );
		$this->assertInstanceOf( WP_Error::class, $this->outbox->mark_rejected( 9, 'invalid_body' ) );
	}

	/**
	 * Retention deletes the rows handed over before the cutoff.
	 */
	public function test_retention_deletes_the_rows_handed_over_before_the_cutoff(): void {
		$this->db->answers( 'SELECT id FROM shop_si_outbox WHERE handed_over_at IS NOT NULL', array( '5', '6' ) );
		$this->db->answers( 'DELETE FROM shop_si_outbox', 2 );
		$this->assertSame( 2, $this->outbox->prune_handed_over( 30, 500 ) );
		$this->assertSame( array( '2025-12-02 00:00:00', 500 ), $this->db->prepared[0]['args'] );
		$this->assertSame( 'DELETE FROM shop_si_outbox WHERE id IN (5,6)', $this->db->sql()[1] );
	}

	/**
	 * Retention with nothing old enough deletes nothing.
	 */
	public function test_retention_with_nothing_old_enough_deletes_nothing(): void {
		$this->assertSame( 0, $this->outbox->prune_handed_over( 30, 500 ) );
		$this->assertCount( 1, $this->db->queries );
	}

	/**
	 * Retention with a negative age queries nothing.
	 */
	public function test_retention_with_a_negative_age_queries_nothing(): void {
		$this->assertSame( 0, $this->outbox->prune_handed_over( -1, 500 ) );
		$this->assertSame( array(), $this->db->queries );
	}

	/**
	 * Retention on a database error is an error not zero rows.
	 */
	public function test_retention_on_a_database_error_is_an_error_not_zero_rows(): void {
		$this->db->fails( 'SELECT id FROM shop_si_outbox' );
		$this->assertInstanceOf( WP_Error::class, $this->outbox->prune_handed_over( 30, 500 ) );
		$this->db->answers( 'SELECT id FROM shop_si_outbox', array( '5' ) );
		$this->db->fails( 'DELETE FROM' );
		$this->assertInstanceOf( WP_Error::class, $this->outbox->prune_handed_over( 30, 500 ) );
	}

	/**
	 * Counts answer the admin page.
	 */
	public function test_counts_answer_the_admin_page(): void {
		$this->db->answers(
			'SELECT SUM(',
			(object) array(
				'pending'     => '2',
				'handed_over' => '5',
				'rejected'    => '1',
				'oldest'      => '2025-12-31 23:00:00',
			)
		);
		$this->db->answers( 'SELECT last_error', 'sidecar_unreachable' );
		$this->db->answers(
			'WHERE rejected_at IS NOT NULL',
			array(
				(object) array(
					'event_id'    => 'evt_9',
					'type'        => 'order.paid',
					'last_error'  => 'invalid_body',
					'created_at'  => '2025-12-31 22:00:00',
					'rejected_at' => '2025-12-31 22:00:01',
				),
			)
		);
		$counts = $this->outbox->counts();
		$this->assertSame( 2, $counts['pending'] );
		$this->assertSame( 5, $counts['handed_over'] );
		$this->assertSame( 1, $counts['rejected'] );
		$this->assertSame( '2025-12-31 23:00:00', $counts['oldest_pending'] );
		$this->assertSame( 'sidecar_unreachable', $counts['last_error'] );
		$this->assertSame( 'invalid_body', $counts['rejected_events'][0]['error'] );
		$this->assertSame( 0, $counts['write_failures']['count'] );
	}

	/**
	 * Counts carry the write failures tally.
	 */
	public function test_counts_carry_the_write_failures_tally(): void {
		$this->db->fails( 'INSERT IGNORE', 'The table is full' );
		$this->outbox->add( 'evt_lost', 'order.paid', 'order:7', array() );
		$failures = $this->outbox->counts()['write_failures'];
		$this->assertSame( array( 1, 'evt_lost', 'The table is full' ), array( $failures['count'], $failures['last_event'], $failures['last_error'] ) );
	}

	/**
	 * Counts of an empty outbox are zeros.
	 */
	public function test_counts_of_an_empty_outbox_are_zeros(): void {
		$this->db->answers(
			'SELECT SUM(',
			(object) array(
				'pending'     => null,
				'handed_over' => null,
				'rejected'    => null,
				'oldest'      => null,
			)
		);
		$counts = $this->outbox->counts();
		$this->assertSame( array( 0, 0, 0, null, null, array() ), array( $counts['pending'], $counts['handed_over'], $counts['rejected'], $counts['oldest_pending'], $counts['last_error'], $counts['rejected_events'] ) );
	}

	/**
	 * Each of the three reads of counts().
	 *
	 * @return array<string, array{0: string}>
	 */
	public static function count_queries(): array {
		return array(
			'the totals'        => array( 'SELECT SUM(' ),
			'the last error'    => array( 'SELECT last_error' ),
			'the rejected rows' => array( 'WHERE rejected_at IS NOT NULL' ),
		);
	}

	/**
	 * A failed read is an error, never zeros.
	 *
	 * @dataProvider count_queries
	 * @param string $fragment The read that fails.
	 */
	public function test_counts_on_a_database_error_are_an_error_not_zeros( string $fragment ): void {
		$this->db->fails( $fragment );
		$this->assertInstanceOf( WP_Error::class, $this->outbox->counts() );
	}
}

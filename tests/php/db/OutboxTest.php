<?php
/**
 * The outbox on WordPress's wpdb and MariaDB, its table created by its own install().
 *
 * @package ServiceIntegration
 */

use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Outbound\Outbox;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\Store_Test_Case;
use ServiceIntegration\Support\Wp_Options;

/**
 * What Outbox keeps and returns, and that a database error is an error, never an empty result.
 */
final class OutboxTest extends Store_Test_Case {

	/** 2026-01-01 00:00:00 UTC. */
	const NOW = 1767225600;

	/**
	 * The outbox under test.
	 *
	 * @var Outbox
	 */
	private Outbox $outbox;

	/**
	 * The outbox's table.
	 *
	 * @var string
	 */
	private string $table;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		parent::setUp();
		$this->outbox = new Outbox( $this->db, new Fixed_Clock( self::NOW ), new Wp_Options( $this->db ) );
		$this->table  = $this->outbox->table();
	}

	/**
	 * A row in the outbox as another request left it; returns its id.
	 *
	 * @param string      $event_id       Event id.
	 * @param string|null $handed_over_at When the sidecar took it.
	 * @param string|null $rejected_at    When it was parked.
	 * @param string      $last_error     Its last error.
	 * @param string      $created_at     When it was written.
	 */
	private function row( string $event_id, ?string $handed_over_at = null, ?string $rejected_at = null, string $last_error = '', string $created_at = '2025-12-31 23:00:00' ): int {
		$this->sql(
			$this->db->prepare(
				"INSERT INTO {$this->table} (event_id, type, ordering_key, payload, created_at, handed_over_at, rejected_at, last_error) VALUES (%s, 'order.paid', 'order:7', '{}', %s, NULLIF(%s, ''), NULLIF(%s, ''), %s)",
				$event_id,
				$created_at,
				(string) $handed_over_at,
				(string) $rejected_at,
				$last_error
			)
		);
		return (int) $this->stored( $event_id )['id'];
	}

	/**
	 * One row of the outbox by event id.
	 *
	 * @param string $event_id Event id.
	 * @return array<string, string|null>
	 */
	private function stored( string $event_id ): array {
		$rows = $this->rows( $this->table, $this->db->prepare( 'event_id = %s', $event_id ) );
		$this->assertCount( 1, $rows, $event_id );
		return $rows[0];
	}

	/**
	 * The event ids in the table.
	 *
	 * @return string[]
	 */
	private function event_ids(): array {
		return array_column( $this->rows( $this->table, '1 = 1 ORDER BY id' ), 'event_id' );
	}

	/**
	 * The write-failures tally as stored in the options table.
	 *
	 * @return mixed
	 */
	private function write_failures() {
		return maybe_unserialize( $this->stored_option( Outbox::WRITE_FAILURES_OPTION ) );
	}

	/**
	 * A new event is stored once, pending, at the clock time.
	 */
	public function test_a_new_event_is_stored_once_at_the_clock_time(): void {
		$this->assertTrue( $this->outbox->add( 'evt_1', 'order.paid', 'order:7', array( 'type' => 'order.paid' ) ) );
		$row = $this->stored( 'evt_1' );
		$this->assertSame(
			array( 'order.paid', 'order:7', '{"type":"order.paid"}', '2026-01-01 00:00:00', null, null, '0', '' ),
			array( $row['type'], $row['ordering_key'], $row['payload'], $row['created_at'], $row['handed_over_at'], $row['rejected_at'], $row['attempts'], $row['last_error'] )
		);
	}

	/**
	 * A request's events are stored in the order given; one already stored is kept as it was.
	 */
	public function test_several_events_are_stored_in_their_order_and_a_stored_one_kept(): void {
		$this->assertTrue( $this->outbox->add( 'evt_created', 'order.created', 'order:7', array( 'n' => 1 ) ) );
		$written = $this->outbox->add_all(
			array(
				array(
					'event_id'     => 'evt_created',
					'type'         => 'order.created',
					'ordering_key' => 'order:7',
					'payload'      => array( 'n' => 2 ),
				),
				array(
					'event_id'     => 'evt_paid',
					'type'         => 'order.paid',
					'ordering_key' => 'order:7',
					'payload'      => array( 'type' => 'order.paid' ),
				),
				array(
					'event_id'     => 'evt_refunded',
					'type'         => 'order.refunded',
					'ordering_key' => 'order:7',
					'payload'      => array( 'type' => 'order.refunded' ),
				),
			)
		);
		$this->assertSame( 2, $written );
		$this->assertSame( array( 'evt_created', 'evt_paid', 'evt_refunded' ), $this->event_ids() );
		$this->assertSame( '{"n":1}', $this->stored( 'evt_created' )['payload'] );
		$paid = $this->stored( 'evt_paid' );
		$this->assertSame(
			array( 'order.paid', 'order:7', '{"type":"order.paid"}', '2026-01-01 00:00:00', null ),
			array( $paid['type'], $paid['ordering_key'], $paid['payload'], $paid['created_at'], $paid['handed_over_at'] )
		);
		$this->assertNull( $this->stored_option( Outbox::WRITE_FAILURES_OPTION ) );
	}

	/**
	 * No event, no row.
	 */
	public function test_no_event_is_no_row(): void {
		$this->assertSame( 0, $this->outbox->add_all( array() ) );
		$this->assertSame( array(), $this->event_ids() );
	}

	/**
	 * Events the database refuses are each counted as a write failure, and none is half-written.
	 */
	public function test_refused_events_are_each_counted_and_none_written(): void {
		$this->refuse( 'INSERT', $this->table );
		$event   = array(
			'type'         => 'order.paid',
			'ordering_key' => 'order:7',
			'payload'      => array(),
		);
		$written = $this->outbox->add_all( array( array( 'event_id' => 'evt_a' ) + $event, array( 'event_id' => 'evt_b' ) + $event ) );
		$this->assertSame( 0, $written );
		$this->assertSame( array(), $this->event_ids() );
		$tally = $this->write_failures();
		$this->assertSame( array( 2, 'evt_b' ), array( $tally['count'], $tally['last_event'] ) );
	}

	/**
	 * An event already stored is no new row and no failure.
	 */
	public function test_an_event_already_stored_is_no_new_row_and_no_failure(): void {
		$this->assertTrue( $this->outbox->add( 'evt_1', 'order.paid', 'order:7', array( 'n' => 1 ) ) );
		$this->assertFalse( $this->outbox->add( 'evt_1', 'order.paid', 'order:7', array( 'n' => 2 ) ) );
		$this->assertSame( array( 'evt_1' ), $this->event_ids() );
		$this->assertSame( '{"n":1}', $this->stored( 'evt_1' )['payload'] );
		$this->assertNull( $this->stored_option( Outbox::WRITE_FAILURES_OPTION ) );
	}

	/**
	 * An event the database refuses is counted as a write failure, in an option not autoloaded.
	 */
	public function test_an_event_the_database_refuses_is_counted_as_a_write_failure(): void {
		$this->refuse( 'INSERT', $this->table );
		$this->assertFalse( $this->outbox->add( 'evt_1', 'order.paid', 'order:7', array() ) );
		$this->assertSame( array(), $this->event_ids() );
		$tally = $this->write_failures();
		$this->assertSame( 1, $tally['count'] );
		$this->assertSame( 'evt_1', $tally['last_event'] );
		$this->assertSame( 'refused by the test', $tally['last_error'] );
		$this->assertSame( '2026-01-01T00:00:00+00:00', $tally['last_at'] );
		$this->assertSame( array( 'off' ), array_column( $this->rows( $this->db->options, $this->db->prepare( 'option_name = %s', Outbox::WRITE_FAILURES_OPTION ) ), 'autoload' ) );
	}

	/**
	 * A payload that cannot be encoded is kept as null and counted.
	 */
	public function test_a_payload_that_cannot_be_encoded_is_kept_as_null_and_counted(): void {
		$this->assertTrue( $this->outbox->add( 'evt_1', 'order.paid', 'order:7', array( 'total' => NAN ) ) );
		$this->assertSame( 'null', $this->stored( 'evt_1' )['payload'] );
		$this->assertSame( 1, $this->write_failures()['count'] );
	}

	/**
	 * Pending answers the oldest rows neither handed over nor rejected, oldest first, up to the limit.
	 */
	public function test_pending_answers_the_oldest_rows_neither_handed_over_nor_rejected(): void {
		$this->row( 'evt_done', '2025-12-31 23:30:00' );
		$first = $this->row( 'evt_first' );
		$this->row( 'evt_parked', null, '2025-12-31 23:30:00', 'invalid_body' );
		$second = $this->row( 'evt_second' );
		$this->row( 'evt_third' );
		$pending = $this->outbox->pending( 2 );
		$this->assertSame( array( 'evt_first', 'evt_second' ), array_column( $pending, 'event_id' ) );
		$this->assertSame( array( (string) $first, (string) $second ), array_column( $pending, 'id' ) );
		$this->assertSame( array( 'order.paid', 'order:7', '{}' ), array( $pending[0]->type, $pending[0]->ordering_key, $pending[0]->payload ) );
	}

	/**
	 * Pending on a database error is an error, not an empty outbox.
	 */
	public function test_pending_on_a_database_error_is_an_error_not_an_empty_outbox(): void {
		$this->break_table( $this->table );
		$answer = $this->outbox->pending( 100 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
	}

	/**
	 * Acknowledged events, and only they, are marked handed over at the clock time.
	 */
	public function test_acknowledged_events_are_marked_handed_over_at_the_clock_time(): void {
		$this->row( 'evt_1' );
		$this->row( 'evt_2' );
		$this->row( 'evt_3' );
		$this->assertTrue( $this->outbox->mark_handed_over( array( 'evt_1', 'evt_2' ) ) );
		$this->assertSame( '2026-01-01 00:00:00', $this->stored( 'evt_1' )['handed_over_at'] );
		$this->assertSame( '2026-01-01 00:00:00', $this->stored( 'evt_2' )['handed_over_at'] );
		$this->assertNull( $this->stored( 'evt_3' )['handed_over_at'] );
		$this->assertSame( array( 'evt_3' ), array_column( $this->outbox->pending( 10 ), 'event_id' ) );
	}

	/**
	 * Nothing acknowledged and nothing failed change nothing.
	 */
	public function test_nothing_acknowledged_changes_nothing(): void {
		$this->row( 'evt_1' );
		$before = $this->rows( $this->table );
		$this->assertTrue( $this->outbox->mark_handed_over( array() ) );
		$this->assertTrue( $this->outbox->mark_failed( array(), 'timeout' ) );
		$this->assertSame( $before, $this->rows( $this->table ) );
	}

	/**
	 * Marking handed over on a database error is an error, and the row stays pending.
	 */
	public function test_marking_handed_over_on_a_database_error_is_an_error(): void {
		$this->row( 'evt_1' );
		$this->refuse( 'UPDATE', $this->table );
		$answer = $this->outbox->mark_handed_over( array( 'evt_1' ) );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		$this->assertNull( $this->stored( 'evt_1' )['handed_over_at'] );
	}

	/**
	 * A failed hand-over counts an attempt on each row tried, with the reason cut to the column.
	 */
	public function test_a_failed_hand_over_counts_an_attempt_on_each_row_with_the_reason_cut_to_the_column(): void {
		$three = $this->row( 'evt_3' );
		$four  = $this->row( 'evt_4' );
		$this->row( 'evt_5' );
		$this->assertTrue( $this->outbox->mark_failed( array( $three, (string) $four ), str_repeat( 'x', 300 ) ) );
		$this->assertTrue( $this->outbox->mark_failed( array( $three ), 'timeout' ) );
		$this->assertSame( array( '2', 'timeout' ), array( $this->stored( 'evt_3' )['attempts'], $this->stored( 'evt_3' )['last_error'] ) );
		$this->assertSame( array( '1', str_repeat( 'x', Outbox::ERROR_LENGTH ) ), array( $this->stored( 'evt_4' )['attempts'], $this->stored( 'evt_4' )['last_error'] ) );
		$this->assertSame( array( '0', '' ), array( $this->stored( 'evt_5' )['attempts'], $this->stored( 'evt_5' )['last_error'] ) );
		$this->assertNull( $this->stored( 'evt_4' )['handed_over_at'] );
	}

	/**
	 * A rejected row is parked at the clock time with its reason, and is no longer pending.
	 */
	public function test_a_rejected_row_is_parked_at_the_clock_time_with_its_reason(): void {
		$id = $this->row( 'evt_9' );
		$this->row( 'evt_10' );
		$this->assertTrue( $this->outbox->mark_rejected( $id, 'invalid_body: events.0.timestamp' ) );
		$row = $this->stored( 'evt_9' );
		$this->assertSame( array( '2026-01-01 00:00:00', 'invalid_body: events.0.timestamp', '1' ), array( $row['rejected_at'], $row['last_error'], $row['attempts'] ) );
		$this->assertNull( $this->stored( 'evt_10' )['rejected_at'] );
		$this->assertSame( array( 'evt_10' ), array_column( $this->outbox->pending( 10 ), 'event_id' ) );
	}

	/**
	 * Parking on a database error is an error, and the row stays pending.
	 */
	public function test_parking_on_a_database_error_is_an_error(): void {
		$id = $this->row( 'evt_9' );
		$this->refuse( 'UPDATE', $this->table );
		$this->assertInstanceOf( WP_Error::class, $this->outbox->mark_rejected( $id, 'invalid_body' ) );
		$this->assertNull( $this->stored( 'evt_9' )['rejected_at'] );
	}

	/**
	 * Retention deletes the rows handed over before the cutoff, the oldest first up to the limit,
	 * never a pending, a rejected or a recent row.
	 */
	public function test_retention_deletes_the_rows_handed_over_before_the_cutoff(): void {
		$this->row( 'evt_old', '2025-11-01 00:00:00' );
		$this->row( 'evt_older', '2025-10-01 00:00:00' );
		$this->row( 'evt_at_cutoff', '2025-12-02 00:00:00' );
		$this->row( 'evt_recent', '2025-12-02 00:00:01' );
		$this->row( 'evt_pending' );
		$this->row( 'evt_parked', null, '2025-10-01 00:00:00', 'invalid_body' );
		$this->assertSame( 2, $this->outbox->prune_handed_over( 30, 2 ) );
		$this->assertSame( array( 'evt_at_cutoff', 'evt_recent', 'evt_pending', 'evt_parked' ), $this->event_ids() );
		$this->assertSame( 1, $this->outbox->prune_handed_over( 30, 500 ) );
		$this->assertSame( array( 'evt_recent', 'evt_pending', 'evt_parked' ), $this->event_ids() );
	}

	/**
	 * Retention with nothing old enough deletes nothing.
	 */
	public function test_retention_with_nothing_old_enough_deletes_nothing(): void {
		$this->row( 'evt_recent', '2025-12-31 00:00:00' );
		$this->row( 'evt_pending' );
		$this->assertSame( 0, $this->outbox->prune_handed_over( 30, 500 ) );
		$this->assertSame( array( 'evt_recent', 'evt_pending' ), $this->event_ids() );
	}

	/**
	 * Retention with a negative age deletes nothing.
	 */
	public function test_retention_with_a_negative_age_deletes_nothing(): void {
		$this->row( 'evt_old', '2025-01-01 00:00:00' );
		$this->assertSame( 0, $this->outbox->prune_handed_over( -1, 500 ) );
		$this->assertSame( array( 'evt_old' ), $this->event_ids() );
	}

	/**
	 * Retention on a database error, in the search or in the delete, is an error, not zero rows.
	 */
	public function test_retention_on_a_database_error_is_an_error_not_zero_rows(): void {
		$this->row( 'evt_old', '2025-01-01 00:00:00' );
		$this->refuse( 'DELETE', $this->table );
		$this->assertInstanceOf( WP_Error::class, $this->outbox->prune_handed_over( 30, 500 ) );
		$this->assertSame( array( 'evt_old' ), $this->event_ids() );
		$this->break_table( $this->table );
		$this->assertInstanceOf( WP_Error::class, $this->outbox->prune_handed_over( 30, 500 ) );
	}

	/**
	 * Counts answer the admin page from the rows.
	 */
	public function test_counts_answer_the_admin_page(): void {
		$this->row( 'evt_1', null, null, '', '2025-12-31 22:30:00' );
		$this->row( 'evt_2', null, null, 'sidecar_unreachable', '2025-12-31 23:00:00' );
		$this->row( 'evt_3', null, null, 'timeout', '2025-12-31 23:10:00' );
		foreach ( array( 4, 5 ) as $n ) {
			$this->row( 'evt_' . $n, '2025-12-31 23:30:00' );
		}
		$this->row( 'evt_9', null, '2025-12-31 22:00:01', 'invalid_body', '2025-12-31 22:00:00' );
		$counts = $this->outbox->counts();
		$this->assertSame( 3, $counts['pending'] );
		$this->assertSame( 2, $counts['handed_over'] );
		$this->assertSame( 1, $counts['rejected'] );
		$this->assertSame( '2025-12-31 22:30:00', $counts['oldest_pending'] );
		$this->assertSame( 'sidecar_unreachable', $counts['last_error'] );
		$this->assertSame(
			array(
				array(
					'event_id'    => 'evt_9',
					'type'        => 'order.paid',
					'error'       => 'invalid_body',
					'created_at'  => '2025-12-31 22:00:00',
					'rejected_at' => '2025-12-31 22:00:01',
				),
			),
			$counts['rejected_events']
		);
		$this->assertSame( 0, $counts['write_failures']['count'] );
	}

	/**
	 * Counts carry the write-failures tally.
	 */
	public function test_counts_carry_the_write_failures_tally(): void {
		$this->refuse( 'INSERT', $this->table );
		$this->outbox->add( 'evt_lost', 'order.paid', 'order:7', array() );
		$failures = $this->outbox->counts()['write_failures'];
		$this->assertSame( array( 1, 'evt_lost', 'refused by the test' ), array( $failures['count'], $failures['last_event'], $failures['last_error'] ) );
	}

	/**
	 * Counts of an empty outbox are zeros.
	 */
	public function test_counts_of_an_empty_outbox_are_zeros(): void {
		$counts = $this->outbox->counts();
		$this->assertSame( array( 0, 0, 0, null, null, array() ), array( $counts['pending'], $counts['handed_over'], $counts['rejected'], $counts['oldest_pending'], $counts['last_error'], $counts['rejected_events'] ) );
	}

	/**
	 * The three reads of counts(), each failing in turn: the table gone just before it.
	 *
	 * @return array<string, array{0: string}>
	 */
	public static function count_reads(): array {
		return array(
			'the totals'        => array( 'SELECT SUM(' ),
			'the last error'    => array( 'SELECT last_error' ),
			'the rejected rows' => array( 'WHERE rejected_at IS NOT NULL' ),
		);
	}

	/**
	 * A failed read is an error, never zeros.
	 *
	 * @dataProvider count_reads
	 * @param string $read The read that fails.
	 */
	public function test_counts_on_a_database_error_are_an_error_not_zeros( string $read ): void {
		$this->row( 'evt_1' );
		$this->just_before( $read, fn() => $this->break_table( $this->table ) );
		$answer = $this->outbox->counts();
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
	}
}

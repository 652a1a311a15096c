<?php
/**
 * The inbound events store on WordPress's wpdb and MariaDB, its table created by its own install().
 *
 * @package ServiceIntegration
 */

use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Inbound\Inbound_Store;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\Store_Test_Case;
use ServiceIntegration\Support\Wp_Options;

/**
 * What Inbound_Store keeps and returns: stored once, redeliveries counted, pages and their
 * filters, the due events, claims, outcomes, retries, counts; a database error is an error,
 * never an empty result.
 */
final class InboundStoreTest extends Store_Test_Case {

	/** 2026-01-01 00:00:00 UTC. */
	const NOW = 1767225600;

	/** NOW as stored. */
	const NOW_SQL = '2026-01-01 00:00:00';

	/**
	 * The clock.
	 *
	 * @var Fixed_Clock
	 */
	private Fixed_Clock $clock;

	/**
	 * The store under test.
	 *
	 * @var Inbound_Store
	 */
	private Inbound_Store $store;

	/**
	 * The store's table.
	 *
	 * @var string
	 */
	private string $table;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		parent::setUp();
		$this->clock = new Fixed_Clock( self::NOW );
		$this->store = new Inbound_Store( $this->db, $this->clock, new Wp_Options( $this->db ) );
		$this->table = $this->store->table();
	}

	/**
	 * An event stored through the store; returns its id.
	 *
	 * @param string      $event_id    Event id.
	 * @param string      $source      Source.
	 * @param string|null $delivery_id Delivery id.
	 */
	private function stored_event( string $event_id, string $source = 'stripe', ?string $delivery_id = null ): int {
		$id = $this->store->insert_once( $source, $event_id, 'charge.succeeded', '{"n":1}', '', $delivery_id );
		$this->assertIsInt( $id );
		$this->assertGreaterThan( 0, $id );
		return $id;
	}

	/**
	 * Sets columns of a stored event as an earlier run left them.
	 *
	 * @param int                        $id      Row id.
	 * @param array<string, string|null> $columns Column => value (null: NULL).
	 */
	private function set( int $id, array $columns ): void {
		$sets = array();
		foreach ( $columns as $column => $value ) {
			$sets[] = null === $value ? "{$column} = NULL" : $this->db->prepare( "{$column} = %s", $value );
		}
		$this->sql( "UPDATE {$this->table} SET " . implode( ', ', $sets ) . $this->db->prepare( ' WHERE id = %d', $id ) );
	}

	/**
	 * A stored row as the table holds it.
	 *
	 * @param int $id Row id.
	 * @return array<string, string|null>
	 */
	private function row( int $id ): array {
		$rows = $this->rows( $this->table, $this->db->prepare( 'id = %d', $id ) );
		$this->assertCount( 1, $rows );
		return $rows[0];
	}

	/**
	 * A new event is stored received and due now, and its id answered.
	 */
	public function test_a_new_event_is_stored_received_and_due_now(): void {
		$id  = $this->store->insert_once( 'stripe', 'evt_1', 'charge.succeeded', '{"a":1}', '/data', 'dlv_1' );
		$row = $this->row( $id );
		$this->assertSame(
			array( 'stripe', 'evt_1', 'dlv_1', 'charge.succeeded', '{"a":1}', '/data', 'received', '0', self::NOW_SQL, self::NOW_SQL, null, null, '0' ),
			array( $row['source'], $row['event_id'], $row['delivery_id'], $row['type'], $row['payload'], $row['data_pointer'], $row['status'], $row['attempts'], $row['received_at'], $row['next_attempt_at'], $row['processed_at'], $row['locked_until'], $row['duplicate_count'] )
		);
		$this->assertNull( $this->row( $this->stored_event( 'evt_2' ) )['delivery_id'] );
	}

	/**
	 * An event id over the index limit is stored as its digest, and a redelivery of it is a duplicate.
	 */
	public function test_an_event_id_over_the_index_limit_is_stored_as_its_digest(): void {
		$long = str_repeat( 'e', 256 );
		$id   = $this->stored_event( $long, 'hooks' );
		$this->assertSame( 'sha256:' . hash( 'sha256', $long ), $this->row( $id )['event_id'] );
		$this->assertSame( 0, $this->store->insert_once( 'hooks', $long, 't', '{}', '' ) );
		$this->assertSame( '1', $this->row( $id )['duplicate_count'] );
	}

	/**
	 * A redelivery is counted on the stored row, leaves it otherwise as it was, and answers zero;
	 * the same id from another source is another event.
	 */
	public function test_a_redelivery_is_counted_on_the_stored_row_and_answers_zero(): void {
		$id               = $this->stored_event( 'evt_1' );
		$this->clock->now = self::NOW + 60;
		$this->assertSame( 0, $this->store->insert_once( 'stripe', 'evt_1', 'other.type', '{"n":2}', '' ) );
		$this->assertSame( 0, $this->store->insert_once( 'stripe', 'evt_1', 'other.type', '{"n":3}', '' ) );
		$row = $this->row( $id );
		$this->assertSame( array( '2', '2026-01-01 00:01:00', '{"n":1}', 'charge.succeeded' ), array( $row['duplicate_count'], $row['last_duplicate_at'], $row['payload'], $row['type'] ) );
		$this->assertNotSame( $id, $this->stored_event( 'evt_1', 'github' ) );
		$this->assertCount( 2, $this->rows( $this->table ) );
	}

	/**
	 * An ignored insert with no stored row to count on (the row deleted between the two
	 * statements) is an error, not a duplicate.
	 */
	public function test_an_ignored_insert_with_no_stored_row_to_count_on_is_an_error_not_a_duplicate(): void {
		$this->stored_event( 'evt_1' );
		$this->just_before( 'SET duplicate_count', fn() => $this->sql( "DELETE FROM {$this->table}" ) );
		$answer = $this->store->insert_once( 'stripe', 'evt_1', 't', '{}', '' );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
	}

	/**
	 * An insert the database refuses is an error, and nothing is stored.
	 */
	public function test_an_insert_the_database_refuses_is_an_error(): void {
		$this->refuse( 'INSERT', $this->table );
		$answer = $this->store->insert_once( 'stripe', 'evt_1', 't', '{}', '' );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		$this->assertSame( array(), $this->rows( $this->table ) );
	}

	/**
	 * One event is read with its payload and its integer columns as integers.
	 */
	public function test_one_event_is_read_with_its_integer_columns_as_integers(): void {
		$id = $this->stored_event( 'evt_1' );
		$this->set(
			$id,
			array(
				'attempts'        => '2',
				'duplicate_count' => '1',
			)
		);
		$row = $this->store->get( $id );
		$this->assertSame( array( $id, 2, 1, 'evt_1', '{"n":1}' ), array( $row->id, $row->attempts, $row->duplicate_count, $row->event_id, $row->payload ) );
	}

	/**
	 * An unknown event is null and an unreadable one an error.
	 */
	public function test_an_unknown_event_is_null_and_an_unreadable_one_an_error(): void {
		$id = $this->stored_event( 'evt_1' );
		$this->assertNull( $this->store->get( $id + 1 ) );
		$this->break_table( $this->table );
		$this->assertInstanceOf( WP_Error::class, $this->store->get( $id ) );
	}

	/**
	 * A page answers the filtered total and that page's rows, newest first, without payloads.
	 */
	public function test_a_page_answers_the_total_and_the_rows_newest_first(): void {
		$ids = array();
		for ( $n = 1; $n <= 7; $n++ ) {
			$ids[ $n ] = $this->stored_event( 'evt_' . $n, 0 === $n % 2 ? 'github' : 'stripe' );
		}
		$page = $this->store->page( array( 'source' => 'stripe' ), 2, 2 );
		$this->assertSame( 4, $page['total'] );
		$this->assertSame( array( $ids[3], $ids[1] ), array_column( $page['items'], 'id' ) );
		$this->assertFalse( property_exists( $page['items'][0], 'payload' ) );
		$this->assertSame( 0, $page['items'][0]->attempts );
		$last = $this->store->page( array(), 3, 3 );
		$this->assertSame( array( 7, array( $ids[1] ) ), array( $last['total'], array_column( $last['items'], 'id' ) ) );
	}

	/**
	 * Each filter, and all of them together, keep the events they name.
	 */
	public function test_a_page_filters_by_source_status_event_or_delivery_id_and_duplicates(): void {
		$long   = str_repeat( 'x', 200 );
		$paid   = $this->stored_event( 'evt_paid', 'stripe' );
		$push   = $this->stored_event( 'evt_push', 'github', 'dlv-42' );
		$failed = $this->stored_event( 'evt_failed', 'github' );
		$hashed = $this->stored_event( $long, 'github' );
		$redone = $this->stored_event( 'evt_redone', 'github' );
		$ids_of = fn( array $filter ): array => array_column( $this->store->page( $filter, 1, 50 )['items'], 'id' );
		$this->set( $failed, array( 'status' => 'failed' ) );
		$this->set( $redone, array( 'status' => 'failed' ) );
		$this->assertSame( 0, $this->store->insert_once( 'github', 'evt_redone', 't', '{}', '' ) );

		$this->assertSame( array( $redone, $hashed, $failed, $push, $paid ), $ids_of( array() ) );
		$this->assertSame(
			$ids_of( array() ),
			$ids_of(
				array(
					'source'    => '',
					'status'    => '',
					'event_id'  => '',
					'duplicate' => false,
					'type'      => 'x',
				)
			)
		);
		$this->assertSame( array( $paid ), $ids_of( array( 'source' => 'stripe' ) ) );
		$this->assertSame( array( $redone, $failed ), $ids_of( array( 'status' => 'failed' ) ) );
		$this->assertSame( array( $push ), $ids_of( array( 'event_id' => 'evt_push' ) ) );
		$this->assertSame( array( $push ), $ids_of( array( 'event_id' => 'dlv-42' ) ) );
		$this->assertSame( array( $hashed ), $ids_of( array( 'event_id' => $long ) ) );
		$this->assertSame( array( $redone ), $ids_of( array( 'duplicate' => true ) ) );
		$this->assertSame(
			array( $redone ),
			$ids_of(
				array(
					'source'    => 'github',
					'status'    => 'failed',
					'event_id'  => 'evt_redone',
					'duplicate' => true,
				)
			)
		);
		$this->assertSame(
			array(),
			$ids_of(
				array(
					'source' => 'stripe',
					'status' => 'failed',
				)
			)
		);
	}

	/**
	 * The two reads of a page: the total, the rows.
	 *
	 * @return array<string, array{0: string}>
	 */
	public static function page_reads(): array {
		return array(
			'the total' => array( 'SELECT COUNT(*)' ),
			'the rows'  => array( 'ORDER BY id DESC' ),
		);
	}

	/**
	 * A page whose count or rows fail (the table gone just before that read) is an error, not an empty page.
	 *
	 * @dataProvider page_reads
	 * @param string $read The read that fails.
	 */
	public function test_a_page_whose_count_or_rows_fail_is_an_error_not_an_empty_page( string $read ): void {
		$this->stored_event( 'evt_1' );
		$this->just_before( $read, fn() => $this->break_table( $this->table ) );
		$answer = $this->store->page( array(), 1, 20 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
	}

	/**
	 * Due events: received or failed, due at the clock time, not under a live claim; oldest due first.
	 */
	public function test_due_events_are_listed_at_the_clock_time_oldest_due_first(): void {
		$later   = $this->stored_event( 'evt_later' );
		$now     = $this->stored_event( 'evt_now' );
		$early   = $this->stored_event( 'evt_early' );
		$retry   = $this->stored_event( 'evt_retry' );
		$future  = $this->stored_event( 'evt_future' );
		$claimed = $this->stored_event( 'evt_claimed' );
		$expired = $this->stored_event( 'evt_expired' );
		$done    = $this->stored_event( 'evt_done' );
		$gave_up = $this->stored_event( 'evt_gave_up' );
		$this->set( $later, array( 'next_attempt_at' => '2025-12-31 23:59:59' ) );
		$this->set( $early, array( 'next_attempt_at' => '2025-12-31 23:00:00' ) );
		$this->set(
			$retry,
			array(
				'status'          => 'failed',
				'next_attempt_at' => '2025-12-31 23:30:00',
			)
		);
		$this->set( $future, array( 'next_attempt_at' => '2026-01-01 00:00:01' ) );
		$this->set( $claimed, array( 'locked_until' => '2026-01-01 00:05:00' ) );
		$this->set(
			$expired,
			array(
				'next_attempt_at' => '2025-12-31 23:45:00',
				'locked_until'    => '2025-12-31 23:50:00',
			)
		);
		$this->set(
			$done,
			array(
				'status'          => 'processed',
				'next_attempt_at' => null,
			)
		);
		$this->set(
			$gave_up,
			array(
				'status'          => 'failed',
				'next_attempt_at' => null,
			)
		);
		$this->assertSame( array( $early, $retry, $expired, $later, $now ), $this->store->due_ids( 50 ) );
		$this->assertSame( array( $early, $retry ), $this->store->due_ids( 2 ) );
	}

	/**
	 * Due events on a database error are an error, not an empty queue.
	 */
	public function test_due_events_on_a_database_error_are_an_error_not_an_empty_queue(): void {
		$this->stored_event( 'evt_1' );
		$this->break_table( $this->table );
		$answer = $this->store->due_ids( 50 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
	}

	/**
	 * The next due time is read as UTC, a live claim counting until it expires.
	 */
	public function test_the_next_due_time_is_read_as_utc(): void {
		$first  = $this->stored_event( 'evt_1' );
		$second = $this->stored_event( 'evt_2' );
		$this->set( $first, array( 'next_attempt_at' => '2026-01-01 00:05:00' ) );
		$this->set(
			$second,
			array(
				'next_attempt_at' => '2026-01-01 00:01:00',
				'locked_until'    => '2026-01-01 00:10:00',
			)
		);
		$this->assertSame( self::NOW + 300, $this->store->next_due_time() );
	}

	/**
	 * No waiting event has no next due time, and a failed read is an error.
	 */
	public function test_no_waiting_event_has_no_next_due_time_and_a_failed_read_is_an_error(): void {
		$this->assertNull( $this->store->next_due_time() );
		$this->set(
			$this->stored_event( 'evt_done' ),
			array(
				'status'          => 'processed',
				'next_attempt_at' => null,
			)
		);
		$this->assertNull( $this->store->next_due_time() );
		$this->break_table( $this->table );
		$this->assertInstanceOf( WP_Error::class, $this->store->next_due_time() );
	}

	/**
	 * A claim takes a due event for the lease and counts the attempt; the event is then not due.
	 */
	public function test_a_claim_takes_a_due_event_for_the_lease_and_counts_the_attempt(): void {
		$id    = $this->stored_event( 'evt_1' );
		$other = $this->stored_event( 'evt_2' );
		$this->assertTrue( $this->store->claim( $id, 300 ) );
		$row = $this->row( $id );
		$this->assertSame( array( '2026-01-01 00:05:00', '1' ), array( $row['locked_until'], $row['attempts'] ) );
		$this->assertSame( array( null, '0' ), array( $this->row( $other )['locked_until'], $this->row( $other )['attempts'] ) );
		$this->assertSame( array( $other ), $this->store->due_ids( 50 ) );
	}

	/**
	 * A claim another run won is false and changes nothing; a failed claim is an error.
	 */
	public function test_a_claim_another_run_won_is_false_and_a_failed_one_an_error(): void {
		$id = $this->stored_event( 'evt_1' );
		$this->assertTrue( $this->store->claim( $id, 300 ) );
		$this->assertFalse( $this->store->claim( $id, 300 ) );
		$this->assertSame( '1', $this->row( $id )['attempts'] );
		$this->assertFalse( $this->store->claim( $id + 100, 300 ) );
		$this->refuse( 'UPDATE', $this->table );
		$this->clock->now = self::NOW + 600;
		$this->assertInstanceOf( WP_Error::class, $this->store->claim( $id, 300 ) );
	}

	/**
	 * A processed event is done, unclaimed and no longer due.
	 */
	public function test_a_processed_event_is_done_and_unclaimed(): void {
		$id = $this->stored_event( 'evt_1' );
		$this->store->claim( $id, 300 );
		$this->assertTrue( $this->store->mark_processed( $id ) );
		$row = $this->row( $id );
		$this->assertSame( array( 'processed', self::NOW_SQL, null, null ), array( $row['status'], $row['processed_at'], $row['next_attempt_at'], $row['locked_until'] ) );
		$this->assertNull( $this->store->next_due_time() );
	}

	/**
	 * A failed attempt records the error, cut to the column, and when to try again; it is due then.
	 */
	public function test_a_failed_attempt_records_the_error_and_the_next_attempt(): void {
		$id = $this->stored_event( 'evt_1' );
		$this->store->claim( $id, 300 );
		$this->assertTrue( $this->store->mark_failed( $id, str_repeat( 'x', 3000 ), self::NOW + 60 ) );
		$row = $this->row( $id );
		$this->assertSame( array( 'failed', str_repeat( 'x', Inbound_Store::ERROR_LENGTH ), '2026-01-01 00:01:00', null ), array( $row['status'], $row['last_error'], $row['next_attempt_at'], $row['locked_until'] ) );
		$this->assertSame( self::NOW + 60, $this->store->next_due_time() );
	}

	/**
	 * An event given up has no next attempt and is never due.
	 */
	public function test_an_event_given_up_has_no_next_attempt(): void {
		$id = $this->stored_event( 'evt_1' );
		$this->assertTrue( $this->store->mark_failed( $id, 'boom', null ) );
		$this->assertSame( array( 'failed', null ), array( $this->row( $id )['status'], $this->row( $id )['next_attempt_at'] ) );
		$this->assertSame( array(), $this->store->due_ids( 50 ) );
	}

	/**
	 * Recording an outcome on a database error is an error, and the event is left as it was.
	 */
	public function test_recording_an_outcome_on_a_database_error_is_an_error(): void {
		$id = $this->stored_event( 'evt_1' );
		$this->refuse( 'UPDATE', $this->table );
		$this->assertInstanceOf( WP_Error::class, $this->store->mark_processed( $id ) );
		$this->assertInstanceOf( WP_Error::class, $this->store->mark_failed( $id, 'boom', null ) );
		$this->assertSame( 'received', $this->row( $id )['status'] );
	}

	/**
	 * A retry requeues only a failed event, due now with fresh attempts.
	 */
	public function test_a_retry_requeues_only_a_failed_event_due_now_with_fresh_attempts(): void {
		$failed = $this->stored_event( 'evt_failed' );
		$done   = $this->stored_event( 'evt_done' );
		$this->set(
			$failed,
			array(
				'status'          => 'failed',
				'attempts'        => '5',
				'next_attempt_at' => null,
				'locked_until'    => '2026-01-01 00:03:00',
			)
		);
		$this->set(
			$done,
			array(
				'status'          => 'processed',
				'attempts'        => '1',
				'next_attempt_at' => null,
			)
		);
		$this->assertTrue( $this->store->requeue( $failed ) );
		$row = $this->row( $failed );
		$this->assertSame( array( 'failed', '0', self::NOW_SQL, null ), array( $row['status'], $row['attempts'], $row['next_attempt_at'], $row['locked_until'] ) );
		$this->assertSame( array( $failed ), $this->store->due_ids( 50 ) );
		$this->assertFalse( $this->store->requeue( $done ) );
		$this->assertSame( array( 'processed', '1' ), array( $this->row( $done )['status'], $this->row( $done )['attempts'] ) );
		$this->refuse( 'UPDATE', $this->table );
		$this->assertInstanceOf( WP_Error::class, $this->store->requeue( $failed ) );
	}

	/**
	 * Counts list every status, even without events.
	 */
	public function test_counts_list_every_status_even_without_events(): void {
		$this->assertSame(
			array(
				'received'  => 0,
				'processed' => 0,
				'failed'    => 0,
			),
			$this->store->counts()
		);
		foreach ( array( 'evt_1', 'evt_2', 'evt_3' ) as $event_id ) {
			$this->set( $this->stored_event( $event_id ), array( 'status' => 'failed' ) );
		}
		$this->stored_event( 'evt_4' );
		$this->assertSame(
			array(
				'received'  => 1,
				'processed' => 0,
				'failed'    => 3,
			),
			$this->store->counts()
		);
	}

	/**
	 * Counts and duplicate totals on a database error are errors, not zeros.
	 */
	public function test_counts_and_duplicate_totals_on_a_database_error_are_errors_not_zeros(): void {
		$this->stored_event( 'evt_1' );
		$this->break_table( $this->table );
		$this->assertInstanceOf( WP_Error::class, $this->store->counts() );
		$this->assertInstanceOf( WP_Error::class, $this->store->duplicate_totals() );
	}

	/**
	 * Duplicate totals count redeliveries and the events they were of.
	 */
	public function test_duplicate_totals_count_redeliveries_and_their_events(): void {
		$this->assertSame(
			array(
				'deliveries' => 0,
				'events'     => 0,
			),
			$this->store->duplicate_totals()
		);
		$this->stored_event( 'evt_1' );
		$this->stored_event( 'evt_2' );
		$this->stored_event( 'evt_3' );
		foreach ( array( 'evt_1', 'evt_1', 'evt_1', 'evt_2' ) as $event_id ) {
			$this->assertSame( 0, $this->store->insert_once( 'stripe', $event_id, 't', '{}', '' ) );
		}
		$this->assertSame(
			array(
				'deliveries' => 4,
				'events'     => 2,
			),
			$this->store->duplicate_totals()
		);
	}
}

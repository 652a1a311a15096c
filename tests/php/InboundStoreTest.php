<?php
/**
 * The inbound events store over a recording database.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Database_Error;
use ServiceIntegration\Inbound\Inbound_Store;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * What Inbound_Store reads and writes, and that a database error is an error, never an empty
 * result.
 */
final class InboundStoreTest extends TestCase {

	/** 2026-01-01 00:00:00 UTC. */
	const NOW = 1767225600;

	/** NOW as stored. */
	const NOW_SQL = '2026-01-01 00:00:00';

	/**
	 * The database.
	 *
	 * @var Recording_Wpdb
	 */
	private Recording_Wpdb $db;

	/**
	 * The store under test.
	 *
	 * @var Inbound_Store
	 */
	private Inbound_Store $store;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		$this->db    = new Recording_Wpdb();
		$this->store = new Inbound_Store( $this->db, new Fixed_Clock( self::NOW ), new In_Memory_Options() );
	}

	/**
	 * The table is named after the site prefix.
	 */
	public function test_the_table_is_named_after_the_site_prefix(): void {
		$this->assertSame( 'wp_si_inbound_events', $this->store->table() );
	}

	/**
	 * A new event is stored received and due now.
	 */
	public function test_a_new_event_is_stored_received_and_due_now(): void {
		$this->db->answers( 'INSERT IGNORE INTO wp_si_inbound_events', 1, 42 );
		$this->assertSame( 42, $this->store->insert_once( 'stripe', 'evt_1', 'charge.succeeded', '{"a":1}', '/data', 'dlv_1' ) );
		$this->assertSame( array( 'stripe', 'evt_1', 'dlv_1', 'charge.succeeded', '{"a":1}', '/data', 'received', self::NOW_SQL, self::NOW_SQL ), $this->db->prepared[0]['args'] );
	}

	/**
	 * An event id over the index limit is stored as its digest.
	 */
	public function test_an_event_id_over_the_index_limit_is_stored_as_its_digest(): void {
		$long = str_repeat( 'e', 256 );
		$this->db->answers( 'INSERT IGNORE', 1, 1 );
		$this->store->insert_once( 'hooks', $long, 't', '{}', '' );
		$this->assertSame( 'sha256:' . hash( 'sha256', $long ), $this->db->prepared[0]['args'][1] );
	}

	/**
	 * A redelivery is counted on the stored row and answers zero.
	 */
	public function test_a_redelivery_is_counted_on_the_stored_row_and_answers_zero(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SET duplicate_count = duplicate_count + 1', 1 );
		$this->assertSame( 0, $this->store->insert_once( 'stripe', 'evt_1', 't', '{}', '' ) );
		$this->assertSame( array( self::NOW_SQL, 'stripe', 'evt_1' ), $this->db->prepared[1]['args'] );
	}

	/**
	 * An ignored insert with no stored row to count on is an error not a duplicate.
	 */
	public function test_an_ignored_insert_with_no_stored_row_to_count_on_is_an_error_not_a_duplicate(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SET duplicate_count', 0 );
		$this->assertInstanceOf( WP_Error::class, $this->store->insert_once( 'stripe', 'evt_1', 't', '{}', '' ) );
	}

	/**
	 * An insert the database refuses is an error.
	 */
	public function test_an_insert_the_database_refuses_is_an_error(): void {
		$this->db->fails( 'INSERT IGNORE' );
		$answer = $this->store->insert_once( 'stripe', 'evt_1', 't', '{}', '' );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
	}

	/**
	 * One event is read with its integer columns as integers.
	 */
	public function test_one_event_is_read_with_its_integer_columns_as_integers(): void {
		$this->db->answers(
			'SELECT * FROM wp_si_inbound_events WHERE id = 5',
			(object) array(
				'id'              => '5',
				'attempts'        => '2',
				'duplicate_count' => '1',
			)
		);
		$row = $this->store->get( 5 );
		$this->assertSame( array( 5, 2, 1 ), array( $row->id, $row->attempts, $row->duplicate_count ) );
	}

	/**
	 * An unknown event is null and an unreadable one an error.
	 */
	public function test_an_unknown_event_is_null_and_an_unreadable_one_an_error(): void {
		$this->assertNull( $this->store->get( 5 ) );
		$this->db->fails( 'SELECT * FROM' );
		$this->assertInstanceOf( WP_Error::class, $this->store->get( 5 ) );
	}

	/**
	 * A page reads the total and the rows newest first.
	 */
	public function test_a_page_reads_the_total_and_the_rows_newest_first(): void {
		$this->db->answers( 'SELECT COUNT(*)', '41' );
		$this->db->answers(
			'ORDER BY id DESC',
			array(
				(object) array(
					'id'       => '9',
					'attempts' => '0',
				),
			)
		);
		$page = $this->store->page( array( 'source' => 'stripe' ), 3, 20 );
		$this->assertSame( 41, $page['total'] );
		$this->assertSame( 9, $page['items'][0]->id );
		$this->assertSame( array( 'stripe', 20, 40 ), $this->db->prepared[1]['args'] );
	}

	/**
	 * A page whose count or rows fail is an error not an empty page.
	 */
	public function test_a_page_whose_count_or_rows_fail_is_an_error_not_an_empty_page(): void {
		$this->db->fails( 'SELECT COUNT(*)' );
		$this->assertInstanceOf( WP_Error::class, $this->store->page( array(), 1, 20 ) );
		$this->db->answers( 'SELECT COUNT(*)', '3' );
		$this->db->fails( 'ORDER BY id DESC' );
		$this->assertInstanceOf( WP_Error::class, $this->store->page( array(), 1, 20 ) );
	}

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
	 * Due events are listed at the clock time oldest due first.
	 */
	public function test_due_events_are_listed_at_the_clock_time_oldest_due_first(): void {
		$this->db->answers( 'SELECT id FROM wp_si_inbound_events', array( '7', '3' ) );
		$this->assertSame( array( 7, 3 ), $this->store->due_ids( 50 ) );
		$this->assertSame( array( 'received', 'failed', self::NOW_SQL, self::NOW_SQL, 50 ), $this->db->prepared[0]['args'] );
		$this->assertStringContainsString( 'ORDER BY next_attempt_at ASC, id ASC LIMIT 50', $this->db->sql()[0] );
	}

	/**
	 * Due events on a database error are an error not an empty queue.
	 */
	public function test_due_events_on_a_database_error_are_an_error_not_an_empty_queue(): void {
		$this->db->fails( 'SELECT id FROM' );
		$this->assertInstanceOf( WP_Error::class, $this->store->due_ids( 50 ) );
	}

	/**
	 * The next due time is read as utc.
	 */
	public function test_the_next_due_time_is_read_as_utc(): void {
		$this->db->answers( 'SELECT MIN(', '2026-01-01 00:05:00' );
		$this->assertSame( self::NOW + 300, $this->store->next_due_time() );
	}

	/**
	 * No waiting event has no next due time and a failed read is an error.
	 */
	public function test_no_waiting_event_has_no_next_due_time_and_a_failed_read_is_an_error(): void {
		$this->assertNull( $this->store->next_due_time() );
		$this->db->fails( 'SELECT MIN(' );
		$this->assertInstanceOf( WP_Error::class, $this->store->next_due_time() );
	}

	/**
	 * A claim takes a due event for the lease and counts the attempt.
	 */
	public function test_a_claim_takes_a_due_event_for_the_lease_and_counts_the_attempt(): void {
		$this->db->answers( 'SET locked_until = ', 1 );
		$this->assertTrue( $this->store->claim( 7, 300 ) );
		$this->assertSame( array( '2026-01-01 00:05:00', 7, 'received', 'failed', self::NOW_SQL, self::NOW_SQL ), $this->db->prepared[0]['args'] );
		$this->assertStringContainsString( 'attempts = attempts + 1 WHERE id = 7 AND status IN', $this->db->sql()[0] );
	}

	/**
	 * A claim another run won is false and a failed one an error.
	 */
	public function test_a_claim_another_run_won_is_false_and_a_failed_one_an_error(): void {
		$this->db->answers( 'SET locked_until = ', 0 );
		$this->assertFalse( $this->store->claim( 7, 300 ) );
		$this->db->fails( 'SET locked_until = ' );
		$this->assertInstanceOf( WP_Error::class, $this->store->claim( 7, 300 ) );
	}

	/**
	 * A processed event is done and unclaimed.
	 */
	public function test_a_processed_event_is_done_and_unclaimed(): void {
		$this->assertTrue( $this->store->mark_processed( 7 ) );
		$this->assertSame(
			array(
				'table' => 'wp_si_inbound_events',
				'data'  => array(
					'status'          => 'processed',
					'processed_at'    => self::NOW_SQL,
					'next_attempt_at' => null,
					'locked_until'    => null,
				),
				'where' => array( 'id' => 7 ),
			),
			$this->db->updates[0]
		);
	}

	/**
	 * A failed attempt records the error and the next attempt.
	 */
	public function test_a_failed_attempt_records_the_error_and_the_next_attempt(): void {
		$this->assertTrue( $this->store->mark_failed( 7, str_repeat( 'x', 3000 ), self::NOW + 60 ) );
		$data = $this->db->updates[0]['data'];
		$this->assertSame( 'failed', $data['status'] );
		$this->assertSame( Inbound_Store::ERROR_LENGTH, strlen( $data['last_error'] ) );
		$this->assertSame( '2026-01-01 00:01:00', $data['next_attempt_at'] );
		$this->assertNull( $data['locked_until'] );
	}

	/**
	 * An event given up has no next attempt.
	 */
	public function test_an_event_given_up_has_no_next_attempt(): void {
		$this->store->mark_failed( 7, 'boom', null );
		$this->assertNull( $this->db->updates[0]['data']['next_attempt_at'] );
	}

	/**
	 * Recording an outcome on a database error is an error.
	 */
	public function test_recording_an_outcome_on_a_database_error_is_an_error(): void {
		$this->db->fails( 'UPDATE wp_si_inbound_events' );
		$this->assertInstanceOf( WP_Error::class, $this->store->mark_processed( 7 ) );
		$this->db->fails( 'UPDATE wp_si_inbound_events' );
		$this->assertInstanceOf( WP_Error::class, $this->store->mark_failed( 7, 'boom', null ) );
	}

	/**
	 * A retry requeues only a failed event due now with fresh attempts.
	 */
	public function test_a_retry_requeues_only_a_failed_event_due_now_with_fresh_attempts(): void {
		$this->db->answers( 'SET status = ', 1 );
		$this->assertTrue( $this->store->requeue( 7 ) );
		$this->assertSame( array( 'failed', self::NOW_SQL, 7, 'failed' ), $this->db->prepared[0]['args'] );
		$this->assertFalse( $this->store->requeue( 8 ) );
		$this->db->fails( 'SET status = ' );
		$this->assertInstanceOf( WP_Error::class, $this->store->requeue( 9 ) );
	}

	/**
	 * Counts list every status even without events.
	 */
	public function test_counts_list_every_status_even_without_events(): void {
		$this->db->answers(
			'GROUP BY status',
			array(
				(object) array(
					'status' => 'failed',
					'n'      => '3',
				),
			)
		);
		$this->assertSame(
			array(
				'received'  => 0,
				'processed' => 0,
				'failed'    => 3,
			),
			$this->store->counts()
		);
	}

	/**
	 * Counts and duplicate totals on a database error are errors not zeros.
	 */
	public function test_counts_and_duplicate_totals_on_a_database_error_are_errors_not_zeros(): void {
		$this->db->fails( 'GROUP BY status' );
		$this->assertInstanceOf( WP_Error::class, $this->store->counts() );
		$this->db->fails( 'SUM(duplicate_count)' );
		$this->assertInstanceOf( WP_Error::class, $this->store->duplicate_totals() );
	}

	/**
	 * Duplicate totals count redeliveries and their events.
	 */
	public function test_duplicate_totals_count_redeliveries_and_their_events(): void {
		$this->db->answers(
			'SUM(duplicate_count)',
			(object) array(
				'deliveries' => '4',
				'events'     => '2',
			)
		);
		$this->assertSame(
			array(
				'deliveries' => 4,
				'events'     => 2,
			),
			$this->store->duplicate_totals()
		);
	}
}

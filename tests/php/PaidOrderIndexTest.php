<?php
/**
 * The paid-orders index over a recording database.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Commerce\Paid_Order_Index;
use ServiceIntegration\Commerce\Paid_Order_Query;
use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * What Paid_Order_Index reads and writes, its state, and that a database error is an error,
 * never an empty page, a zero count or a silent write.
 */
final class PaidOrderIndexTest extends TestCase {

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
	 * The index under test.
	 *
	 * @var Paid_Order_Index
	 */
	private Paid_Order_Index $index;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		$this->db         = new Recording_Wpdb();
		$this->db->prefix = 'shop_';
		$this->options    = new In_Memory_Options();
		$this->index      = new Paid_Order_Index( $this->db, new Fixed_Clock( self::NOW ), $this->options );
	}

	/**
	 * A stored state, with the given fields over a ready, finished walk.
	 *
	 * @param array<string, mixed> $fields Fields.
	 */
	private function given_state( array $fields ): void {
		$this->options->values[ Paid_Order_Index::STATE_OPTION ] = $fields + array(
			'ready'      => true,
			'walk'       => null,
			'generation' => 4,
			'walked_at'  => 1700000000,
			'statuses'   => array( 'completed', 'processing' ),
			'source'     => array( 'storage' => 'hpos' ),
		);
	}

	/**
	 * Asserts the answer is the plugin's database error (500, no database message).
	 *
	 * @param mixed $answer What the index answered.
	 */
	private function assertDatabaseError( $answer ): void {
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		$this->assertSame( array( 'status' => 500 ), $answer->get_error_data() );
	}

	/**
	 * The table is named after the site prefix.
	 */
	public function test_the_table_is_named_after_the_site_prefix(): void {
		$this->assertSame( 'shop_si_paid_orders', $this->index->table() );
	}

	/**
	 * A row is replaced whole with the current generation.
	 */
	public function test_a_row_is_replaced_whole_with_the_current_generation(): void {
		$this->given_state( array( 'generation' => 7 ) );
		$this->assertNull( $this->index->put( 12, 1767225000, 1767220000, 1767225500, array( 'id' => 12 ) ) );
		$this->assertSame(
			array(
				'method' => 'replace',
				'table'  => 'shop_si_paid_orders',
				'data'   => array(
					'order_id'    => 12,
					'paid_at'     => 1767225000,
					'created_at'  => 1767220000,
					'modified_at' => 1767225500,
					'generation'  => 7,
					'snapshot'    => '{"id":12}',
				),
				'format' => array( '%d', '%d', '%d', '%d', '%d', '%s' ),
			),
			$this->db->writes[0]
		);
	}

	/**
	 * A fresh index writes rows of generation zero.
	 */
	public function test_a_fresh_index_writes_rows_of_generation_zero(): void {
		$this->index->put( 3, 0, 1767220000, 1767220000, array( 'id' => 3 ) );
		$this->assertSame( 0, $this->db->writes[0]['data']['generation'] );
	}

	/**
	 * A refused write is a database error and is logged.
	 */
	public function test_a_refused_write_is_a_database_error_and_is_logged(): void {
		$this->db->fails( 'REPLACE INTO shop_si_paid_orders', 'The table is full' );
		$this->assertDatabaseError( $this->index->put( 12, 0, 1, 1, array( 'id' => 12 ) ) );
		$this->assertStringContainsString( 'service-integration: paid-orders index: write order 12 failed: The table is full', (string) file_get_contents( SERVICE_INTEGRATION_TEST_LOG ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- reads the local test log, no URL
	}

	/**
	 * An error left by an earlier query does not fail a write.
	 */
	public function test_an_error_left_by_an_earlier_query_does_not_fail_a_write(): void {
		$this->db->last_error = 'Deadlock found when trying to get lock';
		$this->assertNull( $this->index->put( 12, 0, 1, 1, array( 'id' => 12 ) ) );
	}

	/**
	 * A row is removed by its order id.
	 */
	public function test_a_row_is_removed_by_its_order_id(): void {
		$this->assertNull( $this->index->remove( 9 ) );
		$this->assertSame( array( 'order_id' => 9 ), $this->db->writes[0]['data'] );
		$this->assertSame( array( '%d' ), $this->db->writes[0]['format'] );
	}

	/**
	 * A refused removal is a database error.
	 */
	public function test_a_refused_removal_is_a_database_error(): void {
		$this->db->fails( 'DELETE FROM shop_si_paid_orders' );
		$this->assertDatabaseError( $this->index->remove( 9 ) );
	}

	/**
	 * A page reads the sets window in its order: its ids from the order's key, then their
	 * snapshots by id, served in the ids' order whatever order the rows come back in.
	 */
	public function test_a_page_reads_the_sets_window_in_its_order(): void {
		$this->db->answers( 'SELECT order_id FROM shop_si_paid_orders', array( '5', '8' ) );
		$this->db->answers(
			'SELECT order_id, snapshot FROM shop_si_paid_orders WHERE order_id IN (5,8)',
			array(
				array(
					'order_id' => '8',
					'snapshot' => '{"id":8}',
				),
				array(
					'order_id' => '5',
					'snapshot' => '{"id":5,"number":"5"}',
				),
			)
		);
		$range = new Paid_Order_Query( 3, 10, 'paid_at', 'asc', cursor_at: 1767000000, cursor_id: 5, paid_before: 1767225540 );
		$this->assertSame(
			array(
				array(
					'id'     => 5,
					'number' => '5',
				),
				array( 'id' => 8 ),
			),
			$this->index->snapshots( $range, 20, 10 )
		);
		$this->assertSame(
			'SELECT order_id FROM shop_si_paid_orders WHERE ' . $this->index->where( $range ) . ' ORDER BY paid_at ASC, order_id ASC LIMIT 20, 10',
			$this->db->sql()[0]
		);
	}

	/**
	 * A row removed between the two reads is left out of the page, not an error.
	 */
	public function test_a_row_removed_between_the_two_reads_is_left_out(): void {
		$this->db->answers( 'SELECT order_id FROM shop_si_paid_orders', array( '5', '8' ) );
		$this->db->answers(
			'SELECT order_id, snapshot',
			array(
				array(
					'order_id' => '8',
					'snapshot' => '{"id":8}',
				),
			)
		);
		$this->assertSame( array( array( 'id' => 8 ) ), $this->index->snapshots( new Paid_Order_Query( 1, 10, 'id', 'asc' ), 0, 10 ) );
	}

	/**
	 * The snapshots the database refuses after the ids are an error, never a short page.
	 */
	public function test_snapshots_the_database_refuses_are_an_error(): void {
		$this->db->answers( 'SELECT order_id FROM shop_si_paid_orders', array( '5' ) );
		$this->db->fails( 'SELECT order_id, snapshot' );
		$this->assertDatabaseError( $this->index->snapshots( new Paid_Order_Query( 1, 10, 'id', 'asc' ), 0, 10 ) );
	}

	/**
	 * An empty set is an empty page.
	 */
	public function test_an_empty_set_is_an_empty_page(): void {
		$this->assertSame( array(), $this->index->snapshots( new Paid_Order_Query( 1, 10, 'id', 'asc' ), 0, 10 ) );
	}

	/**
	 * A page the database refuses is an error never an empty page.
	 */
	public function test_a_page_the_database_refuses_is_an_error_never_an_empty_page(): void {
		$this->db->fails( 'SELECT order_id FROM', "Table 'shop_si_paid_orders' doesn't exist" );
		$this->assertDatabaseError( $this->index->snapshots( new Paid_Order_Query( 1, 10, 'date', 'desc' ), 0, 10 ) );
	}

	/**
	 * A row without a snapshot fails the page.
	 */
	public function test_a_row_without_a_snapshot_fails_the_page(): void {
		$this->db->answers( 'SELECT order_id FROM', array( '5', '6' ) );
		$this->db->answers(
			'SELECT order_id, snapshot',
			array(
				array(
					'order_id' => '5',
					'snapshot' => '{"id":5}',
				),
				array(
					'order_id' => '6',
					'snapshot' => 'not json',
				),
			)
		);
		$this->assertDatabaseError( $this->index->snapshots( new Paid_Order_Query( 1, 10, 'date', 'desc' ), 0, 10 ) );
		$this->assertStringContainsString( 'a row of the paid-orders index holds no snapshot', (string) file_get_contents( SERVICE_INTEGRATION_TEST_LOG ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- reads the local test log, no URL
	}

	/**
	 * A set is counted with its condition.
	 */
	public function test_a_set_is_counted_with_its_condition(): void {
		$listing = new Paid_Order_Query( 1, 10, 'modified', 'asc', modified_from: 1767000000 );
		$this->db->answers( 'SELECT COUNT(*) FROM shop_si_paid_orders WHERE ' . $this->index->where( $listing ), '42' );
		$this->assertSame( 42, $this->index->count( $listing ) );
	}

	/**
	 * A count the database refuses is an error never zero.
	 */
	public function test_a_count_the_database_refuses_is_an_error_never_zero(): void {
		$this->db->fails( 'SELECT COUNT(*)' );
		$this->assertDatabaseError( $this->index->count( new Paid_Order_Query( 1, 10, 'paid_at', 'asc', paid_before: self::NOW ) ) );
	}

	/**
	 * The rows are counted.
	 */
	public function test_the_rows_are_counted(): void {
		$this->db->answers( 'SELECT COUNT(*) FROM shop_si_paid_orders', '3' );
		$this->assertSame( 3, $this->index->row_count() );
		$this->assertSame( array( 'SELECT COUNT(*) FROM shop_si_paid_orders' ), $this->db->sql() );
	}

	/**
	 * A table that cannot be read has no row count.
	 */
	public function test_a_table_that_cannot_be_read_has_no_row_count(): void {
		$this->db->fails( 'SELECT COUNT(*)', "Table 'shop_si_paid_orders' doesn't exist" );
		$this->assertDatabaseError( $this->index->row_count() );
	}

	/**
	 * A walks leftovers are read lowest first as integers.
	 */
	public function test_a_walks_leftovers_are_read_lowest_first_as_integers(): void {
		$this->db->answers( 'WHERE generation < 6', array( '4', '11' ) );
		$this->assertSame( array( 4, 11 ), $this->index->written_before( 6, 200 ) );
		$this->assertSame( 'SELECT order_id FROM shop_si_paid_orders WHERE generation < %d ORDER BY order_id ASC LIMIT %d', $this->db->prepared[0]['sql'] );
		$this->assertSame( array( 6, 200 ), $this->db->prepared[0]['args'] );
	}

	/**
	 * Leftovers the database refuses are an error never none.
	 */
	public function test_leftovers_the_database_refuses_are_an_error_never_none(): void {
		$this->db->fails( 'WHERE generation <' );
		$this->assertDatabaseError( $this->index->written_before( 6, 200 ) );
	}

	/**
	 * A walks leftovers are removed at once.
	 */
	public function test_a_walks_leftovers_are_removed_at_once(): void {
		$this->assertNull( $this->index->remove_written_before( 6 ) );
		$this->assertSame( array( 'DELETE FROM shop_si_paid_orders WHERE generation < 6' ), $this->db->sql() );
	}

	/**
	 * A refused removal of leftovers is a database error.
	 */
	public function test_a_refused_removal_of_leftovers_is_a_database_error(): void {
		$this->db->fails( 'DELETE FROM shop_si_paid_orders WHERE generation' );
		$this->assertDatabaseError( $this->index->remove_written_before( 6 ) );
	}

	/**
	 * A fresh site has a state that does not serve.
	 */
	public function test_a_fresh_site_has_a_state_that_does_not_serve(): void {
		$this->assertSame(
			array(
				'ready'      => false,
				'walk'       => null,
				'generation' => 0,
				'walked_at'  => 0,
				'started_at' => 0.0,
				'statuses'   => array(),
				'source'     => array(),
			),
			$this->index->state()
		);
		$this->assertFalse( $this->index->is_ready( array( 'completed', 'processing' ), array( 'storage' => 'hpos' ) ) );
		$this->assertSame( array(), $this->db->queries );
	}

	/**
	 * The state is saved without autoload.
	 */
	public function test_the_state_is_saved_without_autoload(): void {
		$this->index->start_walk( true, array(), array() );
		$this->assertTrue( $this->options->values[ Paid_Order_Index::STATE_OPTION ]['ready'] );
		$this->assertFalse( $this->options->autoload[ Paid_Order_Index::STATE_OPTION ] );
	}

	/**
	 * A walk starts a new generation from the first order.
	 */
	public function test_a_walk_starts_a_new_generation_from_the_first_order(): void {
		$this->given_state( array() );
		$this->index->start_walk( true, array(), array() );
		$state = $this->index->state();
		$this->assertSame( array( true, 0, 5, 1700000000 ), array( $state['ready'], $state['walk'], $state['generation'], $state['walked_at'] ) );
		// Without WooCommerce loaded, the walk records no statuses nor source (Walk_Steps::started_blind()).
		$this->assertSame( array( array(), array() ), array( $state['statuses'], $state['source'] ) );
	}

	/**
	 * A walk that does not keep serving takes the index out of service.
	 */
	public function test_a_walk_that_does_not_keep_serving_takes_the_index_out_of_service(): void {
		$this->given_state( array() );
		$this->index->start_walk( false, array( 'completed', 'processing' ), array( 'storage' => 'hpos' ) );
		$this->assertFalse( $this->index->state()['ready'] );
		$this->assertFalse( $this->index->is_ready( array( 'completed', 'processing' ), array( 'storage' => 'hpos' ) ) );
	}

	/**
	 * The status check only reads: an index walked for other statuses or another order source
	 * does not serve, and nothing is written (the walk starts where the change is made).
	 */
	public function test_the_status_check_only_reads(): void {
		$this->given_state( array() );
		$stored = $this->options->values[ Paid_Order_Index::STATE_OPTION ];
		$this->assertTrue( $this->index->is_ready( array( 'completed', 'processing' ), array( 'storage' => 'hpos' ) ) );
		$this->assertFalse( $this->index->is_ready( array( 'completed', 'on-hold', 'processing' ), array( 'storage' => 'hpos' ) ) );
		$this->assertFalse( $this->index->is_ready( array( 'completed', 'processing' ), array( 'storage' => 'posts' ) ) );
		$this->assertSame( $stored, $this->options->values[ Paid_Order_Index::STATE_OPTION ] );
		$this->assertSame( array(), $this->db->queries );
	}

	/**
	 * A finished walk serves and records the clock time.
	 */
	public function test_a_finished_walk_serves_and_records_the_clock_time(): void {
		$this->given_state(
			array(
				'ready' => false,
				'walk'  => -1,
			)
		);
		$this->assertTrue( $this->index->finish_walk( $this->index->state() ) );
		$state = $this->index->state();
		$this->assertSame( array( true, null, 4, self::NOW ), array( $state['ready'], $state['walk'], $state['generation'], $state['walked_at'] ) );
		$this->assertSame( array( 'completed', 'processing' ), $state['statuses'] );
	}

	/**
	 * A walk restarted while it ran is not finished by it.
	 */
	public function test_a_walk_restarted_while_it_ran_is_not_finished_by_it(): void {
		$this->given_state(
			array(
				'ready' => false,
				'walk'  => -1,
			)
		);
		$read = $this->index->state();
		$this->index->start_walk( false, array( 'completed', 'processing' ), array( 'storage' => 'hpos' ) ); // A rebuild, while the walk swept.
		$restarted = $this->index->state();
		$this->assertFalse( $this->index->finish_walk( $read ) );
		$this->assertSame( $restarted, $this->index->state() );
		$this->assertSame( array( false, 0, 5 ), array( $restarted['ready'], $restarted['walk'], $restarted['generation'] ) );
	}

	/**
	 * A step saves only over the state it started from.
	 */
	public function test_a_step_saves_only_over_the_state_it_started_from(): void {
		$this->given_state(
			array(
				'ready' => false,
				'walk'  => 200,
			)
		);
		$read = $this->index->state();
		$this->assertTrue( $this->index->advance( $read, array( 'walk' => 380 ) + $read ) );
		$this->assertSame( 380, $this->index->state()['walk'] );
		// Another runner of the same walk, still holding the state before that step.
		$this->assertFalse( $this->index->advance( $read, array( 'walk' => 380 ) + $read ) );
		$this->assertFalse( $this->index->advance( $read, array( 'walk' => -1 ) + $read ) );
		$this->assertSame( 380, $this->index->state()['walk'] );
	}

	/**
	 * A step of a walk already finished does not take it out of service.
	 */
	public function test_a_step_of_a_walk_already_finished_does_not_take_it_out_of_service(): void {
		$this->given_state(
			array(
				'ready' => false,
				'walk'  => 180,
			)
		);
		$late = $this->index->state(); // Read by a second runner before the first one finished.
		$this->assertTrue( $this->index->advance( $late, array( 'walk' => -1 ) + $late ) );
		$this->assertTrue( $this->index->finish_walk( $this->index->state() ) );
		$this->assertFalse( $this->index->advance( $late, array( 'walk' => -1 ) + $late ) );
		$this->assertSame( array( true, null ), array( $this->index->state()['ready'], $this->index->state()['walk'] ) );
	}

	/**
	 * A walk over no paid order removes the older rows and finishes.
	 */
	public function test_a_walk_over_no_paid_order_removes_the_older_rows_and_finishes(): void {
		$this->given_state(
			array(
				'ready'      => false,
				'walk'       => 0,
				'generation' => 9,
			)
		);
		$this->assertTrue( $this->index->finish_empty() );
		$this->assertSame( array( 'DELETE FROM shop_si_paid_orders WHERE generation < 9' ), $this->db->sql() );
		$this->assertSame( array( true, null, self::NOW ), array( $this->index->state()['ready'], $this->index->state()['walk'], $this->index->state()['walked_at'] ) );
	}

	/**
	 * A walk over no paid order whose rows stay does not finish.
	 */
	public function test_a_walk_over_no_paid_order_whose_rows_stay_does_not_finish(): void {
		$this->given_state(
			array(
				'ready'      => false,
				'walk'       => 0,
				'generation' => 9,
			)
		);
		$this->db->fails( 'DELETE FROM shop_si_paid_orders' );
		$this->assertDatabaseError( $this->index->finish_empty() );
		$this->assertSame( array( false, 0 ), array( $this->index->state()['ready'], $this->index->state()['walk'] ) );
	}
}

<?php
/**
 * The inbound processor's run over the inbound events table in MariaDB, with WordPress's actions,
 * filters and cron.
 *
 * @package ServiceIntegration
 */

use ServiceIntegration\Inbound\Inbound_Processor;
use ServiceIntegration\Inbound\Inbound_Store;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\Store_Test_Case;
use ServiceIntegration\Support\Wp_Options;

/**
 * Inbound_Processor::drain(): what it claims, which handlers run, what the event's row holds after
 * success and failure, and that a database error runs nothing and loses nothing.
 */
final class InboundProcessorTest extends Store_Test_Case {

	/** 2026-01-01 00:00:00 UTC. */
	const NOW = 1767225600;

	/** The hooks the tests add to. */
	const HOOKS = array( Inbound_Processor::GENERIC_ACTION, 'service_integration_inbound_stripe', 'service_integration_inbound_event_failed', 'service_integration_inbound_retry_delay' );

	/**
	 * The store.
	 *
	 * @var Inbound_Store
	 */
	private Inbound_Store $store;

	/**
	 * The processor under test.
	 *
	 * @var Inbound_Processor
	 */
	private Inbound_Processor $processor;

	/**
	 * What the handlers were given, each call: the hook, then its arguments.
	 *
	 * @var array<int, array>
	 */
	private array $handled = array();

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		parent::setUp();
		$clock           = new Fixed_Clock( self::NOW );
		$this->store     = new Inbound_Store( $this->db, $clock, new Wp_Options( $this->db ) );
		$this->processor = new Inbound_Processor( $this->store, $clock );
		$this->handled   = array();
		wp_clear_scheduled_hook( Inbound_Processor::KICK_HOOK );
	}

	/**
	 * Removes the handlers and the cron event the test added.
	 */
	protected function tearDown(): void {
		foreach ( self::HOOKS as $hook ) {
			remove_all_filters( $hook );
		}
		wp_clear_scheduled_hook( Inbound_Processor::KICK_HOOK );
		parent::tearDown();
	}

	/**
	 * A handler on $hook that records its arguments, and throws $error when given one.
	 *
	 * @param string         $hook  Action.
	 * @param Throwable|null $error What to throw.
	 */
	private function handler( string $hook = Inbound_Processor::GENERIC_ACTION, ?Throwable $error = null ): void {
		add_action(
			$hook,
			function ( ...$args ) use ( $hook, $error ): void {
				$this->handled[] = array_merge( array( $hook ), $args );
				if ( $error ) {
					throw $error;
				}
			},
			10,
			4
		);
	}

	/**
	 * A Stripe event received and due, tried $attempts - 1 times before; returns its id.
	 *
	 * @param int    $attempts The attempt this run makes.
	 * @param string $payload  Stored body.
	 */
	private function event_due( int $attempts = 1, string $payload = '{"data":{"amount":5}}' ): int {
		$id = $this->store->insert_once( 'stripe', 'evt_1', 'charge.succeeded', $payload, '/data' );
		$this->assertIsInt( $id );
		$this->sql( "UPDATE {$this->store->table()} SET attempts = " . ( $attempts - 1 ) . ", next_attempt_at = '2025-12-31 23:59:00' WHERE id = {$id}" );
		return $id;
	}

	/**
	 * The event's row.
	 *
	 * @param int $id Row id.
	 * @return array<string, string|null>
	 */
	private function event( int $id ): array {
		return $this->rows( $this->store->table(), 'id = ' . $id )[0];
	}

	/**
	 * A due event is claimed, handled once with its data, and marked processed.
	 */
	public function test_a_due_event_is_claimed_handled_once_and_marked_processed(): void {
		$this->handler();
		$id = $this->event_due();
		$this->assertSame(
			array(
				'processed' => 1,
				'failed'    => 0,
			),
			$this->processor->drain()
		);
		$this->assertCount( 1, $this->handled );
		$this->assertSame( array( Inbound_Processor::GENERIC_ACTION, 'charge.succeeded', array( 'amount' => 5 ) ), array_slice( $this->handled[0], 0, 3 ) );
		$this->assertSame( array( $id, 'evt_1', 1 ), array( $this->handled[0][3]['id'], $this->handled[0][3]['event_id'], $this->handled[0][3]['attempt'] ) );
		$row = $this->event( $id );
		$this->assertSame( array( 'processed', '1', null ), array( $row['status'], $row['attempts'], $row['locked_until'] ) );
		$this->assertSame( 0, $this->processor->drain()['processed'] );
		$this->assertCount( 1, $this->handled );
	}

	/**
	 * The source's action runs after the generic one.
	 */
	public function test_the_source_action_runs_after_the_generic_one(): void {
		$this->handler( 'service_integration_inbound_stripe' );
		$this->handler();
		$this->event_due();
		$this->processor->drain();
		$this->assertSame( array( Inbound_Processor::GENERIC_ACTION, 'service_integration_inbound_stripe' ), array_column( $this->handled, 0 ) );
	}

	/**
	 * An event another run claimed is not handled here, and its claim is left as it was.
	 */
	public function test_an_event_another_run_claimed_is_not_handled_here(): void {
		$this->handler();
		$id = $this->event_due();
		$this->just_before( 'SET locked_until', fn() => $this->sql( "UPDATE {$this->store->table()} SET locked_until = '2026-01-01 00:05:00', attempts = 1 WHERE id = {$id}" ) );
		$this->assertSame(
			array(
				'processed' => 0,
				'failed'    => 0,
			),
			$this->processor->drain()
		);
		$this->assertSame( array(), $this->handled );
		$row = $this->event( $id );
		$this->assertSame( array( 'received', '1', '2026-01-01 00:05:00' ), array( $row['status'], $row['attempts'], $row['locked_until'] ) );
	}

	/**
	 * A handler that throws fails the attempt and schedules the next after the backoff.
	 */
	public function test_a_handler_that_throws_fails_the_attempt_and_schedules_the_next_after_the_backoff(): void {
		$this->handler( Inbound_Processor::GENERIC_ACTION, new RuntimeException( 'the shop is closed' ) );
		$id = $this->event_due( 1 );
		$this->assertSame( 1, $this->processor->drain()['failed'] );
		$row = $this->event( $id );
		$this->assertSame(
			array( 'failed', 'RuntimeException: the shop is closed', gmdate( 'Y-m-d H:i:s', self::NOW + Inbound_Processor::BACKOFF[0] ), null ),
			array( $row['status'], $row['last_error'], $row['next_attempt_at'], $row['locked_until'] )
		);
	}

	/**
	 * A later attempt waits the later step of the backoff.
	 */
	public function test_a_later_attempt_waits_the_later_step_of_the_backoff(): void {
		$this->handler( Inbound_Processor::GENERIC_ACTION, new RuntimeException( 'still closed' ) );
		$id = $this->event_due( 3 );
		$this->processor->drain();
		$this->assertSame( gmdate( 'Y-m-d H:i:s', self::NOW + Inbound_Processor::BACKOFF[2] ), $this->event( $id )['next_attempt_at'] );
	}

	/**
	 * The retry delay filter sets the next attempt from the clock.
	 */
	public function test_the_retry_delay_filter_sets_the_next_attempt_from_the_clock(): void {
		$this->handler( Inbound_Processor::GENERIC_ACTION, new RuntimeException( 'closed' ) );
		add_filter( 'service_integration_inbound_retry_delay', static fn() => 15 );
		$id = $this->event_due( 1 );
		$this->processor->drain();
		$this->assertSame( '2026-01-01 00:00:15', $this->event( $id )['next_attempt_at'] );
	}

	/**
	 * The last attempt gives up and says so.
	 */
	public function test_the_last_attempt_gives_up_and_says_so(): void {
		$this->handler( Inbound_Processor::GENERIC_ACTION, new RuntimeException( 'closed for good' ) );
		$this->handler( 'service_integration_inbound_event_failed' );
		$id = $this->event_due( Inbound_Processor::MAX_ATTEMPTS );
		$this->processor->drain();
		$row = $this->event( $id );
		$this->assertSame( array( 'failed', null ), array( $row['status'], $row['next_attempt_at'] ) );
		$this->assertContains( 'service_integration_inbound_event_failed', array_column( $this->handled, 0 ) );
	}

	/**
	 * A payload that cannot be decoded fails for good without running handlers.
	 */
	public function test_a_payload_that_cannot_be_decoded_fails_for_good_without_running_handlers(): void {
		$this->handler();
		$id = $this->event_due( 1, 'not json' );
		$this->assertSame( 1, $this->processor->drain()['failed'] );
		$this->assertSame( array(), $this->handled );
		$row = $this->event( $id );
		$this->assertSame( array( 'failed', 'The stored payload cannot be decoded.', null ), array( $row['status'], $row['last_error'], $row['next_attempt_at'] ) );
	}

	/**
	 * A queue that cannot be read claims and runs nothing.
	 */
	public function test_a_queue_that_cannot_be_read_claims_and_runs_nothing(): void {
		$this->handler();
		$id = $this->event_due();
		$this->just_before( 'SELECT id FROM', fn() => $this->break_table( $this->store->table() ) );
		$this->assertSame(
			array(
				'processed' => 0,
				'failed'    => 0,
			),
			$this->processor->drain()
		);
		$this->assertSame( array(), $this->handled );
		$this->mend_tables();
		$row = $this->event( $id );
		$this->assertSame( array( 'received', '0', null ), array( $row['status'], $row['attempts'], $row['locked_until'] ) );
	}

	/**
	 * A claimed event that cannot be read is left to its claim's expiry.
	 */
	public function test_a_claimed_event_that_cannot_be_read_is_left_to_its_claim_expiry(): void {
		$this->handler();
		$id = $this->event_due();
		$this->just_before( 'SELECT * FROM', fn() => $this->break_table( $this->store->table() ) );
		$this->assertSame( 1, $this->processor->drain()['failed'] );
		$this->assertSame( array(), $this->handled );
		$this->mend_tables();
		$row = $this->event( $id );
		$this->assertSame( array( 'received', '1', '2026-01-01 00:05:00' ), array( $row['status'], $row['attempts'], $row['locked_until'] ) );
	}

	/**
	 * A success the database cannot record counts as a failure, and the claim is left to expire.
	 */
	public function test_a_success_the_database_cannot_record_counts_as_a_failure(): void {
		$this->handler();
		$id = $this->event_due();
		$this->refuse( 'UPDATE', $this->store->table(), "NEW.status = 'processed'" );
		$this->assertSame(
			array(
				'processed' => 0,
				'failed'    => 1,
			),
			$this->processor->drain()
		);
		$this->assertCount( 1, $this->handled );
		$this->assertSame( array( 'received', '2026-01-01 00:05:00' ), array( $this->event( $id )['status'], $this->event( $id )['locked_until'] ) );
	}

	/**
	 * After a run the next due event gets its cron run.
	 */
	public function test_after_a_run_the_next_due_event_gets_its_cron_run(): void {
		$id = $this->event_due();
		$this->sql( "UPDATE {$this->store->table()} SET next_attempt_at = '2030-01-01 00:00:00' WHERE id = {$id}" );
		$this->processor->drain();
		$this->assertSame( 1893456000, wp_next_scheduled( Inbound_Processor::KICK_HOOK ) );
	}

	/**
	 * A next due time that cannot be read schedules nothing and leaves it to the sweep.
	 */
	public function test_a_next_due_time_that_cannot_be_read_schedules_nothing_and_leaves_it_to_the_sweep(): void {
		$id = $this->event_due();
		$this->sql( "UPDATE {$this->store->table()} SET next_attempt_at = '2030-01-01 00:00:00' WHERE id = {$id}" );
		$this->just_before( 'SELECT MIN(', fn() => $this->break_table( $this->store->table() ) );
		$this->processor->drain();
		$this->assertFalse( wp_next_scheduled( Inbound_Processor::KICK_HOOK ) );
	}
}

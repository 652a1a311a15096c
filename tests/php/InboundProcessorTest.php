<?php
/**
 * The inbound processor's run over the store and a recording database.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Inbound\Inbound_Processor;
use ServiceIntegration\Inbound\Inbound_Store;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * Inbound_Processor::drain(): what it claims, which handlers run, what it records after success
 * and failure, and that a database error runs nothing and loses nothing.
 */
final class InboundProcessorTest extends TestCase {

	/** 2026-01-01 00:00:00 UTC. */
	const NOW = 1767225600;

	/**
	 * The database.
	 *
	 * @var Recording_Wpdb
	 */
	private Recording_Wpdb $db;

	/**
	 * The processor under test.
	 *
	 * @var Inbound_Processor
	 */
	private Inbound_Processor $processor;

	/**
	 * What the handler was given, each call.
	 *
	 * @var array<int, array>
	 */
	private array $handled = array();

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		$GLOBALS['service_integration_test_wp'] = array();
		$clock                                  = new Fixed_Clock( self::NOW );
		$this->db                               = new Recording_Wpdb();
		$this->processor                        = new Inbound_Processor( new Inbound_Store( $this->db, $clock, new In_Memory_Options() ), $clock );
		$this->handled                          = array();
	}

	/**
	 * A handler on every event that records its arguments, and throws $error when given one.
	 *
	 * @param Throwable|null $error What to throw.
	 */
	private function handler( ?Throwable $error = null ): void {
		add_action(
			Inbound_Processor::GENERIC_ACTION,
			function ( ...$args ) use ( $error ): void {
				$this->handled[] = $args;
				if ( $error ) {
					throw $error;
				}
			}
		);
	}

	/**
	 * Event 7 due, claimed, and read with these attempts and payload.
	 *
	 * @param int    $attempts Attempts, the claimed one included.
	 * @param string $payload  Stored body.
	 */
	private function event_due( int $attempts = 1, string $payload = '{"data":{"amount":5}}' ): void {
		$this->db->answers( 'SELECT id FROM', array( '7' ) );
		$this->db->answers( 'SET locked_until = ', 1 );
		$this->db->answers(
			'SELECT * FROM',
			(object) array(
				'id'                => '7',
				'source'            => 'stripe',
				'event_id'          => 'evt_1',
				'delivery_id'       => null,
				'type'              => 'charge.succeeded',
				'payload'           => $payload,
				'data_pointer'      => '/data',
				'attempts'          => (string) $attempts,
				'received_at'       => '2025-12-31 23:59:00',
				'duplicate_count'   => '0',
				'status'            => 'received',
				'last_error'        => null,
				'processed_at'      => null,
				'next_attempt_at'   => '2025-12-31 23:59:00',
				'last_duplicate_at' => null,
			)
		);
	}

	/**
	 * A due event is claimed handled once and marked processed.
	 */
	public function test_a_due_event_is_claimed_handled_once_and_marked_processed(): void {
		$this->handler();
		$this->event_due();
		$this->assertSame(
			array(
				'processed' => 1,
				'failed'    => 0,
			),
			$this->processor->drain()
		);
		$this->assertCount( 1, $this->handled );
		$this->assertSame( array( 'charge.succeeded', array( 'amount' => 5 ) ), array_slice( $this->handled[0], 0, 2 ) );
		$this->assertSame( 'processed', $this->db->updates[0]['data']['status'] );
	}

	/**
	 * The source action runs after the generic one.
	 */
	public function test_the_source_action_runs_after_the_generic_one(): void {
		$this->event_due();
		$this->processor->drain();
		$hooks = array_column( $GLOBALS['service_integration_test_wp']['done'], 0 );
		$this->assertSame( array( Inbound_Processor::GENERIC_ACTION, 'service_integration_inbound_stripe' ), $hooks );
	}

	/**
	 * An event another run claimed is not handled here.
	 */
	public function test_an_event_another_run_claimed_is_not_handled_here(): void {
		$this->handler();
		$this->db->answers( 'SELECT id FROM', array( '7' ) );
		$this->db->answers( 'SET locked_until = ', 0 );
		$this->assertSame(
			array(
				'processed' => 0,
				'failed'    => 0,
			),
			$this->processor->drain()
		);
		$this->assertSame( array(), $this->handled );
		$this->assertSame( array(), $this->db->updates );
	}

	/**
	 * A handler that throws fails the attempt and schedules the next after the backoff.
	 */
	public function test_a_handler_that_throws_fails_the_attempt_and_schedules_the_next_after_the_backoff(): void {
		$this->handler( new RuntimeException( 'the shop is closed' ) );
		$this->event_due( 1 );
		$this->assertSame( 1, $this->processor->drain()['failed'] );
		$data = $this->db->updates[0]['data'];
		$this->assertSame( 'failed', $data['status'] );
		$this->assertSame( 'RuntimeException: the shop is closed', $data['last_error'] );
		$this->assertSame( gmdate( 'Y-m-d H:i:s', self::NOW + Inbound_Processor::BACKOFF[0] ), $data['next_attempt_at'] );
	}

	/**
	 * A later attempt waits the later step of the backoff.
	 */
	public function test_a_later_attempt_waits_the_later_step_of_the_backoff(): void {
		$this->handler( new RuntimeException( 'still closed' ) );
		$this->event_due( 3 );
		$this->processor->drain();
		$this->assertSame( gmdate( 'Y-m-d H:i:s', self::NOW + Inbound_Processor::BACKOFF[2] ), $this->db->updates[0]['data']['next_attempt_at'] );
	}

	/**
	 * The retry delay filter sets the next attempt from the clock.
	 */
	public function test_the_retry_delay_filter_sets_the_next_attempt_from_the_clock(): void {
		$this->handler( new RuntimeException( 'closed' ) );
		add_action( 'service_integration_inbound_retry_delay', static fn() => 15 );
		$this->event_due( 1 );
		$this->processor->drain();
		$this->assertSame( '2026-01-01 00:00:15', $this->db->updates[0]['data']['next_attempt_at'] );
	}

	/**
	 * The last attempt gives up and says so.
	 */
	public function test_the_last_attempt_gives_up_and_says_so(): void {
		$this->handler( new RuntimeException( 'closed for good' ) );
		$this->event_due( Inbound_Processor::MAX_ATTEMPTS );
		$this->processor->drain();
		$this->assertNull( $this->db->updates[0]['data']['next_attempt_at'] );
		$this->assertContains( 'service_integration_inbound_event_failed', array_column( $GLOBALS['service_integration_test_wp']['done'], 0 ) );
	}

	/**
	 * A payload that cannot be decoded fails for good without running handlers.
	 */
	public function test_a_payload_that_cannot_be_decoded_fails_for_good_without_running_handlers(): void {
		$this->handler();
		$this->event_due( 1, 'not json' );
		$this->assertSame( 1, $this->processor->drain()['failed'] );
		$this->assertSame( array(), $this->handled );
		$this->assertSame( 'The stored payload cannot be decoded.', $this->db->updates[0]['data']['last_error'] );
		$this->assertNull( $this->db->updates[0]['data']['next_attempt_at'] );
	}

	/**
	 * A queue that cannot be read claims and runs nothing.
	 */
	public function test_a_queue_that_cannot_be_read_claims_and_runs_nothing(): void {
		$this->handler();
		$this->db->fails( 'SELECT id FROM' );
		$this->assertSame(
			array(
				'processed' => 0,
				'failed'    => 0,
			),
			$this->processor->drain()
		);
		$this->assertSame( array(), $this->handled );
		$this->assertSame( array(), preg_grep( '/^UPDATE/', $this->db->sql() ) );
	}

	/**
	 * A claimed event that cannot be read is left to its claim expiry.
	 */
	public function test_a_claimed_event_that_cannot_be_read_is_left_to_its_claim_expiry(): void {
		$this->handler();
		$this->db->answers( 'SELECT id FROM', array( '7' ) );
		$this->db->answers( 'SET locked_until = ', 1 );
		$this->db->fails( 'SELECT * FROM' );
		$this->assertSame( 1, $this->processor->drain()['failed'] );
		$this->assertSame( array(), $this->handled );
		$this->assertSame( array(), $this->db->updates );
	}

	/**
	 * A success the database cannot record counts as a failure.
	 */
	public function test_a_success_the_database_cannot_record_counts_as_a_failure(): void {
		$this->handler();
		$this->event_due();
		$this->db->fails( 'UPDATE wp_si_inbound_events' );
		$this->assertSame(
			array(
				'processed' => 0,
				'failed'    => 1,
			),
			$this->processor->drain()
		);
	}

	/**
	 * After a run the next due event gets its cron run.
	 */
	public function test_after_a_run_the_next_due_event_gets_its_cron_run(): void {
		$this->db->answers( 'SELECT MIN(', '2030-01-01 00:00:00' );
		$this->processor->drain();
		$this->assertSame( 1893456000, wp_next_scheduled( Inbound_Processor::KICK_HOOK ) );
	}

	/**
	 * A next due time that cannot be read schedules nothing and leaves it to the sweep.
	 */
	public function test_a_next_due_time_that_cannot_be_read_schedules_nothing_and_leaves_it_to_the_sweep(): void {
		$this->db->fails( 'SELECT MIN(' );
		$this->processor->drain();
		$this->assertFalse( wp_next_scheduled( Inbound_Processor::KICK_HOOK ) );
	}
}

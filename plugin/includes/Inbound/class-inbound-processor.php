<?php
/**
 * Runs site handlers for stored inbound events, from WP-Cron, with bounded retries.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Inbound;

use ServiceIntegration\Support\Clock;
use ServiceIntegration\Support\Recurring_Event;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The receiving route only stores an event and asks for a cron run ("kick"); this class
 * does the work afterwards, outside the sender's request.
 *
 * For each event it fires:
 *
 *   do_action( 'service_integration_inbound_event', $type, $data, $event );
 *   do_action( "service_integration_inbound_{$source}", $type, $data, $event );
 *
 * A handler signals failure by throwing. The event is then marked failed with the
 * message and tried again after a backoff (1 min, 5 min, 30 min, 2 h), at most
 * MAX_ATTEMPTS times in all; after the last one it stays failed and
 * `service_integration_inbound_event_failed` fires. A failed attempt runs every handler
 * again, so handlers should be idempotent.
 *
 * Each event is claimed with an atomic UPDATE before its handlers run, so overlapping
 * cron runs (two web servers, a system cron plus WP-Cron) never process it twice. A
 * process that dies mid-handler leaves the claim to expire (LEASE_SECONDS) and the
 * attempt counted. A sweep every five minutes catches events whose kick was lost (the
 * cron option is one serialized value: concurrent writers can drop each other's events).
 */
final class Inbound_Processor {

	const KICK_HOOK      = 'service_integration_inbound_process';
	const SWEEP_HOOK     = 'service_integration_inbound_sweep';
	const SCHEDULE       = 'service_integration_inbound_every_five_minutes';
	const KICK_DELAY     = 10;
	const MAX_ATTEMPTS   = 5;
	const BACKOFF        = array( 60, 300, 1800, 7200 );
	const BATCH          = 50;
	const TIME_BUDGET    = 20;
	const LEASE_SECONDS  = 300;
	const GENERIC_ACTION = 'service_integration_inbound_event';

	/**
	 * Row whose handlers are running (for the shutdown check).
	 *
	 * @var int|null
	 */
	private ?int $current = null;

	/**
	 * Whether the shutdown check is registered.
	 *
	 * @var bool
	 */
	private bool $watching = false;

	/**
	 * Constructor.
	 *
	 * @param Inbound_Store $store The stored events.
	 * @param Clock         $clock Time of the next attempts.
	 */
	public function __construct( private Inbound_Store $store, private Clock $clock ) {
	}

	/**
	 * Registers the cron hooks and the sweep's schedule.
	 */
	public function register(): void {
		add_filter( 'cron_schedules', array( self::class, 'add_schedule' ) ); // phpcs:ignore WordPress.WP.CronInterval.CronSchedulesInterval -- the sweep of inbound events every 5 minutes retries failed handlers on their backoff (1 and 5 min first); each event is also kicked when it arrives.
		add_action( self::KICK_HOOK, array( $this, 'drain' ) );
		add_action( self::SWEEP_HOOK, array( $this, 'drain' ) );
		add_action( 'init', array( self::class, 'ensure_sweep' ) );
	}

	/**
	 * Adds the sweep's five-minute schedule.
	 *
	 * @param array $schedules Schedules.
	 * @return array
	 */
	public static function add_schedule( $schedules ) {
		$schedules[ self::SCHEDULE ] = array(
			'interval' => 5 * MINUTE_IN_SECONDS,
			'display'  => __( 'Every five minutes (Service Integration inbound events)', 'service-integration' ),
		);
		return $schedules;
	}

	/**
	 * Schedules the sweep when it is missing, once (Recurring_Event).
	 */
	public static function ensure_sweep(): void {
		Recurring_Event::ensure( self::SWEEP_HOOK, self::SCHEDULE, time() + 5 * MINUTE_IN_SECONDS );
	}

	/**
	 * Schedules what processing needs: the sweep, and a run when the next stored event is due.
	 * For activation: deactivation cleared the kick of the events stored before it, which would
	 * otherwise wait for the sweep's first run, five minutes later.
	 */
	public function schedule(): void {
		self::ensure_sweep();
		$this->kick_next();
	}

	/**
	 * Asks for a run when the next stored event is due. When the table cannot be read, the
	 * sweep (every five minutes) is the run that finds it.
	 */
	private function kick_next(): void {
		$next = $this->store->next_due_time();
		if ( is_int( $next ) ) {
			self::kick( $next );
		}
	}

	/**
	 * Removes the plugin's cron events (deactivation).
	 */
	public static function unschedule(): void {
		wp_clear_scheduled_hook( self::KICK_HOOK );
		wp_clear_scheduled_hook( self::SWEEP_HOOK );
	}

	/**
	 * Asks for a cron run at $at, by default KICK_DELAY seconds from now. Writes the cron
	 * option only when no earlier run is already queued, so a burst of events costs one
	 * write and one cron run (each run is a full WordPress request, which on a small
	 * server competes with the senders' requests).
	 *
	 * @param int|null $at Unix time.
	 */
	public static function kick( ?int $at = null ): void {
		$now = time();
		if ( null === $at ) {
			/**
			 * Seconds between a new event and the cron run that processes it (default 10):
			 * events arriving meanwhile share that run. 0 processes at the next request.
			 *
			 * @since 0.1.0
			 *
			 * @param int $seconds Delay.
			 */
			$at = Inbound_Rules::due_after( $now, apply_filters( 'service_integration_inbound_kick_delay', self::KICK_DELAY ) );
		}
		$at     = max( $at, $now );
		$next   = wp_next_scheduled( self::KICK_HOOK );
		$action = Inbound_Rules::kick_action( $at, $next );
		if ( Inbound_Rules::KICK_KEEP === $action ) {
			return;
		}
		if ( Inbound_Rules::KICK_MOVE === $action ) {
			// Core refuses a second identical event within 10 minutes: move the later one earlier.
			wp_unschedule_event( $next, self::KICK_HOOK );
		}
		wp_schedule_single_event( $at, self::KICK_HOOK );
	}

	/**
	 * Processes the events that are due, oldest first, within a batch and time budget.
	 *
	 * @return array{processed:int, failed:int}
	 */
	public function drain(): array {
		$started = microtime( true );
		$result  = array(
			'processed' => 0,
			'failed'    => 0,
		);
		// A table that cannot be read has nothing due for this run (Database_Error logged it).
		$due = $this->store->due_ids( self::BATCH );
		foreach ( is_array( $due ) ? $due : array() as $id ) {
			if ( microtime( true ) - $started > self::TIME_BUDGET ) {
				break;
			}
			if ( true !== $this->store->claim( $id, self::LEASE_SECONDS ) ) {
				continue; // Another run has it, it is no longer due, or the claim failed (logged).
			}
			if ( $this->process( $id ) ) {
				++$result['processed'];
			} else {
				++$result['failed'];
			}
		}
		$this->kick_next();
		return $result;
	}

	/**
	 * Runs the handlers for one claimed event and records the outcome.
	 *
	 * @param int $id Row id.
	 * @return bool Whether every handler returned normally.
	 */
	private function process( int $id ): bool {
		$row = $this->store->get( $id );
		if ( ! is_object( $row ) || is_wp_error( $row ) ) {
			// Gone, or unreadable (logged): the claim expires and a later run tries again.
			return false;
		}
		$body = Inbound_Payload::decode( (string) $row->payload );
		$data = Inbound_Payload::data( $body, (string) $row->data_pointer );
		if ( null === $data ) {
			$this->store->mark_failed( $id, __( 'The stored payload cannot be decoded.', 'service-integration' ), null );
			return false;
		}
		$event = array(
			'id'          => $row->id,
			'source'      => $row->source,
			'event_id'    => $row->event_id,
			'delivery_id' => $row->delivery_id ?? null,
			'type'        => $row->type,
			'attempt'     => $row->attempts,
			'received_at' => $row->received_at,
			'body'        => $body,
		);

		$this->current = $id;
		if ( ! $this->watching ) {
			$this->watching = true;
			register_shutdown_function( array( $this, 'on_shutdown' ) );
		}
		try {
			/**
			 * A verified inbound webhook, once (again only after a failed attempt).
			 *
			 * @since 0.1.0
			 *
			 * @param string $type  Event type (e.g. `payment_intent.succeeded`, `issues.opened`).
			 * @param array  $data  The event's data object.
			 * @param array  $event {id, source, event_id, delivery_id, type, attempt, received_at, body}.
			 */
			do_action( 'service_integration_inbound_event', $row->type, $data, $event );
			/**
			 * The same, for one source only: the dynamic part of the hook name is the source's slug.
			 *
			 * @since 0.1.0
			 *
			 * @param string $type  Event type.
			 * @param array  $data  The event's data object.
			 * @param array  $event {id, source, event_id, delivery_id, type, attempt, received_at, body}.
			 */
			do_action( "service_integration_inbound_{$row->source}", $row->type, $data, $event );
		} catch ( \Throwable $error ) {
			$this->current = null;
			$this->record_failure( $row, get_class( $error ) . ': ' . $error->getMessage(), $data, $event, $error );
			return false;
		}
		$this->current = null;
		// Not recorded (logged): the claim expires and the handlers run again, as after a crash.
		return true === $this->store->mark_processed( $id );
	}

	/**
	 * Marks a failed attempt and schedules the next one, or gives up.
	 *
	 * @param object          $row     Row (attempts already counts this attempt).
	 * @param string          $message Error.
	 * @param array           $data    Event data.
	 * @param array           $event   Event context.
	 * @param \Throwable|null $error   What was thrown, if anything.
	 */
	private function record_failure( object $row, string $message, array $data, array $event, ?\Throwable $error ): void {
		$attempts = (int) $row->attempts;
		/**
		 * Filters how many attempts an inbound event gets in all (default 5).
		 *
		 * @since 0.1.0
		 *
		 * @param int   $max   Attempts.
		 * @param array $event Event context.
		 */
		$max = Inbound_Rules::max_attempts( apply_filters( 'service_integration_inbound_max_attempts', self::MAX_ATTEMPTS, $event ) );
		if ( Inbound_Rules::gives_up( $attempts, $max ) ) {
			$this->store->mark_failed( (int) $row->id, $message, null );
			/**
			 * An inbound event failed for good (every attempt threw).
			 *
			 * @since 0.1.0
			 *
			 * @param string          $type  Event type.
			 * @param array           $data  Event data.
			 * @param array           $event Event context.
			 * @param \Throwable|null $error Last error.
			 */
			do_action( 'service_integration_inbound_event_failed', $row->type, $data, $event, $error );
			return;
		}
		$default = Inbound_Rules::default_delay( $attempts, self::BACKOFF );
		/**
		 * Filters the seconds before a failed inbound event is tried again (by default 1 min,
		 * 5 min, 30 min, then 2 h).
		 *
		 * @since 0.1.0
		 *
		 * @param int   $delay    Seconds.
		 * @param int   $attempts Attempts so far, this one included.
		 * @param array $event    Event context.
		 */
		$delay = apply_filters( 'service_integration_inbound_retry_delay', $default, $attempts, $event );
		$this->store->mark_failed( (int) $row->id, $message, Inbound_Rules::due_after( $this->clock->now(), $delay ) );
	}

	/**
	 * A handler that ended the process (fatal error, exit) still gets its attempt recorded.
	 */
	public function on_shutdown(): void {
		if ( null === $this->current ) {
			return;
		}
		$id            = $this->current;
		$this->current = null;
		$row           = $this->store->get( $id );
		if ( ! is_object( $row ) || is_wp_error( $row ) ) {
			return;
		}
		$last  = error_get_last();
		$error = __( 'The process ended in a handler.', 'service-integration' );
		if ( $last ) {
			/* translators: %s: PHP's message about the error that ended the process. */
			$error = sprintf( __( 'The process ended in a handler: %s', 'service-integration' ), $last['message'] );
		}
		$this->record_failure( $row, $error, array(), array( 'id' => $id ), null );
	}
}

<?php
/**
 * Hands outbox events to the sidecar: at the end of the request, and from WP-Cron.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

use ServiceIntegration\Support\Option_Lock;
use ServiceIntegration\Support\Recurring_Event;
use ServiceIntegration\Sidecar\Sidecar_Client;
use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Oldest first, in batches capped in rows and bytes, with a short timeout; a row is
 * marked handed over only after the sidecar acknowledged it (stored durably). When the
 * sidecar is down the rows stay, and the every-minute cron event tries again, in order.
 * A row the sidecar refuses (or that cannot be sent at all) is parked as rejected, so it
 * never blocks the rows behind it. One holder at a time: Plugin builds the request's one Option_Lock
 * over LOCK_OPTION and gives it here, so the hand-over at shutdown and WP-Cron's take the same one.
 */
final class Hand_Over {

	const CRON_HOOK = 'service_integration_outbox_flush';
	const SCHEDULE  = 'service_integration_every_minute';
	const BATCH     = 100;
	// A quarter of the sidecar's default body limit (SIDECAR_MAX_BODY_BYTES, 1 MB).
	const MAX_BATCH_BYTES = 256 * 1024;
	const MAX_BATCHES     = 10;
	const TIMEOUT         = 2.0;
	const BACKOFF_KEY     = 'service_integration_hand_over_backoff';
	const BACKOFF_TTL     = MINUTE_IN_SECONDS;
	const BUSY            = 'hand_over_in_progress';
	const RETENTION_DAYS  = 30;
	const PRUNE_BATCH     = 500;
	const PRUNE_BATCHES   = 10;
	// The option row of the hand-over's lock, and how long a holder keeps it.
	const LOCK_OPTION = 'service_integration_hand_over_lock';
	const LOCK_TTL    = 60;

	/**
	 * Whether a flush is already queued for this request's shutdown.
	 *
	 * @var bool
	 */
	private bool $scheduled = false;

	/**
	 * Constructor.
	 *
	 * @param Sidecar_Client $sidecar Client.
	 * @param Outbox         $outbox  The rows to hand over.
	 * @param Option_Lock    $lock    One hand-over at a time (LOCK_OPTION).
	 */
	public function __construct( private Sidecar_Client $sidecar, private Outbox $outbox, private Option_Lock $lock ) {
	}

	/**
	 * Registers the cron event and its schedule.
	 */
	public function register(): void {
		add_filter( 'cron_schedules', array( self::class, 'add_schedule' ) ); // phpcs:ignore WordPress.WP.CronInterval.CronSchedulesInterval -- the outbox is handed to the sidecar every minute, a backstop for the hand-over at the end of each request; docs/configuration.md.
		add_action( self::CRON_HOOK, array( $this, 'run_cron' ) );
		add_action(
			'init',
			static function (): void {
				self::schedule();
			}
		);
	}

	/**
	 * Schedules the every-minute hand-over when it is missing, once (Recurring_Event). The
	 * schedule must be known when the event is written (add_schedule): activation calls this
	 * before the plugin's hooks are registered (Lifecycle::schedule_jobs).
	 *
	 * @param int|null $first_run Unix time of the first run; a minute from now by default.
	 */
	public static function schedule( ?int $first_run = null ): void {
		Recurring_Event::ensure( self::CRON_HOOK, self::SCHEDULE, $first_run ?? time() + MINUTE_IN_SECONDS );
	}

	/**
	 * Removes the cron event (deactivation).
	 */
	public static function unschedule(): void {
		wp_clear_scheduled_hook( self::CRON_HOOK );
	}

	/**
	 * Adds a one-minute schedule.
	 *
	 * @param array $schedules Schedules.
	 * @return array
	 */
	public static function add_schedule( $schedules ) {
		$schedules[ self::SCHEDULE ] = array(
			'interval' => MINUTE_IN_SECONDS,
			'display'  => __( 'Every minute (Service Integration outbox)', 'service-integration' ),
		);
		return $schedules;
	}

	/**
	 * Queues one flush at the end of this request, unless the sidecar failed within the
	 * last minute: then the event waits for the cron flush, so a slow sidecar costs at
	 * most one order request a minute its 2 s timeout, not every checkout.
	 */
	public function schedule_at_shutdown(): void {
		if ( ! $this->scheduled && ! get_transient( self::BACKOFF_KEY ) ) {
			$this->scheduled = true;
			// Late, so other shutdown work has run before the response is sent.
			add_action( 'shutdown', array( $this, 'flush_at_shutdown' ), 100 );
		}
	}

	/**
	 * End of request: send the response first where PHP-FPM allows it, then at most one
	 * batch (the cron drains the rest), and none when another request or the cron holds
	 * the lock (it is handing these rows over already).
	 */
	public function flush_at_shutdown(): void {
		$this->flush_after_response( 1 );
	}

	/**
	 * The sidecar says it takes events again (it has just started): everything pending is
	 * handed over at the end of this request, as the cron would, without waiting for the next
	 * cron run or visitor. The back-off an earlier failure set is lifted, since that failure
	 * is over.
	 */
	public function resume_after_response(): void {
		delete_transient( self::BACKOFF_KEY );
		add_action( 'shutdown', array( $this, 'drain_at_shutdown' ), 100 );
	}

	/**
	 * End of the sidecar's request: the response first, then as many batches as a cron run
	 * hands over; none when another request or the cron holds the lock.
	 */
	public function drain_at_shutdown(): void {
		$this->flush_after_response( self::MAX_BATCHES );
	}

	/**
	 * Sends the response first where PHP-FPM allows it, then hands over up to $max_batches.
	 *
	 * @param int $max_batches Requests to the sidecar at most.
	 */
	private function flush_after_response( int $max_batches ): void {
		if ( function_exists( 'fastcgi_finish_request' ) ) {
			fastcgi_finish_request();
		}
		$this->flush( $max_batches );
	}

	/**
	 * The cron job: hand over what is pending, then delete rows handed over long ago.
	 */
	public function run_cron(): void {
		$this->flush();
		/**
		 * Filters how many days handed-over outbox rows are kept (default 30; 0 deletes
		 * them at the next run). Pending and rejected rows are never deleted.
		 *
		 * @since 0.1.0
		 *
		 * @param float $days Days.
		 */
		$days = (float) apply_filters( 'service_integration_outbox_retention_days', self::RETENTION_DAYS );
		if ( $days < 0 ) {
			return;
		}
		for ( $i = 0; $i < self::PRUNE_BATCHES; $i++ ) {
			$deleted = $this->outbox->prune_handed_over( $days, self::PRUNE_BATCH );
			// A failed prune (logged) waits for the next run.
			if ( is_wp_error( $deleted ) || $deleted < self::PRUNE_BATCH ) {
				break;
			}
		}
	}

	/**
	 * Hands pending events over, oldest first.
	 *
	 * @param int   $max_batches At most this many requests to the sidecar.
	 * @param float $wait        Seconds to wait for the lock (0: give up at once if held).
	 * @return array{handed_over:int, rejected:int, error:?string}
	 */
	public function flush( int $max_batches = self::MAX_BATCHES, float $wait = 0.0 ): array {
		$taken = $this->lock->acquire( self::LOCK_TTL, $wait );
		if ( true !== $taken ) {
			return array(
				'handed_over' => 0,
				'rejected'    => 0,
				'error'       => is_wp_error( $taken ) ? $taken->get_error_code() : self::BUSY,
			);
		}
		try {
			return $this->hand_over_batches( $max_batches );
		} finally {
			$this->lock->release();
		}
	}

	/**
	 * Sends up to $max_batches batches (packed by Batch_Packer); the caller holds the lock.
	 *
	 * @param int $max_batches Requests at most.
	 * @return array{handed_over:int, rejected:int, error:?string}
	 */
	private function hand_over_batches( int $max_batches ): array {
		$result         = array(
			'handed_over' => 0,
			'rejected'    => 0,
			'error'       => null,
		);
		$rows_per_batch = self::BATCH;
		/**
		 * Filters the byte cap of one hand-over request; keep it well under the sidecar's
		 * SIDECAR_MAX_BODY_BYTES (1 MB by default). A single event over it is parked.
		 *
		 * @since 0.1.0
		 *
		 * @param int $bytes Bytes.
		 */
		$max_bytes = max( 1024, (int) apply_filters( 'service_integration_outbox_batch_bytes', self::MAX_BATCH_BYTES ) );
		for ( $batch = 0; $batch < $max_batches; $batch++ ) {
			$rows = $this->outbox->pending( $rows_per_batch );
			if ( is_wp_error( $rows ) ) {
				$result['error'] = $rows->get_error_code();
				return $result;
			}
			if ( ! $rows ) {
				break;
			}
			$encoded = array();
			$parks   = array();
			foreach ( $rows as $position => $row ) {
				$event = self::encode( $row );
				if ( is_wp_error( $event ) ) {
					$parks[ $position ] = $event->get_error_code() . ': ' . $event->get_error_message();
				} else {
					$encoded[ $position ] = $event;
				}
			}
			$packed = Batch_Packer::pack( $encoded, $max_bytes );
			foreach ( $packed['too_large'] as $position ) {
				$parks[ $position ] = sprintf( 'payload_too_large: %d bytes, over the %d-byte hand-over limit', strlen( $encoded[ $position ] ), $max_bytes );
			}
			foreach ( $parks as $position => $reason ) {
				$parked = $this->park( $rows[ $position ], $reason );
				if ( is_wp_error( $parked ) ) {
					// The row stays pending and would be read again: stop until the database answers.
					$result['error'] = $parked->get_error_code();
					return $result;
				}
				++$result['rejected'];
			}
			$left = $packed['left'];
			if ( $packed['batch'] ) {
				$sent                   = array_map( static fn( $position ) => $rows[ $position ], $packed['batch'] );
				$body                   = Batch_Packer::body( array_map( static fn( $position ) => $encoded[ $position ], $packed['batch'] ) );
				$outcome                = $this->apply_answer( $this->sidecar->request( 'POST', '/v1/events', $body, array(), self::TIMEOUT ), $sent );
				$result['handed_over'] += $outcome['handed_over'];
				$result['rejected']    += $outcome['rejected'];
				if ( null !== $outcome['error'] ) {
					$result['error'] = $outcome['error'];
					return $result;
				}
				if ( $outcome['too_large'] ) {
					$fallback = Batch_Packer::after_too_large( count( $sent ) );
					if ( $fallback['park'] ) {
						$parked = $this->park( $sent[0], 'body_too_large: the sidecar refuses this event as too large (SIDECAR_MAX_BODY_BYTES)' );
						if ( is_wp_error( $parked ) ) {
							$result['error'] = $parked->get_error_code();
							return $result;
						}
						++$result['rejected'];
					} else {
						$left = true;
					}
					$rows_per_batch = $fallback['rows_per_batch'];
				}
			}
			if ( ! Batch_Packer::more_to_read( count( $rows ), $rows_per_batch, $left ) ) {
				break;
			}
		}
		return $result;
	}

	/**
	 * Parks a row as rejected (kept, never sent again).
	 *
	 * @param object $row    Outbox row.
	 * @param string $reason Why.
	 * @return true|WP_Error
	 */
	private function park( object $row, string $reason ) {
		return $this->outbox->mark_rejected( (int) $row->id, $reason );
	}

	/**
	 * Reads the sidecar's answer to one batch and updates the rows. A valid batch is always
	 * answered 202 {accepted, duplicates, rejected}; a 413 says the body was over its limit.
	 *
	 * @param array|WP_Error $answer Sidecar_Client::request() result.
	 * @param object[]       $rows   The rows sent, in batch order.
	 * @return array{handed_over:int, rejected:int, error:?string, too_large:bool}
	 */
	private function apply_answer( $answer, array $rows ): array {
		$outcome = array(
			'handed_over' => 0,
			'rejected'    => 0,
			'error'       => null,
			'too_large'   => false,
		);
		$verdict = is_wp_error( $answer )
			? Outbound_Rules::hand_over_verdict( (string) $answer->get_error_code(), 0, array(), count( $rows ) )
			: Outbound_Rules::hand_over_verdict( null, (int) $answer['status'], (array) $answer['body'], count( $rows ) );
		if ( null === $verdict['error'] && ! $verdict['too_large'] ) {
			delete_transient( self::BACKOFF_KEY );
			$marked = $this->outbox->mark_handed_over( $verdict['acknowledged'] );
			if ( is_wp_error( $marked ) ) {
				// The rows stay pending: the next run sends them again and the sidecar answers them as duplicates.
				$outcome['error'] = $marked->get_error_code();
				return $outcome;
			}
			$outcome['handed_over'] = count( $verdict['acknowledged'] );
			foreach ( $verdict['rejected'] as $rejected ) {
				$parked = $this->park( $rows[ $rejected['index'] ], $rejected['reason'] );
				if ( is_wp_error( $parked ) ) {
					$outcome['error'] = $parked->get_error_code();
					return $outcome;
				}
				++$outcome['rejected'];
			}
			return $outcome;
		}
		if ( $verdict['too_large'] ) {
			$outcome['too_large'] = true;
			return $outcome;
		}
		// Down, slow, misconfigured (a wrong key) or failing: nothing is the events' fault, try again later.
		$outcome['error'] = $verdict['error'];
		// A failure to record it is logged; the rows stay pending either way.
		$this->outbox->mark_failed( array_map( 'intval', wp_list_pluck( $rows, 'id' ) ), $outcome['error'] );
		set_transient( self::BACKOFF_KEY, 1, self::BACKOFF_TTL );
		return $outcome;
	}

	/**
	 * One outbox row as the sidecar's event JSON, or why it cannot be sent.
	 *
	 * @param object $row Outbox row.
	 * @return string|WP_Error
	 */
	private static function encode( $row ) {
		$event = Outbound_Rules::event( $row );
		if ( null === $event ) {
			return new WP_Error( 'invalid_payload', 'the stored payload needs a string timestamp and a data object' );
		}
		$encoded = wp_json_encode( $event );
		if ( false === $encoded ) {
			return new WP_Error( 'invalid_payload', 'the event cannot be JSON-encoded' );
		}
		return $encoded;
	}
}

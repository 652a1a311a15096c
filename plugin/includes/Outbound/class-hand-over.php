<?php
/**
 * Hands outbox events to the sidecar: at the end of the request, and from WP-Cron.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

use ServiceIntegration\Sidecar\Sidecar_Client;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Oldest first, in batches, with a short timeout; a row is marked handed over only
 * after the sidecar acknowledged it (stored durably). When the sidecar is down the
 * rows stay, and the every-minute cron event tries again, in order.
 */
final class Hand_Over {

	const CRON_HOOK   = 'service_integration_outbox_flush';
	const BATCH       = 100;
	const MAX_BATCHES = 10;
	const TIMEOUT     = 2.0;
	const BACKOFF_KEY = 'service_integration_hand_over_backoff';
	const BACKOFF_TTL = MINUTE_IN_SECONDS;

	/**
	 * Client, set at boot.
	 *
	 * @var Sidecar_Client|null
	 */
	private static ?Sidecar_Client $sidecar = null;

	/**
	 * Whether a flush is already queued for this request's shutdown.
	 *
	 * @var bool
	 */
	private static bool $scheduled = false;

	/**
	 * Registers the cron event and its schedule.
	 *
	 * @param Sidecar_Client $sidecar Client.
	 */
	public static function register( Sidecar_Client $sidecar ): void {
		self::$sidecar = $sidecar;
		add_filter( 'cron_schedules', array( self::class, 'add_schedule' ) ); // phpcs:ignore WordPress.WP.CronInterval.CronSchedulesInterval
		add_action( self::CRON_HOOK, array( self::class, 'flush' ) );
		add_action(
			'init',
			static function (): void {
				if ( ! wp_next_scheduled( self::CRON_HOOK ) ) {
					wp_schedule_event( time() + MINUTE_IN_SECONDS, 'service_integration_every_minute', self::CRON_HOOK );
				}
			}
		);
	}

	/**
	 * Adds a one-minute schedule.
	 *
	 * @param array $schedules Schedules.
	 * @return array
	 */
	public static function add_schedule( $schedules ) {
		$schedules['service_integration_every_minute'] = array(
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
	public static function schedule_at_shutdown(): void {
		if ( ! self::$scheduled && ! get_transient( self::BACKOFF_KEY ) ) {
			self::$scheduled = true;
			add_action( 'shutdown', array( self::class, 'flush' ) );
		}
	}

	/**
	 * Hands pending events over, oldest first.
	 *
	 * @return array{handed_over:int, error:?string}
	 */
	public static function flush(): array {
		$handed = 0;
		if ( ! self::$sidecar ) {
			return array( 'handed_over' => 0, 'error' => 'not booted' );
		}
		for ( $batch = 0; $batch < self::MAX_BATCHES; $batch++ ) {
			$rows = Outbox::pending( self::BATCH );
			if ( ! $rows ) {
				break;
			}
			$events = array_map(
				static function ( $row ): array {
					$payload = json_decode( $row->payload, true );
					return array(
						'id'           => $row->event_id,
						'type'         => $row->type,
						'timestamp'    => $payload['timestamp'],
						'data'         => $payload['data'],
						'ordering_key' => $row->ordering_key,
					);
				},
				$rows
			);
			$answer = self::$sidecar->request_json( 'POST', '/v1/events', array( 'events' => $events ), self::TIMEOUT );
			if ( is_wp_error( $answer ) || 202 !== $answer['status'] ) {
				$error = is_wp_error( $answer ) ? $answer->get_error_code() : 'HTTP ' . $answer['status'];
				Outbox::mark_failed( array_map( 'intval', wp_list_pluck( $rows, 'id' ) ), $error );
				set_transient( self::BACKOFF_KEY, 1, self::BACKOFF_TTL );
				return array( 'handed_over' => $handed, 'error' => $error );
			}
			$acknowledged = array_merge( (array) ( $answer['body']['accepted'] ?? array() ), (array) ( $answer['body']['duplicates'] ?? array() ) );
			Outbox::mark_handed_over( array_map( 'strval', $acknowledged ) );
			delete_transient( self::BACKOFF_KEY );
			$handed += count( $acknowledged );
			if ( count( $rows ) < self::BATCH ) {
				break;
			}
		}
		return array( 'handed_over' => $handed, 'error' => null );
	}
}

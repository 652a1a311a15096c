<?php
/**
 * WP-CLI: `wp service-integration outbox`.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Shows the outbox of order events waiting for the sidecar, and hands them over now.
 *
 * Through /service-integration/v1/webhooks/outbox.
 *
 * ## EXAMPLES
 *
 *     wp service-integration outbox status --user=admin
 *     wp service-integration outbox hand-over --user=admin
 */
final class Outbox_Command {

	/** The route. */
	const ROUTE = '/webhooks/outbox';

	/**
	 * Shows the outbox: pending, handed over and parked events, the oldest pending, the last errors.
	 *
	 * ## OPTIONS
	 *
	 * [--format=<format>]
	 * : How to print it.
	 * ---
	 * default: table
	 * options:
	 *   - table
	 *   - json
	 *   - yaml
	 * ---
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration outbox status --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function status( array $args, array $assoc ): void {
		Terminal::print_object( Rest_Runner::call( 'GET', self::ROUTE ), $assoc );
	}

	/**
	 * Hands pending events to the sidecar now, and says how many went.
	 *
	 * WP-Cron does it every minute. Exit code 1 when the sidecar could not take them or another
	 * hand-over is running.
	 *
	 * ## OPTIONS
	 *
	 * [--format=<format>]
	 * : How to print the outbox after it.
	 * ---
	 * default: table
	 * options:
	 *   - table
	 *   - json
	 *   - yaml
	 * ---
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration outbox hand-over --user=admin
	 *
	 * @subcommand hand-over
	 * @alias flush
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function hand_over( array $args, array $assoc ): void {
		list( $status, $answer ) = Rest_Runner::dispatch( 'POST', self::ROUTE );
		if ( 409 === $status ) {
			WP_CLI::error( __( 'Another hand-over is running (WP-Cron or a request): it is handing these events over already. Retry in a moment.', 'service-integration' ) );
		}
		if ( $status >= 400 && isset( $answer['code'] ) ) {
			Rest_Runner::fail( $answer, $status, '' );
		}
		if ( $status >= 400 ) {
			WP_CLI::error(
				sprintf(
					/* translators: 1: events handed over by this command, 2: the sidecar's error. */
					__( 'The sidecar did not take every pending event (handed over now: %1$d): %2$s. They stay in the outbox; WP-Cron tries again every minute (see: wp service-integration sidecar status).', 'service-integration' ),
					(int) ( $answer['handed_over_now'] ?? 0 ),
					(string) ( $answer['error'] ?? '' )
				)
			);
		}
		Terminal::print_outcome(
			sprintf(
				/* translators: 1: events this command handed over, 2: events it parked as refused, 3: events still pending. */
				__( 'Handed over now: %1$d, parked as refused now: %2$d, still pending: %3$d.', 'service-integration' ),
				(int) $answer['handed_over_now'],
				(int) $answer['rejected_now'],
				(int) $answer['pending']
			),
			$answer,
			$assoc
		);
	}
}

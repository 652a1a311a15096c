<?php
/**
 * WP-CLI: `wp service-integration delivery`.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Reads the outbound delivery log (the sidecar's, through /service-integration/v1/webhooks/deliveries).
 *
 * ## EXAMPLES
 *
 *     wp service-integration delivery list --status=failed --user=admin
 */
final class Delivery_Command {

	/** Default fields of `list`. */
	const FIELDS = array( 'id', 'event_id', 'event_type', 'endpoint_id', 'status', 'attempt_count', 'last_status_code', 'created_at' );

	/**
	 * Lists deliveries, newest first, with the admin page's filters.
	 *
	 * ## OPTIONS
	 *
	 * [--endpoint=<id>]
	 * : Only this endpoint's deliveries.
	 *
	 * [--type=<type>]
	 * : Only this event type (order.created, order.paid, order.refunded).
	 *
	 * [--status=<status>]
	 * : Only deliveries in this status (pending, in_flight, succeeded, failed, cancelled).
	 *
	 * [--page=<n>]
	 * : Page (default 1).
	 *
	 * [--per-page=<n>]
	 * : Deliveries a page (1 to 100).
	 *
	 * [--fields=<fields>]
	 * : Fields to print (id, event_id, event_type, endpoint_id, status, attempt_count, next_attempt_at, last_status_code, last_error, created_at, updated_at).
	 *
	 * [--format=<format>]
	 * : How to print them; `ids` prints the delivery ids, `count` the total.
	 * ---
	 * default: table
	 * options:
	 *   - table
	 *   - json
	 *   - csv
	 *   - yaml
	 *   - ids
	 *   - count
	 * ---
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration delivery list --user=admin
	 *     wp service-integration delivery list --endpoint=ep_123 --status=failed --format=json --user=admin
	 *
	 * @subcommand list
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function list_( array $args, array $assoc ): void {
		$filters = array(
			'endpoint' => 'endpoint_id',
			'type'     => 'type',
			'status'   => 'status',
		);
		$params  = Options::texts( $assoc, $filters ) + Options::paging( $assoc );
		// Only an unknown --endpoint is helped by listing the endpoints; a bad filter's error names it.
		$answer = Rest_Runner::call( 'GET', '/webhooks/deliveries', $params, Endpoint_Command::endpoints()->unknown_hint() );
		Terminal::print_page( $answer, 'deliveries', $assoc, self::FIELDS );
	}
}

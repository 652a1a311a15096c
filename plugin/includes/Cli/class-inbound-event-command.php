<?php
/**
 * WP-CLI: `wp service-integration inbound event`.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Reads the inbound events stored in WordPress, newest first.
 *
 * Through /service-integration/v1/inbound/events, without their payloads.
 *
 * ## EXAMPLES
 *
 *     wp service-integration inbound event list --status=failed --user=admin
 */
final class Inbound_Event_Command {

	/** Default fields of `list`. */
	const FIELDS = array( 'id', 'source', 'event_id', 'type', 'status', 'attempts', 'received_at', 'duplicate_count' );

	/**
	 * Lists stored events, newest first, with the admin page's filters.
	 *
	 * ## OPTIONS
	 *
	 * [--source=<id>]
	 * : Only this source's events.
	 *
	 * [--status=<status>]
	 * : Only events in this status.
	 * ---
	 * options:
	 *   - received
	 *   - processed
	 *   - failed
	 * ---
	 *
	 * [--event-id=<id>]
	 * : Only the event with this id (the provider's event id or delivery id).
	 *
	 * [--duplicate]
	 * : Only events delivered more than once.
	 *
	 * [--page=<n>]
	 * : Page (default 1).
	 *
	 * [--per-page=<n>]
	 * : Events a page (1 to 100, default 20).
	 *
	 * [--fields=<fields>]
	 * : Fields to print (id, source, event_id, delivery_id, type, status, attempts, last_error, received_at, processed_at, next_attempt_at, gave_up, duplicate_count, last_duplicate_at).
	 *
	 * [--format=<format>]
	 * : How to print them; `ids` prints the event ids in WordPress, `count` the total.
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
	 *     wp service-integration inbound event list --user=admin
	 *     wp service-integration inbound event list --source=stripe --status=failed --format=json --user=admin
	 *
	 * @subcommand list
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function list_( array $args, array $assoc ): void {
		$filters = array(
			'source'   => 'source',
			'status'   => 'status',
			'event-id' => 'event_id',
		);
		$params  = Options::texts( $assoc, $filters ) + Options::paging( $assoc );
		if ( ! empty( $assoc['duplicate'] ) ) {
			$params['duplicate'] = 'true';
		}
		Terminal::print_page( Rest_Runner::call( 'GET', '/inbound/events', $params ), 'events', $assoc, self::FIELDS );
	}
}

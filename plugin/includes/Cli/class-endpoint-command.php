<?php
/**
 * WP-CLI: `wp service-integration endpoint`.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Manages outbound webhook endpoints and replays their events.
 *
 * The sidecar keeps them; the commands go through the plugin's proxy routes
 * /service-integration/v1/webhooks/…. A signing secret is printed once, never in a list.
 *
 * ## EXAMPLES
 *
 *     wp service-integration endpoint add https://n8n.example.com/webhook/orders --event-types=order.paid --user=admin
 *     wp service-integration endpoint list --user=admin
 *     wp service-integration endpoint replay-range ep_123 --from=2026-01-01T00:00:00Z --to=2026-01-02T00:00:00Z --dry-run --user=admin
 */
final class Endpoint_Command {

	/** Default fields of `list`. */
	const FIELDS = array( 'id', 'url', 'status', 'event_types', 'description', 'disabled_reason' );

	/**
	 * Lists the endpoints (their secrets never).
	 *
	 * ## OPTIONS
	 *
	 * [--fields=<fields>]
	 * : Fields to print, comma-separated (id, url, status, event_types, description, disabled_reason, disabled_by, max_concurrency, wc_compat_signature, resend_failed_on_recovery, failing_since, created_at, updated_at, health).
	 *
	 * [--format=<format>]
	 * : How to print them; `ids` prints the ids.
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
	 *     wp service-integration endpoint list --user=admin
	 *     wp service-integration endpoint list --format=ids --user=admin
	 *
	 * @subcommand list
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function list_( array $args, array $assoc ): void {
		Terminal::print_items( self::endpoints()->items_without_secrets( 'endpoints' ), $assoc, self::FIELDS, 'id' );
	}

	/**
	 * Adds an endpoint and prints its signing secret, once.
	 *
	 * ## OPTIONS
	 *
	 * <url>
	 * : Where deliveries are POSTed (http or https, a public address). Positional: --url is WP-CLI's own global option.
	 *
	 * [--event-types=<types>]
	 * : Event types it receives, comma-separated (order.created, order.paid, order.refunded). Default: all.
	 *
	 * [--description=<text>]
	 * : A note for the site owner.
	 *
	 * [--max-concurrency=<n>]
	 * : Deliveries in flight to it at most (1 to 64, default 4).
	 *
	 * [--wc-compat-signature]
	 * : Also sign as WooCommerce's own webhooks do (X-WC-Webhook-Signature).
	 *
	 * [--[no-]resend-failed-on-recovery]
	 * : When it succeeds again after failing, send again what ran out of attempts during the failure, in order (default: yes).
	 *
	 * [--porcelain]
	 * : Print only the new endpoint's id (the secret is then not printed: rotate it to get one).
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration endpoint add https://n8n.example.com/webhook/orders --event-types=order.paid,order.refunded --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function add( array $args, array $assoc ): void {
		$created = self::endpoints()->add( array( 'url' => $args[0] ) + self::fields( $assoc ) );
		if ( ! empty( $assoc['porcelain'] ) ) {
			WP_CLI::line( (string) $created['id'] );
			return;
		}
		/* translators: 1: endpoint id, 2: its URL. */
		WP_CLI::success( sprintf( __( 'Endpoint %1$s added for %2$s.', 'service-integration' ), $created['id'], $created['url'] ) );
		self::print_secret( (string) $created['secret'] );
	}

	/**
	 * Changes an endpoint.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The endpoint's id (see `endpoint list`).
	 *
	 * [--endpoint-url=<url>]
	 * : Where deliveries are POSTed (not --url: that is WP-CLI's own global option).
	 *
	 * [--event-types=<types>]
	 * : Event types it receives, comma-separated; an empty value means all.
	 *
	 * [--description=<text>]
	 * : A note for the site owner.
	 *
	 * [--max-concurrency=<n>]
	 * : Deliveries in flight to it at most (1 to 64).
	 *
	 * [--[no-]wc-compat-signature]
	 * : Also sign as WooCommerce's own webhooks do.
	 *
	 * [--[no-]resend-failed-on-recovery]
	 * : When it succeeds again after failing, send again what ran out of attempts during the failure, in order.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration endpoint update ep_123 --event-types=order.paid --user=admin
	 *     wp service-integration endpoint update ep_123 --no-resend-failed-on-recovery --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function update( array $args, array $assoc ): void {
		$fields = self::fields( $assoc );
		if ( ! $fields ) {
			WP_CLI::error( __( 'Nothing to change: give at least one of --endpoint-url, --event-types, --description, --max-concurrency, --[no-]wc-compat-signature, --[no-]resend-failed-on-recovery.', 'service-integration' ) );
		}
		self::endpoints()->call( 'PATCH', $args[0], '', $fields );
		/* translators: %s: endpoint id. */
		WP_CLI::success( sprintf( __( 'Endpoint %s updated.', 'service-integration' ), $args[0] ) );
	}

	/**
	 * Gives an endpoint a new signing secret, printed once; the old one keeps signing during the grace period.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The endpoint's id.
	 *
	 * [--grace-hours=<hours>]
	 * : How long the old secret keeps signing too (default 24).
	 *
	 * [--porcelain]
	 * : Print only the new secret.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration endpoint rotate-secret ep_123 --grace-hours=1 --user=admin
	 *
	 * @subcommand rotate-secret
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function rotate_secret( array $args, array $assoc ): void {
		$grace   = Options::number( $assoc, 'grace-hours' );
		$params  = null === $grace ? array() : array( 'grace_hours' => $grace );
		$rotated = self::endpoints()->call( 'POST', $args[0], '/rotate-secret', $params );
		if ( ! empty( $assoc['porcelain'] ) ) {
			WP_CLI::line( (string) $rotated['secret'] );
			return;
		}
		/* translators: %s: endpoint id. */
		WP_CLI::success( sprintf( __( 'Endpoint %s has a new signing secret.', 'service-integration' ), $args[0] ) );
		self::print_secret( (string) $rotated['secret'] );
	}

	/**
	 * Enables an endpoint; what it missed goes out again by default after an automatic disable.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The endpoint's id.
	 *
	 * [--[no-]redeliver]
	 * : Queue again what it missed (default: yes after an automatic disable, no after the owner's).
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration endpoint enable ep_123 --redeliver --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function enable( array $args, array $assoc ): void {
		$params = isset( $assoc['redeliver'] ) ? array( 'redeliver' => (bool) $assoc['redeliver'] ) : array();
		$answer = self::endpoints()->call( 'POST', $args[0], '/enable', $params );
		WP_CLI::success(
			sprintf(
				/* translators: 1: endpoint id, 2: deliveries queued again, 3: deliveries left out. */
				__( 'Endpoint %1$s enabled (queued again: %2$d, left out: %3$d).', 'service-integration' ),
				$args[0],
				(int) ( $answer['requeued'] ?? 0 ),
				(int) ( $answer['skipped'] ?? 0 )
			)
		);
	}

	/**
	 * Disables an endpoint: its queued deliveries are cancelled.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The endpoint's id.
	 *
	 * [--reason=<reason>]
	 * : Why, shown with the endpoint.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration endpoint disable ep_123 --reason="receiver down for maintenance" --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function disable( array $args, array $assoc ): void {
		self::endpoints()->call( 'POST', $args[0], '/disable', Options::texts( $assoc, array( 'reason' => 'reason' ) ) );
		/* translators: %s: endpoint id. */
		WP_CLI::success( sprintf( __( 'Endpoint %s disabled.', 'service-integration' ), $args[0] ) );
	}

	/**
	 * Deletes an endpoint with its delivery history.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The endpoint's id.
	 *
	 * [--yes]
	 * : Do not ask for confirmation.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration endpoint delete ep_123 --yes --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function delete( array $args, array $assoc ): void {
		/* translators: %s: endpoint id. */
		Terminal::confirm( sprintf( __( 'Delete endpoint %s and its delivery history?', 'service-integration' ), $args[0] ), $assoc );
		self::endpoints()->call( 'DELETE', $args[0] );
		/* translators: %s: endpoint id. */
		WP_CLI::success( sprintf( __( 'Endpoint %s deleted.', 'service-integration' ), $args[0] ) );
	}

	/**
	 * Sends one event again (same webhook-id), to every endpoint it went to or to one.
	 *
	 * ## OPTIONS
	 *
	 * <event-id>
	 * : The event's id (see `delivery list`).
	 *
	 * [--endpoint=<id>]
	 * : Only to this endpoint.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration endpoint replay order.paid:123:1 --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function replay( array $args, array $assoc ): void {
		$answer = Rest_Runner::call(
			'POST',
			'/webhooks/events/' . rawurlencode( $args[0] ) . '/replay',
			Options::texts( $assoc, array( 'endpoint' => 'endpoint_id' ) ),
			self::endpoints()->unknown_hint() + array( 'event_not_found' => __( 'Find event ids with: wp service-integration delivery list', 'service-integration' ) )
		);
		/* translators: 1: event id, 2: deliveries queued again. */
		WP_CLI::success( sprintf( __( 'Event %1$s queued again (deliveries: %2$d).', 'service-integration' ), $args[0], (int) ( $answer['requeued'] ?? 0 ) ) );
	}

	/**
	 * Replays to one endpoint the events the sidecar received in a time range; --dry-run only counts.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The endpoint's id.
	 *
	 * --from=<time>
	 * : Start of the range (inclusive), ISO 8601 with a time zone.
	 *
	 * --to=<time>
	 * : End of the range (exclusive), ISO 8601 with a time zone.
	 *
	 * [--types=<types>]
	 * : Event types, comma-separated. Default: those the endpoint subscribes to.
	 *
	 * [--limit=<n>]
	 * : At most this many events (1 to 10000, default 1000).
	 *
	 * [--dry-run]
	 * : Only count what would be replayed.
	 *
	 * [--format=<format>]
	 * : How to print the result.
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
	 *     wp service-integration endpoint replay-range ep_123 --from=2026-01-01T00:00:00Z --to=2026-01-02T00:00:00Z --dry-run --user=admin
	 *
	 * @subcommand replay-range
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function replay_range( array $args, array $assoc ): void {
		$params = array(
			'from'    => (string) $assoc['from'],
			'to'      => (string) $assoc['to'],
			'dry_run' => ! empty( $assoc['dry-run'] ),
		);
		if ( isset( $assoc['types'] ) ) {
			$params['types'] = Options::list_of( (string) $assoc['types'] );
		}
		$limit = Options::whole_number( $assoc, 'limit' );
		if ( null !== $limit ) {
			$params['limit'] = $limit;
		}
		$range_hint = __( '--from and --to take ISO 8601 with a time zone, for example 2026-01-01T00:00:00Z or 2026-01-01T01:00:00+01:00.', 'service-integration' );
		$answer     = self::endpoints()->call(
			'POST',
			$args[0],
			'/replay',
			$params,
			array(
				'param:from' => $range_hint,
				'param:to'   => $range_hint,
			)
		);
		if ( 'table' !== Terminal::format( $assoc ) ) {
			Terminal::print_object( $answer, $assoc );
			return;
		}
		Terminal::print_items( array( $answer ), $assoc, array( 'matched', 'queued', 'already_queued', 'more', 'next_from', 'types', 'dry_run' ), 'matched' );
	}

	/**
	 * Sends a test event (type service_integration.test) to one endpoint, signed like any event; its delivery shows in `delivery list`.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The endpoint's id (it must be enabled).
	 *
	 * [--porcelain]
	 * : Print only the test event's id.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration endpoint test ep_123 --user=admin
	 *     wp service-integration delivery list --endpoint=ep_123 --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function test( array $args, array $assoc ): void {
		$answer   = self::endpoints()->call( 'POST', $args[0], '/test' );
		$event_id = (string) ( $answer['event_id'] ?? '' );
		if ( ! empty( $assoc['porcelain'] ) ) {
			WP_CLI::line( $event_id );
			return;
		}
		WP_CLI::success(
			sprintf(
				/* translators: 1: event id, 2: endpoint id. */
				__( 'Test event %1$s queued for endpoint %2$s. Follow its delivery with: wp service-integration delivery list --endpoint=%2$s', 'service-integration' ),
				$event_id,
				$args[0]
			)
		);
	}

	/**
	 * The endpoints' routes; an unknown id (the sidecar's endpoint_not_found) gets how to list them.
	 */
	public static function endpoints(): Collection_Route {
		return new Collection_Route(
			'/webhooks/endpoints',
			'endpoint_not_found',
			__( 'List the endpoints with: wp service-integration endpoint list', 'service-integration' )
		);
	}

	/**
	 * The endpoint fields given as options, as the route takes them.
	 *
	 * @param array<string, mixed> $assoc Options.
	 * @return array<string, mixed>
	 */
	private static function fields( array $assoc ): array {
		$fields = Options::texts(
			$assoc,
			array(
				'endpoint-url' => 'url',
				'description'  => 'description',
			)
		);
		if ( isset( $assoc['event-types'] ) ) {
			$fields['event_types'] = Options::list_of( (string) $assoc['event-types'] );
		}
		$max_concurrency = Options::whole_number( $assoc, 'max-concurrency' );
		if ( null !== $max_concurrency ) {
			$fields['max_concurrency'] = $max_concurrency;
		}
		if ( isset( $assoc['wc-compat-signature'] ) ) {
			$fields['wc_compat_signature'] = (bool) $assoc['wc-compat-signature'];
		}
		if ( isset( $assoc['resend-failed-on-recovery'] ) ) {
			$fields['resend_failed_on_recovery'] = (bool) $assoc['resend-failed-on-recovery'];
		}
		return $fields;
	}

	/**
	 * Prints a signing secret, saying it is shown once.
	 *
	 * @param string $secret The secret.
	 */
	private static function print_secret( string $secret ): void {
		/* translators: %s: the signing secret. */
		WP_CLI::line( sprintf( __( 'Signing secret (shown only now, copy it): %s', 'service-integration' ), $secret ) );
	}
}

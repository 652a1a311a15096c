<?php
/**
 * WP-CLI: `wp service-integration inbound source`.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Manages inbound webhook sources: the providers whose signed webhooks the site accepts.
 *
 * The sidecar keeps them with their secrets; the commands go through the plugin's proxy routes
 * /service-integration/v1/inbound/sources/…. A generated secret is printed once, never in a list.
 *
 * ## EXAMPLES
 *
 *     wp service-integration inbound source add stripe --scheme=stripe --secret=whsec_... --user=admin
 *     wp service-integration inbound source list --user=admin
 *     wp service-integration inbound source rotate-secret partner --grace-hours=1 --user=admin
 */
final class Inbound_Source_Command {

	/** Default fields of `list`. */
	const FIELDS = array( 'id', 'scheme', 'status', 'description', 'receiving_url', 'created_at' );

	/**
	 * Lists the sources (their secrets never, not even masked).
	 *
	 * ## OPTIONS
	 *
	 * [--fields=<fields>]
	 * : Fields to print, comma-separated (id, scheme, status, description, receiving_url, tolerance_seconds, tolerance_is_default, created_at, updated_at).
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
	 *     wp service-integration inbound source list --user=admin
	 *     wp service-integration inbound source list --format=ids --user=admin
	 *
	 * @subcommand list
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function list_( array $args, array $assoc ): void {
		Terminal::print_items( self::sources()->items_without_secrets( 'sources' ), $assoc, self::FIELDS, 'id' );
	}

	/**
	 * Adds a source and prints its receiving URL, and its secret once when one was generated.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The source's slug (a-z, 0-9 and -, up to 64): the last segment of its receiving URL.
	 *
	 * --scheme=<scheme>
	 * : How the provider signs.
	 * ---
	 * options:
	 *   - standard-webhooks
	 *   - stripe
	 *   - github
	 *   - shopify
	 *   - woocommerce
	 * ---
	 *
	 * [--secret=<secret>]
	 * : The provider's secret (Stripe, GitHub, Shopify and WooCommerce issue their own). Default: one is generated and printed once.
	 *
	 * [--description=<text>]
	 * : A note for the site owner.
	 *
	 * [--tolerance-seconds=<seconds>]
	 * : How old a signed timestamp may be (0 to 86400). Default: the sidecar's.
	 *
	 * [--disabled]
	 * : Add it disabled (deliveries refused until it is enabled).
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration inbound source add partner --scheme=standard-webhooks --user=admin
	 *     wp service-integration inbound source add stripe --scheme=stripe --secret=whsec_... --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function add( array $args, array $assoc ): void {
		$params    = array(
			'id'     => $args[0],
			'scheme' => (string) $assoc['scheme'],
		) + Options::texts(
			$assoc,
			array(
				'secret'      => 'secret',
				'description' => 'description',
			)
		);
		$tolerance = Options::whole_number( $assoc, 'tolerance-seconds' );
		if ( null !== $tolerance ) {
			$params['tolerance_seconds'] = $tolerance;
		}
		if ( ! empty( $assoc['disabled'] ) ) {
			$params['status'] = 'disabled';
		}
		$created = self::sources()->add( $params );
		/* translators: 1: source id, 2: its receiving URL. */
		WP_CLI::success( sprintf( __( 'Inbound source %1$s added. Its receiving URL: %2$s', 'service-integration' ), $created['id'], $created['receiving_url'] ?? '' ) );
		if ( isset( $created['secret'] ) ) {
			self::print_secret( (string) $created['secret'] );
		}
	}

	/**
	 * Gives a source a new secret; the previous one is still accepted during the grace period.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The source's id (see `inbound source list`).
	 *
	 * [--secret=<secret>]
	 * : The new secret, when the provider issues it. Default: one is generated and printed once.
	 *
	 * [--grace-hours=<hours>]
	 * : How long the previous secret is still accepted (default 24).
	 *
	 * [--porcelain]
	 * : Print only the new secret when one was generated.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration inbound source rotate-secret partner --user=admin
	 *     wp service-integration inbound source rotate-secret shopify --secret=... --grace-hours=1 --user=admin
	 *
	 * @subcommand rotate-secret
	 * @alias rotate
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function rotate_secret( array $args, array $assoc ): void {
		$params = Options::texts( $assoc, array( 'secret' => 'secret' ) );
		$grace  = Options::number( $assoc, 'grace-hours' );
		if ( null !== $grace ) {
			$params['grace_hours'] = $grace;
		}
		$rotated = self::sources()->call( 'POST', $args[0], '/rotate-secret', $params );
		if ( ! empty( $assoc['porcelain'] ) ) {
			if ( isset( $rotated['secret'] ) ) {
				WP_CLI::line( (string) $rotated['secret'] );
			}
			return;
		}
		/* translators: %s: source id. */
		WP_CLI::success( sprintf( __( 'Inbound source %s has a new secret.', 'service-integration' ), $args[0] ) );
		if ( isset( $rotated['secret'] ) ) {
			self::print_secret( (string) $rotated['secret'] );
		}
	}

	/**
	 * Enables a source: its deliveries are verified again.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The source's id.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration inbound source enable partner --user=admin
	 *
	 * @param string[] $args Positional arguments.
	 */
	public function enable( array $args ): void {
		self::sources()->call( 'PATCH', $args[0], '', array( 'status' => 'active' ) );
		/* translators: %s: source id. */
		WP_CLI::success( sprintf( __( 'Inbound source %s enabled.', 'service-integration' ), $args[0] ) );
	}

	/**
	 * Disables a source: its deliveries are refused (the provider retries them) until it is enabled.
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The source's id.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration inbound source disable partner --user=admin
	 *
	 * @param string[] $args Positional arguments.
	 */
	public function disable( array $args ): void {
		self::sources()->call( 'PATCH', $args[0], '', array( 'status' => 'disabled' ) );
		/* translators: %s: source id. */
		WP_CLI::success( sprintf( __( 'Inbound source %s disabled.', 'service-integration' ), $args[0] ) );
	}

	/**
	 * Deletes a source with its secrets (the events stored in WordPress stay).
	 *
	 * ## OPTIONS
	 *
	 * <id>
	 * : The source's id.
	 *
	 * [--yes]
	 * : Do not ask for confirmation.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration inbound source delete partner --yes --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function delete( array $args, array $assoc ): void {
		/* translators: %s: source id. */
		Terminal::confirm( sprintf( __( 'Delete inbound source %s and its secrets?', 'service-integration' ), $args[0] ), $assoc );
		self::sources()->call( 'DELETE', $args[0] );
		/* translators: %s: source id. */
		WP_CLI::success( sprintf( __( 'Inbound source %s deleted.', 'service-integration' ), $args[0] ) );
	}

	/**
	 * The sources' routes; an unknown id (the sidecar's source_not_found) gets how to list them.
	 */
	private static function sources(): Collection_Route {
		return new Collection_Route(
			'/inbound/sources',
			'source_not_found',
			__( 'List the sources with: wp service-integration inbound source list', 'service-integration' )
		);
	}

	/**
	 * Prints a secret, saying it is shown once.
	 *
	 * @param string $secret The secret.
	 */
	private static function print_secret( string $secret ): void {
		/* translators: %s: the secret. */
		WP_CLI::line( sprintf( __( 'Secret (shown only now, copy it): %s', 'service-integration' ), $secret ) );
	}
}

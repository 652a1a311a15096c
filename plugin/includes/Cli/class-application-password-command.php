<?php
/**
 * WP-CLI: `wp service-integration service-account password`.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Manages the service account's application passwords.
 *
 * A new password is printed once; the list never shows secrets.
 *
 * ## EXAMPLES
 *
 *     wp service-integration service-account password create --name=n8n --user=admin
 *     wp service-integration service-account password list --user=admin
 *     wp service-integration service-account password revoke 0a1b2c3d-… --yes --user=admin
 */
final class Application_Password_Command {

	/** Default fields of `list`. */
	const FIELDS = array( 'uuid', 'name', 'created', 'last_used', 'last_ip' );

	/**
	 * Creates an application password for the service account and prints it, once.
	 *
	 * Copy it then: WordPress keeps only its hash. The same as
	 * POST /service-integration/v1/service-account/application-passwords.
	 *
	 * ## OPTIONS
	 *
	 * --name=<name>
	 * : What the password is for (shown in the list), 1 to 100 characters.
	 *
	 * [--porcelain]
	 * : Print only the password.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration service-account password create --name=n8n --user=admin
	 *     PASSWORD=$(wp service-integration service-account password create --name=ci --porcelain --user=admin)
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function create( array $args, array $assoc ): void {
		$created = self::passwords()->add(
			array( 'name' => (string) $assoc['name'] ),
			array( 'service_account_missing' => __( 'Create the account first: wp service-integration service-account create', 'service-integration' ) )
		);
		if ( ! empty( $assoc['porcelain'] ) ) {
			WP_CLI::line( (string) $created['password'] );
			return;
		}
		WP_CLI::success(
			sprintf(
				/* translators: 1: the password's name, 2: login of the service account. */
				__( 'Application password "%1$s" created for %2$s. It is shown only now: copy it.', 'service-integration' ),
				$created['name'],
				$created['username']
			)
		);
		/* translators: %s: the application password. */
		WP_CLI::line( sprintf( __( 'Password: %s', 'service-integration' ), $created['password'] ) );
		WP_CLI::line( 'Authorization: ' . $created['authorization'] );
		WP_CLI::line( 'UUID: ' . $created['uuid'] );
	}

	/**
	 * Lists the service account's application passwords (never their secrets).
	 *
	 * ## OPTIONS
	 *
	 * [--fields=<fields>]
	 * : Fields to print, comma-separated (uuid, name, created, last_used, last_ip).
	 *
	 * [--format=<format>]
	 * : How to print them; `ids` prints the UUIDs.
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
	 *     wp service-integration service-account password list --user=admin
	 *     wp service-integration service-account password list --format=ids --user=admin
	 *
	 * @subcommand list
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function list_( array $args, array $assoc ): void {
		$state = Rest_Runner::call( 'GET', '/service-account' );
		Terminal::print_items( $state['application_passwords'], $assoc, self::FIELDS, 'uuid' );
	}

	/**
	 * Revokes an application password: whatever signs in with it is refused from now on.
	 *
	 * ## OPTIONS
	 *
	 * <uuid>
	 * : The password's UUID (see `password list`).
	 *
	 * [--yes]
	 * : Do not ask for confirmation.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration service-account password revoke 6f1c0e0a-1b2c-4d5e-8f90-123456789abc --yes --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function revoke( array $args, array $assoc ): void {
		$uuid = strtolower( $args[0] );
		if ( ! wp_is_uuid( $uuid ) ) {
			/* translators: 1: what was given, 2: how to list the passwords. */
			WP_CLI::error( sprintf( __( '"%1$s" is not an application password UUID. %2$s', 'service-integration' ), $args[0], self::list_hint() ) );
		}
		/* translators: %s: the password's UUID. */
		Terminal::confirm( sprintf( __( 'Revoke the application password %s?', 'service-integration' ), $uuid ), $assoc );
		self::passwords()->call( 'DELETE', $uuid );
		/* translators: %s: the password's UUID. */
		WP_CLI::success( sprintf( __( 'Application password %s revoked.', 'service-integration' ), $uuid ) );
	}

	/**
	 * The service account's application passwords.
	 */
	private static function passwords(): Collection_Route {
		return new Collection_Route( '/service-account/application-passwords', 'application_password_not_found', self::list_hint() );
	}

	/**
	 * How to list the passwords' UUIDs.
	 */
	private static function list_hint(): string {
		return __( 'List them with: wp service-integration service-account password list', 'service-integration' );
	}
}

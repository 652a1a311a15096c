<?php
/**
 * WP-CLI: `wp service-integration service-account`.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Manages the service account: its state, its creation and the least-privilege check.
 *
 * Its application passwords: `wp service-integration service-account password`.
 *
 * ## EXAMPLES
 *
 *     wp service-integration service-account create --user=admin
 *     wp service-integration service-account check --user=admin
 */
final class Service_Account_Command {

	/** The route every subcommand calls. */
	const ROUTE = '/service-account';

	/**
	 * Shows the service account: its login, role, application passwords and any widening.
	 *
	 * The same answer as GET /service-integration/v1/service-account.
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
	 *     wp service-integration service-account status --user=admin
	 *     wp service-integration service-account status --format=json --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function status( array $args, array $assoc ): void {
		$state = Rest_Runner::call( 'GET', self::ROUTE );
		if ( null !== Rest_Runner::https_url_missing() ) {
			WP_CLI::warning( Rest_Runner::https_hint() );
		}
		if ( 'table' !== Terminal::format( $assoc ) ) {
			Terminal::print_object( $state, $assoc );
			return;
		}
		$account = is_array( $state['account'] ) ? $state['account'] : null;
		$rows    = array(
			array(
				'field' => 'account',
				'value' => $account ? $account['username'] . ' (#' . $account['id'] . ')' : __( 'none', 'service-integration' ),
			),
			array(
				'field' => 'roles',
				'value' => $account ? implode( ',', $account['roles'] ) : '',
			),
			array(
				'field' => 'role_exists',
				'value' => Terminal::cell( $state['role_exists'] ),
			),
			array(
				'field' => 'application_passwords',
				'value' => count( $state['application_passwords'] ),
			),
			array(
				'field' => 'application_passwords_available',
				'value' => Terminal::cell( $state['application_passwords_available'] ),
			),
			array(
				'field' => 'widening_detected',
				'value' => $state['widening_detected'] ? implode( ',', $state['widening_detected'] ) : __( 'none', 'service-integration' ),
			),
		);
		WP_CLI\Utils\format_items( 'table', $rows, array( 'field', 'value' ) );
	}

	/**
	 * Creates the service account (idempotent): one per site, its login chosen once.
	 *
	 * The same as POST /service-integration/v1/service-account.
	 *
	 * ## OPTIONS
	 *
	 * [--username=<login>]
	 * : The account's login (3 to 60 of a-z 0-9 . _ -). Default: service-integration.
	 *
	 * [--email=<email>]
	 * : The account's email address. Default: <login>@<the site's host>.
	 *
	 * [--porcelain]
	 * : Print only the account's login.
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration service-account create --user=admin
	 *     wp service-integration service-account create --username=n8n-bot --porcelain --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function create( array $args, array $assoc ): void {
		$params = array_intersect_key( $assoc, array_flip( array( 'username', 'email' ) ) );
		$answer = Rest_Runner::call(
			'POST',
			self::ROUTE,
			$params,
			array( 'service_account_exists' => __( 'See the account with: wp service-integration service-account status', 'service-integration' ) )
		);
		if ( ! empty( $assoc['porcelain'] ) ) {
			WP_CLI::line( (string) $answer['username'] );
			return;
		}
		if ( $answer['created'] ) {
			/* translators: 1: login of the service account, 2: its user ID. */
			$message = __( 'Service account "%1$s" created (user ID %2$d).', 'service-integration' );
		} else {
			/* translators: 1: login of the service account, 2: its user ID. */
			$message = __( 'Service account "%1$s" already exists (user ID %2$d).', 'service-integration' );
		}
		WP_CLI::success( sprintf( $message, $answer['username'], $answer['id'] ) );
	}

	/**
	 * Runs the least-privilege check on the live site; exit code 1 when it fails.
	 *
	 * A temporary account with the role calls routes it must be refused (users, plugins,
	 * settings…) and two it must be allowed, then is deleted. The same as
	 * POST /service-integration/v1/service-account/check.
	 *
	 * ## OPTIONS
	 *
	 * [--format=<format>]
	 * : How to print the calls. `json` prints the whole report.
	 * ---
	 * default: table
	 * options:
	 *   - table
	 *   - json
	 *   - csv
	 *   - yaml
	 * ---
	 *
	 * ## EXAMPLES
	 *
	 *     wp service-integration service-account check --user=admin
	 *     wp service-integration service-account check --format=json --user=admin
	 *
	 * @param string[]             $args  Positional arguments.
	 * @param array<string, mixed> $assoc Options.
	 */
	public function check( array $args, array $assoc ): void {
		// The temporary account could not sign in: every result would say nothing.
		if ( null !== Rest_Runner::https_url_missing() ) {
			WP_CLI::error( Rest_Runner::https_hint() );
		}
		$report = Rest_Runner::call( 'POST', self::ROUTE . '/check' );
		$format = Terminal::format( $assoc );
		if ( 'json' === $format ) {
			WP_CLI::line( (string) wp_json_encode( $report, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES ) );
			WP_CLI::halt( $report['passed'] ? 0 : 1 );
		}
		$results = $report['results'];
		Terminal::print_items( $results, $assoc, array( 'passed', 'method', 'route', 'expected', 'status', 'code' ), 'route' );
		$failed = count( array_filter( $results, static fn( array $result ): bool => ! $result['passed'] ) );
		if ( isset( $report['error'] ) ) {
			WP_CLI::warning( (string) $report['error'] );
		}
		if ( ! $report['authenticated'] ) {
			WP_CLI::warning( __( 'The temporary account\'s application password did not sign in: application passwords need HTTPS, or a local environment.', 'service-integration' ) );
		}
		if ( $report['widening_detected'] ) {
			WP_CLI::warning(
				sprintf(
					/* translators: %s: the widened capabilities and roles, comma-separated. */
					__( 'Widening detected: %s. Remove what another plugin added to the role, then forget it on the admin page.', 'service-integration' ),
					implode( ', ', $report['widening_detected'] )
				)
			);
		}
		$summary = sprintf(
			/* translators: 1: calls that behaved as expected, 2: every call made. */
			__( '%1$d of %2$d calls behaved as expected.', 'service-integration' ),
			count( $results ) - $failed,
			count( $results )
		);
		if ( ! $report['authenticated'] ) {
			// Calls that behaved do not make a pass: the account the automation uses cannot sign in.
			$summary = __( 'the temporary account\'s application password did not sign in.', 'service-integration' );
		}
		if ( ! $report['passed'] ) {
			WP_CLI::error( __( 'Least-privilege check FAILED:', 'service-integration' ) . ' ' . $summary );
		}
		// A machine format's stdout holds only the data (as WP-CLI's own commands keep it).
		if ( 'table' === $format ) {
			WP_CLI::success( __( 'Least-privilege check passed:', 'service-integration' ) . ' ' . $summary );
		}
	}
}

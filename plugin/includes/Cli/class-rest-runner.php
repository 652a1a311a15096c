<?php
/**
 * WP-CLI: runs the plugin's own REST routes in-process, as the user WP-CLI signed in with --user.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use ServiceIntegration\Rest\Route_Dispatcher;
use WP_CLI;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The commands have no logic of their own: each one dispatches the route the admin page calls
 * (Rest\Route_Dispatcher, the abilities' dispatcher too, so the same permission checks, argument
 * checks and answers apply), and Terminal prints what it answers. An error answer ends the
 * command with exit code 1, its message, and what to do about it.
 */
final class Rest_Runner {

	/**
	 * Calls one of the plugin's routes and answers its data; exits 1 on an error answer.
	 *
	 * @param string                $method HTTP method.
	 * @param string                $route  Route under the plugin's namespace, e.g. /service-account.
	 * @param array<string, mixed>  $params Query (GET) or body parameters.
	 * @param array<string, string> $hints  What to do about an error, appended to its message,
	 *                                      by its code, or `param:<name>` for a parameter WordPress
	 *                                      refused (rest_invalid_param): a hint fits one error (an
	 *                                      unknown id is not a bad filter), so none is given to the
	 *                                      others.
	 * @return array<int|string, mixed>
	 */
	public static function call( string $method, string $route, array $params = array(), array $hints = array() ): array {
		list( $status, $data ) = self::dispatch( $method, $route, $params );
		if ( $status >= 400 ) {
			$keys = array( (string) ( $data['code'] ?? '' ) );
			foreach ( array_keys( self::refused_params( $data ) ) as $param ) {
				$keys[] = 'param:' . $param;
			}
			$hint = '';
			foreach ( $keys as $key ) {
				if ( isset( $hints[ $key ] ) ) {
					$hint = $hints[ $key ];
					break;
				}
			}
			self::fail( $data, $status, $hint );
		}
		return $data;
	}

	/**
	 * The parameters WordPress refused, with why (rest_invalid_param's data.params).
	 *
	 * @param array<string, mixed> $error The error answer.
	 * @return array<string, string>
	 */
	private static function refused_params( array $error ): array {
		$params = $error['data']['params'] ?? array();
		return is_array( $params ) ? array_map( 'strval', array_filter( $params, 'is_scalar' ) ) : array();
	}

	/**
	 * Calls one of the plugin's routes and answers its status and data, errors included, for a
	 * command that says more about an error answer than its message (the outbox's hand-over).
	 *
	 * @param string               $method HTTP method.
	 * @param string               $route  Route under the plugin's namespace.
	 * @param array<string, mixed> $params Query (GET) or body parameters.
	 * @return array{0: int, 1: array<int|string, mixed>}
	 */
	public static function dispatch( string $method, string $route, array $params = array() ): array {
		self::require_user();
		$response = Route_Dispatcher::dispatch( $method, '/' . REST_NAMESPACE . $route, $params );
		$data     = rest_get_server()->response_to_data( $response, false );
		return array( $response->get_status(), is_array( $data ) ? $data : array() );
	}

	/**
	 * Stops with a clear message when WP-CLI runs as nobody (no --user).
	 */
	private static function require_user(): void {
		if ( 0 === get_current_user_id() ) {
			WP_CLI::error( __( 'These commands act as an administrator: add --user=<login> with an administrator\'s login (for example --user=admin).', 'service-integration' ) );
		}
	}

	/**
	 * Ends the command with the route's error.
	 *
	 * @param array<string, mixed> $error  The error answer (code, message, data).
	 * @param int                  $status HTTP status.
	 * @param string               $hint   What to do about it.
	 */
	public static function fail( array $error, int $status, string $hint ): void {
		$code    = (string) ( $error['code'] ?? 'error' );
		$message = (string) ( $error['message'] ?? '' );
		// "Invalid parameter(s): from" says which, not why: WordPress keeps why in data.params.
		foreach ( self::refused_params( $error ) as $param => $why ) {
			$message .= ' — ' . $param . ': ' . $why;
		}
		if ( 'rest_forbidden' === $code ) {
			$hint = __( 'Run the command as an administrator: --user=<login>.', 'service-integration' );
		}
		if ( 'application_passwords_disabled' === $code && null !== self::https_url_missing() ) {
			$hint = self::https_hint();
		}
		// The sidecar's start command that fits this site (Sidecar_Messages), rather than the command's own hint.
		if ( 'sidecar_unreachable' === $code && isset( $error['data']['hint'] ) && is_string( $error['data']['hint'] ) ) {
			$hint = $error['data']['hint'];
		}
		WP_CLI::error(
			trim(
				sprintf(
					/* translators: 1: the error message, 2: its code, 3: the HTTP status, 4: what to do about it. */
					__( '%1$s (%2$s, HTTP %3$d) %4$s', 'service-integration' ),
					$message,
					$code,
					$status,
					$hint
				)
			)
		);
	}

	/**
	 * The site's HTTPS address when WP-CLI runs without it: WP-CLI is not a web request, so
	 * is_ssl() is false unless --url=https://… says otherwise, and WordPress then turns
	 * application passwords off on a site that is not a local environment. Null when WP-CLI's
	 * request already is HTTPS, application passwords are available anyway, or the site is not
	 * served over HTTPS.
	 */
	public static function https_url_missing(): ?string {
		if ( is_ssl() || wp_is_application_passwords_available() ) {
			return null;
		}
		$home = home_url( '/' );
		return 'https' === wp_parse_url( $home, PHP_URL_SCHEME ) ? $home : null;
	}

	/**
	 * What to add when https_url_missing() finds the site's HTTPS address.
	 */
	public static function https_hint(): string {
		return sprintf(
			/* translators: %s: the site's address, e.g. https://shop.example.com/ */
			__( 'This site is served over HTTPS, but WP-CLI ran without its address, as plain HTTP, where WordPress turns application passwords off. Add --url=%s to the command.', 'service-integration' ),
			(string) self::https_url_missing()
		);
	}
}

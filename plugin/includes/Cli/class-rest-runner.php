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
 * checks and answers apply) and prints what it answers. An error answer ends the command with
 * exit code 1 and its message.
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
	 * Asks before a destructive action; without a terminal to ask on, --yes is required.
	 *
	 * @param string               $question The question.
	 * @param array<string, mixed> $assoc    The command's options (--yes answers it).
	 */
	public static function confirm( string $question, array $assoc ): void {
		if ( empty( $assoc['yes'] ) && ! stream_isatty( STDIN ) ) {
			WP_CLI::error( __( 'This cannot be undone: add --yes to confirm (no terminal to ask on).', 'service-integration' ) );
		}
		WP_CLI::confirm( $question, $assoc );
	}

	/**
	 * Prints a list through WP-CLI's formatter (--format, --fields); `ids` prints the given key.
	 *
	 * @param array<int, array<string, mixed>> $items    Rows.
	 * @param array<string, mixed>             $assoc    The command's options.
	 * @param string[]                         $defaults Default fields.
	 * @param string                           $id_key   The key `--format=ids` prints.
	 */
	public static function print_items( array $items, array $assoc, array $defaults, string $id_key ): void {
		$format = (string) ( $assoc['format'] ?? 'table' );
		if ( 'ids' === $format ) {
			WP_CLI::line( implode( ' ', array_map( 'strval', array_column( $items, $id_key ) ) ) );
			return;
		}
		$fields = isset( $assoc['fields'] ) ? explode( ',', (string) $assoc['fields'] ) : $defaults;
		$rows   = in_array( $format, array( 'json', 'yaml' ), true ) ? $items : array_map(
			static fn( array $item ): array => array_map( array( self::class, 'cell' ), $item ),
			$items
		);
		self::quiet_yaml( static fn() => WP_CLI\Utils\format_items( $format, $rows, $fields ) );
	}

	/**
	 * Prints one object (a status): as a field/value table, or whole (--format=json|yaml) as
	 * WP-CLI's own `get` commands print one item, so a script gets the object the route answered.
	 *
	 * @param array<string, mixed> $item  The object.
	 * @param array<string, mixed> $assoc The command's options.
	 */
	public static function print_object( array $item, array $assoc ): void {
		$format = (string) ( $assoc['format'] ?? 'table' );
		if ( 'table' !== $format ) {
			self::quiet_yaml( static fn() => WP_CLI::print_value( $item, array( 'format' => $format ) ) );
			return;
		}
		$rows = array();
		foreach ( $item as $field => $value ) {
			$rows[] = array(
				'field' => $field,
				'value' => self::cell( $value ),
			);
		}
		WP_CLI\Utils\format_items( 'table', $rows, array( 'field', 'value' ) );
	}

	/**
	 * A value as a table or CSV cell: lists joined, objects as JSON, booleans as true/false, null
	 * empty (WP-CLI's table and CSV writers take every cell as a string).
	 *
	 * @param mixed $value Value.
	 * @return mixed
	 */
	public static function cell( $value ) {
		if ( null === $value ) {
			return '';
		}
		if ( is_bool( $value ) ) {
			return $value ? 'true' : 'false';
		}
		if ( is_array( $value ) ) {
			return array_is_list( $value ) && ! array_filter( $value, 'is_array' ) ? implode( ',', $value ) : wp_json_encode( $value );
		}
		return $value;
	}

	/**
	 * Prints through WP-CLI's YAML writer without PHP's deprecation notices. That writer (Spyc,
	 * bundled with WP-CLI) runs trim() on every value before it writes a null as `null`, which
	 * PHP 8.1+ reports as "Passing null … is deprecated" on a site with WP_DEBUG: noise in the
	 * output, about WP-CLI's code. Any other notice still shows.
	 *
	 * @param callable $output Prints.
	 */
	private static function quiet_yaml( callable $output ): void {
		$level = error_reporting(); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.prevent_path_disclosure_error_reporting,WordPress.PHP.DiscouragedPHPFunctions.runtime_configuration_error_reporting -- read to restore it
		error_reporting( $level & ~E_DEPRECATED ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.prevent_path_disclosure_error_reporting,WordPress.PHP.DiscouragedPHPFunctions.runtime_configuration_error_reporting -- only around WP-CLI's YAML writer, see above
		try {
			$output();
		} finally {
			error_reporting( $level ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.prevent_path_disclosure_error_reporting,WordPress.PHP.DiscouragedPHPFunctions.runtime_configuration_error_reporting -- restores the level read above
		}
	}

	/**
	 * A whole-number option (a count, seconds, a page), or null when not given; a value that is
	 * not one ends the command naming the option, instead of being read as 0.
	 *
	 * @param array<string, mixed> $assoc  The command's options.
	 * @param string               $option The option's name, without --.
	 */
	public static function whole_number( array $assoc, string $option ): ?int {
		if ( ! isset( $assoc[ $option ] ) ) {
			return null;
		}
		$value = $assoc[ $option ];
		if ( ! is_string( $value ) || 1 !== preg_match( '/^-?\d{1,15}$/D', trim( $value ) ) ) {
			self::bad_number( $option, $value, __( 'a whole number', 'service-integration' ) );
		}
		return (int) $value;
	}

	/**
	 * A number option that may have decimals (hours), or null when not given; anything else ends
	 * the command naming the option.
	 *
	 * @param array<string, mixed> $assoc  The command's options.
	 * @param string               $option The option's name, without --.
	 */
	public static function number( array $assoc, string $option ): ?float {
		if ( ! isset( $assoc[ $option ] ) ) {
			return null;
		}
		$value = $assoc[ $option ];
		if ( ! is_string( $value ) || 1 !== preg_match( '/^-?\d{1,15}(\.\d+)?$/D', trim( $value ) ) ) {
			self::bad_number( $option, $value, __( 'a number', 'service-integration' ) );
		}
		return (float) $value;
	}

	/**
	 * Ends the command: an option is not the number it must be.
	 *
	 * @param string $option   The option's name, without --.
	 * @param mixed  $value    What was given (true for a bare --option).
	 * @param string $expected What it must be.
	 */
	private static function bad_number( string $option, $value, string $expected ): void {
		WP_CLI::error(
			sprintf(
				/* translators: 1: the option, e.g. --grace-hours, 2: what it must be (a number, a whole number), 3: what was given. */
				__( '%1$s must be %2$s, not "%3$s".', 'service-integration' ),
				'--' . $option,
				$expected,
				is_string( $value ) ? $value : ''
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

<?php
/**
 * WP-CLI: runs the plugin's own REST routes in-process, as the user WP-CLI signed in with --user.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

use WP_CLI;
use WP_REST_Request;

use const ServiceIntegration\REST_NAMESPACE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The commands have no logic of their own: each one dispatches the route the admin page calls
 * (rest_do_request(), so the same permission checks, argument checks and answers apply) and
 * prints what it answers. An error answer ends the command with exit code 1 and its message.
 */
final class Rest_Runner {

	/**
	 * Calls one of the plugin's routes and answers its data; exits 1 on an error answer.
	 *
	 * @param string               $method HTTP method.
	 * @param string               $route  Route under the plugin's namespace, e.g. /service-account.
	 * @param array<string, mixed> $params Query (GET) or body parameters.
	 * @param string               $hint   What to do about an error, appended to its message.
	 * @return array<int|string, mixed>
	 */
	public static function call( string $method, string $route, array $params = array(), string $hint = '' ): array {
		list( $status, $data ) = self::dispatch( $method, $route, $params );
		if ( $status >= 400 ) {
			self::fail( $data, $status, $hint );
		}
		return $data;
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
		$request = new WP_REST_Request( $method, '/' . REST_NAMESPACE . $route );
		if ( 'GET' === $method ) {
			$request->set_query_params( $params );
		} else {
			$request->set_header( 'Content-Type', 'application/json' );
			$request->set_body( (string) wp_json_encode( (object) $params ) );
		}
		$response = rest_do_request( $request );
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
		if ( 'rest_forbidden' === $code ) {
			$hint = __( 'Run the command as an administrator: --user=<login>.', 'service-integration' );
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
		WP_CLI\Utils\format_items( $format, $rows, $fields );
	}

	/**
	 * Prints one object (a status): as a field/value table, or whole through WP-CLI's formatter
	 * (--format=json|yaml), so a script gets what the route answered.
	 *
	 * @param array<string, mixed> $item  The object.
	 * @param array<string, mixed> $assoc The command's options.
	 */
	public static function print_object( array $item, array $assoc ): void {
		$format = (string) ( $assoc['format'] ?? 'table' );
		if ( 'table' !== $format ) {
			WP_CLI\Utils\format_items( $format, array( $item ), array_keys( $item ) );
			return;
		}
		$rows = array();
		foreach ( $item as $field => $value ) {
			$rows[] = array(
				'field' => $field,
				'value' => null === $value ? '' : self::cell( $value ),
			);
		}
		WP_CLI\Utils\format_items( 'table', $rows, array( 'field', 'value' ) );
	}

	/**
	 * A value as a table cell: lists joined, objects as JSON, booleans as true/false.
	 *
	 * @param mixed $value Value.
	 * @return mixed
	 */
	public static function cell( $value ) {
		if ( is_bool( $value ) ) {
			return $value ? 'true' : 'false';
		}
		if ( is_array( $value ) ) {
			return array_is_list( $value ) && ! array_filter( $value, 'is_array' ) ? implode( ',', $value ) : wp_json_encode( $value );
		}
		return $value;
	}
}

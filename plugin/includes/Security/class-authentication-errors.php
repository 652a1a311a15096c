<?php
/**
 * Clear errors for failed HTTP Basic / Application Password authentication.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Security;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * WP::init() resolves the current user before REST_REQUEST is defined, so with pretty
 * permalinks core skips the application password on that first pass and a wrong
 * password ends as a vague rest_not_logged_in. Telling core early that /wp-json/
 * requests are API requests makes it report incorrect_password / invalid_username (401).
 * Basic headers core cannot use at all (malformed, or application passwords off)
 * get their own 401 instead of being silently treated as anonymous.
 */
final class Authentication_Errors {

	/**
	 * Registers the filters.
	 */
	public static function register(): void {
		add_filter( 'application_password_is_api_request', array( self::class, 'detect_rest_request' ) );
		add_filter( 'rest_authentication_errors', array( self::class, 'unusable_basic_header' ), 95 );
	}

	/**
	 * Whether this request runs through the front controller (index.php), the only
	 * script that serves the REST API. admin-ajax.php, admin-post.php and the like
	 * read `rest_route` too, but core deliberately keeps application passwords off them.
	 */
	private static function is_front_controller(): bool {
		if ( is_admin() ) {
			return false;
		}
		$script = isset( $_SERVER['SCRIPT_NAME'] ) ? (string) wp_unslash( $_SERVER['SCRIPT_NAME'] ) : ''; // phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized
		return 'index.php' === basename( $script );
	}

	/**
	 * True for requests to the REST API, even before REST_REQUEST is defined.
	 *
	 * @param bool $is_api_request Core's answer.
	 */
	public static function detect_rest_request( $is_api_request ): bool {
		if ( $is_api_request ) {
			return true;
		}
		if ( ! self::is_front_controller() ) {
			return false;
		}
		if ( isset( $_GET['rest_route'] ) ) { // phpcs:ignore WordPress.Security.NonceVerification.Recommended
			return true;
		}
		$uri    = isset( $_SERVER['REQUEST_URI'] ) ? (string) wp_parse_url( wp_unslash( $_SERVER['REQUEST_URI'] ), PHP_URL_PATH ) : ''; // phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized
		$prefix = (string) wp_parse_url( trailingslashit( rest_url() ), PHP_URL_PATH );
		return '' !== $prefix && str_starts_with( trailingslashit( $uri ), $prefix );
	}

	/**
	 * A Basic Authorization header that never reached authentication.
	 *
	 * @param mixed $result Result of earlier authentication checks.
	 * @return mixed
	 */
	public static function unusable_basic_header( $result ) {
		if ( ! empty( $result ) || is_user_logged_in() ) {
			return $result;
		}
		$header = self::authorization_header();
		if ( ! preg_match( '/^Basic\b/i', $header ) ) {
			return $result;
		}
		if ( ! wp_is_application_passwords_available() ) {
			return new WP_Error( 'application_passwords_disabled', __( 'Application passwords are not available on this site.', 'service-integration' ), array( 'status' => 401 ) );
		}
		if ( ! isset( $_SERVER['PHP_AUTH_USER'], $_SERVER['PHP_AUTH_PW'] ) || '' === $_SERVER['PHP_AUTH_USER'] ) {
			return new WP_Error( 'rest_malformed_authorization', __( 'The Authorization header is not valid HTTP Basic credentials (expected "Basic base64(user:application-password)").', 'service-integration' ), array( 'status' => 401 ) );
		}
		return $result;
	}

	/**
	 * The raw Authorization header, wherever the server put it.
	 */
	private static function authorization_header(): string {
		foreach ( array( 'HTTP_AUTHORIZATION', 'REDIRECT_HTTP_AUTHORIZATION' ) as $key ) {
			if ( ! empty( $_SERVER[ $key ] ) ) {
				return trim( (string) wp_unslash( $_SERVER[ $key ] ) ); // phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized
			}
		}
		return isset( $_SERVER['PHP_AUTH_USER'] ) ? 'Basic' : '';
	}
}

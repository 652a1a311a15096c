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
 *
 * The filter can run as early as plugins_loaded: any current_user_can() call then
 * resolves the current user, and with it the application password (WooCommerce 9.6+
 * does so in Features::should_load_features(), for every front-end page and Store API
 * call). $wp_rewrite does not exist yet at that point, so rest_url() (which asks it
 * about index permalinks) must never be called from here: it is a fatal error on every
 * request that carries an Authorization: Basic header.
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
		$script = isset( $_SERVER['SCRIPT_NAME'] ) ? sanitize_text_field( wp_unslash( $_SERVER['SCRIPT_NAME'] ) ) : '';
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
		if ( isset( $_GET['rest_route'] ) ) { // phpcs:ignore WordPress.Security.NonceVerification.Recommended -- only whether the REST route parameter is there, as core's rest_api_loaded() reads it; no form is processed.
			return true;
		}
		$uri = isset( $_SERVER['REQUEST_URI'] ) ? (string) wp_parse_url( sanitize_text_field( wp_unslash( $_SERVER['REQUEST_URI'] ) ), PHP_URL_PATH ) : '';
		$uri = trailingslashit( $uri );
		foreach ( self::rest_path_prefixes() as $prefix ) {
			if ( str_starts_with( $uri, $prefix ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The URL paths under which the front controller serves the REST API, as
	 * get_rest_url() builds them but without $wp_rewrite (see the class comment): with
	 * plain permalinks only ?rest_route= reaches it (no rewrite rules parse a path); with
	 * any other structure core registers its rewrite rules both as <prefix>/ and as
	 * index.php/<prefix>/ (rest_api_register_rewrites()), so both paths are the REST API
	 * whether or not the structure itself uses index.php. The `rest_url` filter cannot be
	 * honoured this early; the `rest_url_prefix` filter is.
	 *
	 * @return string[] Path prefixes, each ending with a slash.
	 */
	private static function rest_path_prefixes(): array {
		if ( '' === (string) get_option( 'permalink_structure' ) ) {
			return array();
		}
		$home   = trailingslashit( (string) wp_parse_url( home_url( '/' ), PHP_URL_PATH ) );
		$prefix = trim( rest_get_url_prefix(), '/' );
		if ( '' === $prefix ) {
			return array();
		}
		return array( $home . $prefix . '/', $home . 'index.php/' . $prefix . '/' );
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
				return sanitize_text_field( wp_unslash( $_SERVER[ $key ] ) );
			}
		}
		return isset( $_SERVER['PHP_AUTH_USER'] ) ? 'Basic' : '';
	}
}

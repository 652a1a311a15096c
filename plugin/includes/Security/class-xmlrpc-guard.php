<?php
/**
 * Keeps service accounts off XML-RPC.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Security;

use WP_Error;
use WP_User;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Core accepts application passwords on xmlrpc.php, where the REST route allow-list
 * does not apply (wp.editProfile, wp.newComment, ...). The automation only needs
 * REST, so a service account never signs in there, whatever password it uses.
 */
final class Xmlrpc_Guard {

	const ERROR_CODE = 'service_account_xmlrpc_forbidden';

	/**
	 * Registers the filters.
	 */
	public static function register(): void {
		// After every authentication handler (application passwords run at 20, cookies at 30).
		add_filter( 'authenticate', array( self::class, 'refuse_service_account' ), PHP_INT_MAX );
		add_filter( 'xmlrpc_login_error', array( self::class, 'explain' ), 10, 2 );
	}

	/**
	 * Turns a service account's successful XML-RPC sign-in into an error.
	 *
	 * @param WP_User|WP_Error|null $user Result of earlier handlers.
	 * @return WP_User|WP_Error|null
	 */
	public static function refuse_service_account( $user ) {
		if ( ! defined( 'XMLRPC_REQUEST' ) || ! XMLRPC_REQUEST || ! Service_Role::is_service_account( $user ) ) {
			return $user;
		}
		return new WP_Error(
			self::ERROR_CODE,
			__( 'Service accounts cannot use XML-RPC; use the REST API.', 'service-integration' ),
			array( 'status' => 403 )
		);
	}

	/**
	 * Replaces core's "Incorrect username or password." with the reason, for our refusal only.
	 *
	 * @param \IXR_Error $error XML-RPC fault core is about to send.
	 * @param mixed      $user  Authentication result.
	 * @return \IXR_Error
	 */
	public static function explain( $error, $user ) {
		if ( is_wp_error( $user ) && self::ERROR_CODE === $user->get_error_code() && class_exists( 'IXR_Error' ) ) {
			return new \IXR_Error( 403, $user->get_error_message() );
		}
		return $error;
	}
}

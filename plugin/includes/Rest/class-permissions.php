<?php
/**
 * Shared permission checks for the plugin's REST routes.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Core's conventions: code rest_forbidden, 401 when anonymous, 403 when logged in.
 */
final class Permissions {

	/**
	 * Requires capabilities of the current user, every one.
	 *
	 * @param string $capability Capability name.
	 * @param string ...$more    Further capabilities, also required.
	 * @return true|WP_Error
	 */
	public static function require_capability( string $capability, string ...$more ) {
		foreach ( array( $capability, ...$more ) as $required ) {
			if ( ! current_user_can( $required ) ) {
				return new WP_Error(
					'rest_forbidden',
					__( 'Sorry, you are not allowed to do that.', 'service-integration' ),
					array( 'status' => rest_authorization_required_code() )
				);
			}
		}
		return true;
	}
}

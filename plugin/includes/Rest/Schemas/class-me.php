<?php
/**
 * Answer of GET /me (Rest\Me_Controller).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Who the caller is.
 */
final class Me {

	/**
	 * The caller, its role and effective capabilities.
	 *
	 * @return array<string, mixed>
	 */
	public static function caller(): array {
		$strings = array( 'type' => 'string' );
		return Schema::answer(
			'service-integration-me',
			array(
				'id'                     => Schema::field( 'integer', __( 'User ID.', 'service-integration' ) ),
				'username'               => Schema::field( 'string', __( 'Login.', 'service-integration' ) ),
				'roles'                  => Schema::list_field( __( 'Roles.', 'service-integration' ), $strings ),
				'is_service_account'     => Schema::field( 'boolean', __( 'Whether the caller is the service account.', 'service-integration' ) ),
				'capabilities'           => Schema::list_field( __( 'The capabilities the caller effectively holds, of those the integration uses.', 'service-integration' ), $strings ),
				'expected_capabilities'  => Schema::field( array( 'array', 'null' ), __( 'The service account only: the capabilities its role grants; null for anyone else.', 'service-integration' ), array( 'items' => $strings ) ),
				'sensitive_capabilities' => Schema::flags_field( __( 'Effective value of capabilities the integration must never hold.', 'service-integration' ) ),
				'widening_detected'      => Schema::list_field( __( 'The service account only: capabilities something granted its role beyond its own, which the clamp refuses.', 'service-integration' ), $strings ),
				'application_password'   => Schema::field( array( 'string', 'null' ), __( 'UUID of the application password used.', 'service-integration' ) ),
			)
		);
	}
}

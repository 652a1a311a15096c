<?php
/**
 * Answers of the service account routes (Rest\Service_Account_Controller).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest\Schemas;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One method per answer.
 */
final class Service_Account {

	/**
	 * GET /service-account: the role, the account, its passwords, the widening seen.
	 *
	 * @return array<string, mixed>
	 */
	public static function state(): array {
		$strings = array( 'type' => 'string' );
		return Schema::answer(
			'service-account',
			array(
				'role_exists'                     => Schema::field( 'boolean', __( 'Whether the service role exists.', 'service-integration' ) ),
				'role_capabilities'               => Schema::flags_field( __( 'Capabilities the service role holds as stored, by name.', 'service-integration' ) ),
				'expected_capabilities'           => Schema::flags_field( __( 'Capabilities the service role should hold, by name.', 'service-integration' ) ),
				'widening_detected'               => self::widening_field(),
				'account'                         => Schema::object_field(
					__( 'The service account; null until it is created.', 'service-integration' ),
					array(
						'id'       => Schema::field( 'integer', __( 'User ID.', 'service-integration' ) ),
						'username' => Schema::field( 'string', __( 'Login.', 'service-integration' ) ),
						'email'    => Schema::field( 'string', __( 'Email address.', 'service-integration' ) ),
						'roles'    => Schema::list_field( __( 'Roles.', 'service-integration' ), $strings ),
					),
					true
				),
				'application_passwords'           => Schema::list_field(
					__( 'The account\'s application passwords (never the passwords themselves).', 'service-integration' ),
					Schema::object(
						array(
							'uuid'      => Schema::field( 'string', __( 'UUID of the application password.', 'service-integration' ) ),
							'name'      => Schema::field( 'string', __( 'What the password is for.', 'service-integration' ) ),
							'created'   => Schema::field( 'string', __( 'When it was created, ISO 8601 in UTC.', 'service-integration' ), array( 'format' => 'date-time' ) ),
							'last_used' => Schema::time_field( __( 'When it was last used, ISO 8601 in UTC; null if never.', 'service-integration' ) ),
							'last_ip'   => Schema::field( array( 'string', 'null' ), __( 'IP address it was last used from; null if never.', 'service-integration' ) ),
						)
					)
				),
				'application_passwords_available' => Schema::field( 'boolean', __( 'Whether application passwords are available on this site.', 'service-integration' ) ),
			)
		);
	}

	/**
	 * POST /service-account: the account, created or found.
	 *
	 * @return array<string, mixed>
	 */
	public static function created_account(): array {
		return Schema::answer(
			'service-account-created',
			array(
				'id'       => Schema::field( 'integer', __( 'The account\'s user ID.', 'service-integration' ) ),
				'username' => Schema::field( 'string', __( 'Login.', 'service-integration' ) ),
				'roles'    => Schema::list_field( __( 'Roles.', 'service-integration' ), array( 'type' => 'string' ) ),
				'created'  => Schema::field( 'boolean', __( 'False when the account existed already.', 'service-integration' ) ),
			)
		);
	}

	/**
	 * POST /service-account/application-passwords: the only answer that holds the password.
	 *
	 * @return array<string, mixed>
	 */
	public static function created_password(): array {
		return Schema::answer(
			'service-account-application-password',
			array(
				'password'      => Schema::field( 'string', __( 'The password, shown only in this answer.', 'service-integration' ) ),
				'uuid'          => Schema::field( 'string', __( 'UUID of the application password.', 'service-integration' ) ),
				'name'          => Schema::field( 'string', __( 'What the password is for.', 'service-integration' ) ),
				'created'       => Schema::field( 'integer', __( 'When it was created, as a Unix timestamp.', 'service-integration' ) ),
				'username'      => Schema::field( 'string', __( 'Login of the account.', 'service-integration' ) ),
				'authorization' => Schema::field( 'string', __( 'The Authorization header value (Basic).', 'service-integration' ) ),
			)
		);
	}

	/**
	 * DELETE /service-account/application-passwords/<uuid>.
	 *
	 * @return array<string, mixed>
	 */
	public static function revoked_password(): array {
		return Schema::answer(
			'service-account-application-password-revoked',
			array(
				'revoked' => Schema::field( 'boolean', __( 'Whether the password was revoked.', 'service-integration' ) ),
				'uuid'    => Schema::field( 'string', __( 'UUID of the application password.', 'service-integration' ) ),
			)
		);
	}

	/**
	 * POST /service-account/check: the least-privilege check's report.
	 *
	 * @return array<string, mixed>
	 */
	public static function check_report(): array {
		return Schema::answer(
			'service-account-check',
			array(
				'passed'            => Schema::field( 'boolean', __( 'Whether every call had the expected outcome, the password authenticated and no widening was seen.', 'service-integration' ) ),
				'account'           => Schema::field( 'string', __( 'Login of the throwaway account the check ran as.', 'service-integration' ) ),
				'authenticated'     => Schema::field( 'boolean', __( 'Whether its application password authenticated as that account.', 'service-integration' ) ),
				'widening_detected' => self::widening_field(),
				'results'           => Schema::list_field(
					__( 'Each call made as the account: method, route, expected and actual outcome.', 'service-integration' ),
					Schema::object(
						array(
							'method'   => Schema::field( 'string', __( 'HTTP method.', 'service-integration' ) ),
							'route'    => Schema::field( 'string', __( 'REST route.', 'service-integration' ) ),
							'expected' => Schema::field( 'string', __( 'Expected outcome.', 'service-integration' ), array( 'enum' => array( 'refused', 'allowed' ) ) ),
							'codes'    => Schema::list_field( __( 'Error codes that count as refused (empty when the call must be allowed).', 'service-integration' ), array( 'type' => 'string' ) ),
							'status'   => Schema::field( 'integer', __( 'HTTP status answered.', 'service-integration' ) ),
							'code'     => Schema::field( array( 'string', 'null' ), __( 'Error code answered; null on success.', 'service-integration' ) ),
							'passed'   => Schema::field( 'boolean', __( 'Whether the outcome was the expected one.', 'service-integration' ) ),
						)
					)
				),
				'error'             => Schema::field( 'string', __( 'Only when the check could not run: why.', 'service-integration' ) ),
			),
			array( 'error' )
		);
	}

	/**
	 * DELETE /service-account/widening.
	 *
	 * @return array<string, mixed>
	 */
	public static function widening(): array {
		return Schema::answer( 'service-account-widening', array( 'widening_detected' => self::widening_field() ) );
	}

	/**
	 * The capabilities seen widened.
	 *
	 * @return array<string, mixed>
	 */
	private static function widening_field(): array {
		return Schema::list_field( __( 'Capabilities something granted the service role beyond its own, which the clamp refuses.', 'service-integration' ), array( 'type' => 'string' ) );
	}
}

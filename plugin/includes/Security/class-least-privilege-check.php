<?php
/**
 * The verification procedure, runnable on a live site: a temporary account with the
 * integration role and an application password calls the users and plugins collections
 * (and other administrative routes); every call must be refused.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Security;

use WP_REST_Request;
use WP_User;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Creates a temporary account with the integration role and an application password,
 * checks that the password authenticates as that account, tries calls it must be
 * refused (and two it must be allowed), reports each result, then deletes the account.
 * Calls are dispatched in-process as that user: a loopback HTTP call could deadlock a
 * single-worker server, and authorisation is what is under test here.
 * A refusal counts only with the expected code (rest_forbidden: the route allow-list
 * held), not any 401/403 or a missing route; and any widening fails the check.
 */
final class Least_Privilege_Check {

	/**
	 * Calls to try: method, route, body, expected outcome, and for refusals the error
	 * codes that count as one (rest_forbidden unless listed).
	 *
	 * @return array<int, array{method:string, route:string, body:array, expect:string, codes:string[]}>
	 */
	public static function calls(): array {
		$base  = \ServiceIntegration\Manufacturing\Manufacturing_Order_Type::REST_BASE;
		$calls = array(
			array( 'GET', '/wp/v2/users', array(), 'refused' ),
			array(
				'POST',
				'/wp/v2/users',
				array(
					'username' => 'intruder',
					'email'    => 'intruder@example.com',
					'password' => 'x',
				),
				'refused',
			),
			array( 'GET', '/wp/v2/users/me', array(), 'refused' ),
			array( 'POST', '/wp/v2/users/me/application-passwords', array( 'name' => 'persistence' ), 'refused' ),
			array( 'GET', '/wp/v2/plugins', array(), 'refused' ),
			array( 'POST', '/wp/v2/plugins', array( 'slug' => 'hello-dolly' ), 'refused' ),
			array( 'GET', '/wp/v2/settings', array(), 'refused' ),
			array( 'POST', '/wp/v2/settings', array( 'title' => 'hijacked' ), 'refused' ),
			array( 'POST', '/wp/v2/posts', array( 'title' => 'spam' ), 'refused' ),
			array( 'GET', '/wc/v3/orders', array(), 'refused' ),
			array( 'GET', '/service-integration/v1/me', array(), 'allowed' ),
			array(
				'POST',
				'/wp/v2/' . $base,
				array(
					'title'  => 'least-privilege check',
					'status' => 'draft',
				),
				'allowed',
			),
		);
		if ( function_exists( 'wp_register_ability' ) ) {
			// The Abilities API (WordPress 6.9+): the listing is open, core's abilities are not,
			// neither one that needs manage_options nor one any signed-in user passes.
			array_push(
				$calls,
				array( 'GET', '/wp-abilities/v1/abilities', array(), 'allowed' ),
				array( 'GET', '/wp-abilities/v1/abilities/core/get-site-info/run', array(), 'refused' ),
				array( 'GET', '/wp-abilities/v1/abilities/core/get-user-info/run', array(), 'refused' )
			);
		}
		return array_map(
			static fn( array $call ): array => array_combine( array( 'method', 'route', 'body', 'expect', 'codes' ), array_pad( $call, 5, array( 'rest_forbidden' ) ) ),
			$calls
		);
	}

	/**
	 * Runs the procedure.
	 *
	 * @return array{passed:bool, account:string, authenticated:bool, widening_detected:string[], results:array<int, array<string, mixed>>}
	 */
	public static function run(): array {
		$admin = get_current_user_id();
		$login = Service_Account::CHECK_PREFIX . strtolower( wp_generate_password( 8, false ) );
		$user  = Service_Account::create( $login, $login . '@example.invalid' );
		if ( is_wp_error( $user ) ) {
			return array(
				'passed'            => false,
				'account'           => $login,
				'authenticated'     => false,
				'widening_detected' => Capability_Clamp::detected_widening(),
				'results'           => array(),
				'error'             => $user->get_error_message(),
			);
		}

		try {
			$password      = Service_Account::create_application_password( $user, 'least-privilege check' );
			$authenticated = ! is_wp_error( $password ) && self::authenticates_as( $user, $password['password'] );

			wp_set_current_user( $user->ID );
			$results = array_map( array( self::class, 'try_call' ), self::calls() );
		} finally {
			wp_set_current_user( $admin );
			Service_Account::delete( $user );
		}

		// Read after the calls, so widening by a runtime filter during them is included.
		$widening = Capability_Clamp::detected_widening();
		$passed   = $authenticated && ! $widening && ! in_array( false, array_column( $results, 'passed' ), true );
		return array(
			'passed'            => $passed,
			'account'           => $login,
			'authenticated'     => $authenticated,
			'widening_detected' => $widening,
			'results'           => $results,
		);
	}

	/**
	 * Whether the application password resolves to exactly this account.
	 *
	 * @param WP_User $user     Account.
	 * @param string  $password Plain application password.
	 */
	private static function authenticates_as( WP_User $user, string $password ): bool {
		$force  = static fn() => true;
		add_filter( 'application_password_is_api_request', $force );
		$result = wp_authenticate_application_password( null, $user->user_login, $password );
		remove_filter( 'application_password_is_api_request', $force );
		return $result instanceof WP_User && $result->ID === $user->ID;
	}

	/**
	 * Dispatches one call as the current (temporary) user.
	 *
	 * @param array{method:string, route:string, body:array, expect:string, codes:string[]} $call Call.
	 * @return array<string, mixed>
	 */
	private static function try_call( array $call ): array {
		$request = new WP_REST_Request( $call['method'], $call['route'] );
		if ( $call['body'] ) {
			$request->set_body_params( $call['body'] );
		}
		$response = rest_do_request( $request );
		$status   = $response->get_status();
		$data     = $response->get_data();
		$code     = is_array( $data ) && isset( $data['code'] ) ? (string) $data['code'] : null;
		$passed   = 'refused' === $call['expect']
			? in_array( $status, array( 401, 403 ), true ) && in_array( $code, $call['codes'], true )
			: $status >= 200 && $status < 300;

		return array(
			'method'   => $call['method'],
			'route'    => $call['route'],
			'expected' => $call['expect'],
			'codes'    => 'refused' === $call['expect'] ? $call['codes'] : array(),
			'status'   => $status,
			'code'     => $code,
			'passed'   => $passed,
		);
	}
}

<?php
/**
 * REST: administrators provision the service account and its application passwords.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Security\Capability_Clamp;
use ServiceIntegration\Security\Least_Privilege_Check;
use ServiceIntegration\Security\Service_Account;
use ServiceIntegration\Security\Service_Role;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Routes (administrators, capability manage_options + create_users):
 *   GET    /service-account                              state of role, account, passwords, widening
 *   POST   /service-account                              create the account (idempotent)
 *   POST   /service-account/application-passwords        new password, shown once
 *   DELETE /service-account/application-passwords/<uuid> revoke
 *   POST   /service-account/check                        run the least-privilege check (users, plugins… must be refused)
 *   DELETE /service-account/widening                     forget reported runtime widening
 */
final class Service_Account_Controller extends Controller {

	/**
	 * The routes' base.
	 *
	 * @var string
	 */
	protected $rest_base = 'service-account';

	/**
	 * Administrators who may manage users.
	 *
	 * @var string[]
	 */
	protected array $capabilities = array( 'manage_options', 'create_users' );

	/**
	 * Registers the routes.
	 */
	public function register_routes(): void {
		$account  = array(
			'username' => array(
				'type'        => 'string',
				'pattern'     => '^[a-z0-9._-]{3,60}$',
				'description' => __( 'Login of the account (default service-integration); chosen once.', 'service-integration' ),
			),
			'email'    => array(
				'type'        => 'string',
				'format'      => 'email',
				'description' => __( 'Email address of the account.', 'service-integration' ),
			),
		);
		$password = array(
			'name' => array(
				'type'        => 'string',
				'required'    => true,
				'minLength'   => 1,
				'maxLength'   => 100,
				'description' => __( 'What the password is for (shown in the list).', 'service-integration' ),
			),
		);
		$uuid     = array(
			'uuid' => array(
				'type'        => 'string',
				'description' => __( 'The application password\'s UUID.', 'service-integration' ),
			),
		);
		$this->register_route(
			'',
			array(
				$this->endpoint( WP_REST_Server::READABLE, 'get_item', $this->context_args() ),
				$this->endpoint( WP_REST_Server::CREATABLE, 'create_item', $account ),
			)
		);
		$this->register_route( '/application-passwords', array( $this->endpoint( WP_REST_Server::CREATABLE, 'create_password', $password ) ), array( Schemas\Service_Account::class, 'created_password' ) );
		$this->register_route( '/application-passwords/(?P<uuid>[0-9a-f-]{36})', array( $this->endpoint( WP_REST_Server::DELETABLE, 'revoke_password', $uuid ) ), array( Schemas\Service_Account::class, 'revoked_password' ) );
		$this->register_route( '/check', array( $this->endpoint( WP_REST_Server::CREATABLE, 'run_check' ) ), array( Schemas\Service_Account::class, 'check_report' ) );
		$this->register_route( '/widening', array( $this->endpoint( WP_REST_Server::DELETABLE, 'reset_widening' ) ), array( Schemas\Service_Account::class, 'widening' ) );
	}

	/**
	 * GET's answer: the account's state. The other routes answer their own schema (the POST
	 * of this route, the account created or found: Schemas\Service_Account::created_account()).
	 *
	 * @return array<string, mixed>
	 */
	protected function item_schema(): array {
		return Schemas\Service_Account::state();
	}

	/**
	 * State of the service account.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function get_item( $request ): WP_REST_Response {
		$role    = get_role( Service_Role::ROLE );
		$account = Service_Account::current();
		// Capability maps are objects, also when empty (PHP would send an empty one as []).
		$state = array(
			'role_exists'                     => null !== $role,
			'role_capabilities'               => (object) ( $role ? $role->capabilities : array() ),
			'expected_capabilities'           => (object) Service_Role::CAPABILITIES,
			'widening_detected'               => Capability_Clamp::detected_widening(),
			'account'                         => $account ? array(
				'id'       => $account->ID,
				'username' => $account->user_login,
				'email'    => $account->user_email,
				'roles'    => array_values( $account->roles ),
			) : null,
			'application_passwords'           => $account ? Service_Account::application_passwords( $account ) : array(),
			'application_passwords_available' => wp_is_application_passwords_available(),
		);
		return $this->view_response( $state, $request );
	}

	/**
	 * Creates the account; 201 when created, 200 when it already existed. One account per
	 * site: asking for another login while one exists is a 409, not a second account.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function create_item( $request ) {
		$current = Service_Account::current();
		$asked   = isset( $request['username'] ) ? (string) $request['username'] : '';
		if ( $current && '' !== $asked && $asked !== $current->user_login ) {
			return new WP_Error(
				'service_account_exists',
				/* translators: %s: login of the existing service account. */
				sprintf( __( 'The service account already exists with the login "%s".', 'service-integration' ), $current->user_login ),
				array(
					'status'   => 409,
					'username' => $current->user_login,
				)
			);
		}
		$login   = $current ? $current->user_login : ( '' !== $asked ? $asked : Service_Account::DEFAULT_LOGIN );
		$existed = null !== $current;
		$email   = (string) ( $request['email'] ?? '' );
		if ( '' === $email ) {
			// is_email() wants a dot in the domain: a local site (localhost) gets a reserved TLD.
			$host  = (string) wp_parse_url( home_url(), PHP_URL_HOST );
			$email = $login . '@' . ( str_contains( $host, '.' ) ? $host : ( $host ? $host . '.invalid' : 'example.invalid' ) );
		}
		$user = Service_Account::create( $login, $email );
		if ( is_wp_error( $user ) ) {
			return $user;
		}
		Service_Account::remember( $user );
		$account = array(
			'id'       => $user->ID,
			'username' => $user->user_login,
			'roles'    => array_values( $user->roles ),
			'created'  => ! $existed,
		);
		return $this->view_response( $account, $request, $existed ? 200 : 201, Schemas\Service_Account::created_account() );
	}

	/**
	 * Creates an application password for the account.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function create_password( $request ) {
		$account = Service_Account::current();
		if ( ! $account ) {
			return new WP_Error( 'service_account_missing', __( 'Create the service account first.', 'service-integration' ), array( 'status' => 404 ) );
		}
		if ( ! wp_is_application_passwords_available_for_user( $account ) ) {
			return new WP_Error( 'application_passwords_disabled', __( 'Application passwords are not available on this site (they need HTTPS, or a local environment).', 'service-integration' ), array( 'status' => 409 ) );
		}
		$created = Service_Account::create_application_password( $account, (string) $request['name'] );
		if ( is_wp_error( $created ) ) {
			return $created;
		}
		$created['username']      = $account->user_login;
		$created['authorization'] = 'Basic ' . base64_encode( $account->user_login . ':' . str_replace( ' ', '', $created['password'] ) ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- HTTP Basic credentials are base64 of user:password (RFC 7617); nothing is obfuscated.
		$response                 = $this->view_response( $created, $request, 201, Schemas\Service_Account::created_password() );
		$response->header( 'Cache-Control', 'no-store' );
		return $response;
	}

	/**
	 * Revokes an application password.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function revoke_password( $request ) {
		$account = Service_Account::current();
		if ( ! $account ) {
			return new WP_Error( 'service_account_missing', __( 'There is no service account.', 'service-integration' ), array( 'status' => 404 ) );
		}
		$deleted = Service_Account::revoke_application_password( $account, (string) $request['uuid'] );
		if ( is_wp_error( $deleted ) ) {
			return $deleted;
		}
		$revoked = array(
			'revoked' => true,
			'uuid'    => (string) $request['uuid'],
		);
		return $this->view_response( $revoked, $request, 200, Schemas\Service_Account::revoked_password() );
	}

	/**
	 * Runs the least-privilege check.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function run_check( $request ): WP_REST_Response {
		return $this->view_response( Least_Privilege_Check::run(), $request, 200, Schemas\Service_Account::check_report() );
	}

	/**
	 * Forgets reported runtime widening; stored widening on the role stays reported.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function reset_widening( $request ): WP_REST_Response {
		Capability_Clamp::reset_widening();
		return $this->view_response( array( 'widening_detected' => Capability_Clamp::detected_widening() ), $request, 200, Schemas\Service_Account::widening() );
	}
}

<?php
/**
 * The service account user and its application passwords.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Security;

use WP_Application_Passwords;
use WP_Error;
use WP_User;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * One account per site by default (login `service-integration`), created with a random
 * password nobody knows: it signs in only with application passwords, over the API.
 */
final class Service_Account {

	const DEFAULT_LOGIN = 'service-integration';
	const APP_ID        = '9f1e3c4a-2b7d-4e8f-a1c6-5d0b7e9f2a31';
	// The login chosen at creation, so a custom username is found again later.
	const LOGIN_OPTION = 'service_integration_account_login';
	// Temporary accounts of the least-privilege check; never "the" account.
	const CHECK_PREFIX = 'si-check-';

	/**
	 * A user by login, if it exists.
	 *
	 * @param string $login Login name.
	 */
	public static function find( string $login ): ?WP_User {
		$user = get_user_by( 'login', $login );
		return $user instanceof WP_User ? $user : null;
	}

	/**
	 * The site's service account, whatever login it was created with: the login stored at
	 * creation, else the default login, else the oldest user holding the role (accounts
	 * created before the login was stored). Null when there is none.
	 */
	public static function current(): ?WP_User {
		foreach ( array( (string) get_option( self::LOGIN_OPTION, '' ), self::DEFAULT_LOGIN ) as $login ) {
			$user = '' === $login ? null : self::find( $login );
			if ( $user && Service_Role::is_service_account( $user ) ) {
				return $user;
			}
		}
		foreach ( get_users(
			array(
				'role'    => Service_Role::ROLE,
				'orderby' => 'ID',
				'order'   => 'ASC',
				'number'  => 20,
			)
		) as $user ) {
			if ( ! str_starts_with( $user->user_login, self::CHECK_PREFIX ) ) {
				return $user;
			}
		}
		return null;
	}

	/**
	 * Remembers which login is the site's service account.
	 *
	 * @param WP_User $user Account.
	 */
	public static function remember( WP_User $user ): void {
		update_option( self::LOGIN_OPTION, $user->user_login, false );
	}

	/**
	 * Creates the account with the integration role (and the role if missing).
	 *
	 * @param string $login Login name.
	 * @param string $email Email address.
	 * @return WP_User|WP_Error
	 */
	public static function create( string $login, string $email ) {
		Service_Role::install();
		$existing = self::find( $login );
		if ( $existing ) {
			return Service_Role::is_service_account( $existing )
				? $existing
				: new WP_Error( 'service_account_login_taken', __( 'A user with this login already exists and is not a service account.', 'service-integration' ), array( 'status' => 409 ) );
		}
		if ( ! validate_username( $login ) ) {
			return new WP_Error(
				'rest_invalid_param',
				__( 'Invalid login name.', 'service-integration' ),
				array(
					'status' => 400,
					'params' => array( 'username' => 'invalid' ),
				)
			);
		}
		$user_id = wp_insert_user(
			array(
				'user_login'   => $login,
				'user_email'   => $email,
				'user_pass'    => wp_generate_password( 64, true, true ),
				'display_name' => __( 'Service integration', 'service-integration' ),
				'role'         => Service_Role::ROLE,
			)
		);
		if ( is_wp_error( $user_id ) ) {
			$user_id->add_data( array( 'status' => 400 ) );
			return $user_id;
		}
		return new WP_User( $user_id );
	}

	/**
	 * Creates an application password; the plain password is returned once, never stored.
	 *
	 * @param WP_User $user Account.
	 * @param string  $name Label shown to the site owner.
	 * @return array{password:string, uuid:string, name:string, created:int}|WP_Error
	 */
	public static function create_application_password( WP_User $user, string $name ) {
		$created = WP_Application_Passwords::create_new_application_password(
			$user->ID,
			array(
				'name'   => $name,
				'app_id' => self::APP_ID,
			)
		);
		if ( is_wp_error( $created ) ) {
			$created->add_data( array( 'status' => 400 ) );
			return $created;
		}
		list( $password, $item ) = $created;
		return array(
			'password' => WP_Application_Passwords::chunk_password( $password ),
			'uuid'     => $item['uuid'],
			'name'     => $item['name'],
			'created'  => (int) $item['created'],
		);
	}

	/**
	 * Application passwords of the account, without secrets.
	 *
	 * @param WP_User $user Account.
	 * @return array<int, array<string, mixed>>
	 */
	public static function application_passwords( WP_User $user ): array {
		return array_map(
			static fn( array $item ): array => array(
				'uuid'      => $item['uuid'],
				'name'      => $item['name'],
				'created'   => gmdate( 'c', (int) $item['created'] ),
				'last_used' => $item['last_used'] ? gmdate( 'c', (int) $item['last_used'] ) : null,
				'last_ip'   => $item['last_ip'] ?? null,
			),
			WP_Application_Passwords::get_user_application_passwords( $user->ID )
		);
	}

	/**
	 * Revokes one application password.
	 *
	 * @param WP_User $user Account.
	 * @param string  $uuid Password UUID.
	 * @return true|WP_Error
	 */
	public static function revoke_application_password( WP_User $user, string $uuid ) {
		$deleted = WP_Application_Passwords::delete_application_password( $user->ID, $uuid );
		if ( is_wp_error( $deleted ) ) {
			$deleted->add_data( array( 'status' => 404 ) );
		}
		return $deleted;
	}

	/**
	 * Deletes an account, with any records it authored.
	 *
	 * @param WP_User $user Account.
	 */
	public static function delete( WP_User $user ): bool {
		require_once ABSPATH . 'wp-admin/includes/user.php';
		return wp_delete_user( $user->ID );
	}
}

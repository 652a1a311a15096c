<?php
/**
 * Enforces least privilege for service accounts, whatever other plugins do to roles.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Security;

use ServiceIntegration\Abilities\Abilities;
use ServiceIntegration\Abilities\Mcp_Server;
use ServiceIntegration\Support\Logger;
use WP_Error;
use WP_REST_Request;
use WP_User;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Four locks, each cheap and independent:
 * 1. user_has_cap (last priority): a service account's capabilities are intersected
 *    with the role's allow-list, so add_cap() on the role or another user_has_cap
 *    filter cannot widen it. What was cut is recorded as widening.
 * 2. rest_pre_dispatch: a service account may call only an explicit list of routes;
 *    any other route answers rest_forbidden (users, plugins, settings, orders...),
 *    including routes other plugins add later.
 * 3. Service accounts are never listed as authors by /wp/v2/users, which would
 *    otherwise expose the account's login name to anyone.
 * 4. Abilities (WordPress 7.1's filters): a service account may run only the plugin's own,
 *    whatever the transport (the REST run route, the MCP adapter, PHP), and its listings
 *    show only those. Before 7.1 the route allow-list (lock 2) is the one that holds.
 */
final class Capability_Clamp {

	const WIDENING_OPTION = 'service_integration_widening';

	/**
	 * Capabilities cut during this request, for reporting.
	 *
	 * @var array<string, true>
	 */
	private static array $cut = array();

	/**
	 * Registers the filters.
	 */
	public static function register(): void {
		add_filter( 'user_has_cap', array( self::class, 'clamp_capabilities' ), PHP_INT_MAX, 4 );
		add_filter( 'rest_pre_dispatch', array( self::class, 'restrict_routes' ), 10, 3 );
		add_filter( 'rest_user_query', array( self::class, 'hide_service_accounts' ) );
		add_filter( 'wp_ability_permission_result', array( self::class, 'restrict_abilities' ), PHP_INT_MAX, 2 );
		add_filter( 'wp_get_abilities_item_include', array( self::class, 'list_own_abilities' ), PHP_INT_MAX, 2 );
		add_action( 'shutdown', array( self::class, 'persist_widening' ) );
	}

	/**
	 * Intersects a service account's capabilities with the allow-list.
	 *
	 * @param array<string, bool> $allcaps All capabilities of the user.
	 * @param string[]            $caps    Required primitive capabilities.
	 * @param array               $args    Arguments of the capability check.
	 * @param WP_User             $user    User.
	 * @return array<string, bool>
	 */
	public static function clamp_capabilities( $allcaps, $caps, $args, $user ) {
		if ( ! Service_Role::is_service_account( $user ) ) {
			return $allcaps;
		}
		$clamped = Clamp_Rules::clamp( $allcaps, array_values( (array) $user->roles ), Service_Role::granted(), Service_Role::ROLE );
		foreach ( $clamped['cut'] as $cap ) {
			self::$cut[ $cap ] = true;
		}
		return $clamped['caps'];
	}

	/**
	 * Refuses routes outside the service account's allow-list.
	 *
	 * @param mixed           $result  Response to short-circuit with, or null.
	 * @param \WP_REST_Server $server  Server.
	 * @param WP_REST_Request $request Request.
	 * @return mixed
	 */
	public static function restrict_routes( $result, $server, $request ) {
		if ( null !== $result || ! Service_Role::is_service_account( wp_get_current_user() ) ) {
			return $result;
		}
		if ( Clamp_Rules::route_allowed( $request->get_route(), (array) self::allowed_routes() ) ) {
			return $result;
		}
		return self::forbidden();
	}

	/**
	 * Refuses a service account every ability but the plugin's own, even one whose own
	 * permission check it passes (core/get-user-info asks only for a logged-in user).
	 *
	 * @param bool|WP_Error $result The ability's permission result.
	 * @param string        $name   Ability name.
	 * @return bool|WP_Error
	 */
	public static function restrict_abilities( $result, $name ) {
		if ( ! Service_Role::is_service_account( wp_get_current_user() ) || ( is_string( $name ) && Clamp_Rules::ability_allowed( $name, Abilities::names() ) ) ) {
			return $result;
		}
		return self::forbidden();
	}

	/**
	 * Lists only the plugin's own abilities to a service account: the others would be refused.
	 *
	 * @param bool        $fields  Whether the ability is listed.
	 * @param \WP_Ability $ability Ability.
	 */
	public static function list_own_abilities( $fields, $ability ): bool {
		if ( ! $fields || ! Service_Role::is_service_account( wp_get_current_user() ) ) {
			return (bool) $fields;
		}
		return Clamp_Rules::ability_allowed( $ability->get_name(), Abilities::names() );
	}

	/**
	 * The refusal of every lock: core's code, 403 for the signed-in account.
	 */
	private static function forbidden(): WP_Error {
		return new WP_Error(
			'rest_forbidden',
			__( 'Sorry, you are not allowed to do that.', 'service-integration' ),
			array( 'status' => rest_authorization_required_code() )
		);
	}

	/**
	 * Route patterns a service account may call (capability checks still apply on each).
	 *
	 * @return string[]
	 */
	public static function allowed_routes(): array {
		/**
		 * Filters the REST routes (regular expressions without delimiters) a service account may call.
		 *
		 * @since 0.1.0
		 *
		 * @param string[] $routes Route patterns.
		 */
		return apply_filters(
			'service_integration_allowed_routes',
			Clamp_Rules::default_routes( \ServiceIntegration\Manufacturing\Manufacturing_Order_Type::REST_BASE, Abilities::names(), Mcp_Server::rest_route() )
		);
	}

	/**
	 * Excludes service accounts from user listings for anyone who cannot list users.
	 *
	 * @param array $args WP_User_Query arguments.
	 * @return array
	 */
	public static function hide_service_accounts( $args ) {
		if ( ! current_user_can( 'list_users' ) ) {
			$args['role__not_in'] = array_merge( (array) ( $args['role__not_in'] ?? array() ), array( Service_Role::ROLE ) );
		}
		return $args;
	}

	/**
	 * Widening seen in this request (runtime filters), stored on the role (add_cap), or
	 * extra roles held by a service account ("role:<slug>").
	 *
	 * @return string[]
	 */
	public static function detected_widening(): array {
		$seen = (array) get_option( self::WIDENING_OPTION, array() );
		return array_values( array_unique( array_merge( Service_Role::stored_widening(), Service_Role::stored_extra_roles(), array_keys( self::$cut ), array_keys( $seen ) ) ) );
	}

	/**
	 * Remembers runtime widening so the site owner is told even when it happened in an API call.
	 */
	public static function persist_widening(): void {
		if ( ! self::$cut ) {
			return;
		}
		$seen       = (array) get_option( self::WIDENING_OPTION, array() );
		$remembered = Clamp_Rules::remember( array_keys( self::$cut ), $seen, gmdate( 'c' ) );
		if ( ! $remembered['new'] ) {
			return;
		}
		update_option( self::WIDENING_OPTION, $remembered['seen'], false );
		Logger::error( 'service-integration: capabilities or roles (role:<slug>) refused to the service_integration role (granted by another plugin or filter): ' . implode( ', ', $remembered['new'] ) );
	}

	/**
	 * Clears the remembered runtime widening (after the site owner dealt with it).
	 */
	public static function reset_widening(): void {
		delete_option( self::WIDENING_OPTION );
		self::$cut = array();
	}
}

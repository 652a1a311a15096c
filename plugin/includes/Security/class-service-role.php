<?php
/**
 * The service_integration role: built from scratch with an explicit capability list.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Security;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Capabilities: read, edit and publish manufacturing orders (not others' records), edit
 * published ones, and read paid orders (lire_commandes_payees); never edit_posts,
 * edit_shop_orders, nor anything that manages users, plugins or settings. Plus two that
 * WordPress needs for the intent to hold (docs/api/service-account.md):
 * - edit_commande_fabrications: with map_meta_cap, creating a record and editing
 *   one's own draft map to this primitive (the type's edit_posts / create_posts).
 * - read_commande_fabrications: the type's `read` capability, so records are not
 *   readable by visitors; the account still reads only its own (controller rule).
 * No delete capability: an automation that only creates has no need to delete.
 */
final class Service_Role {

	const ROLE = 'service_integration';

	const CAPABILITIES = array(
		'read'                                 => true,
		'edit_commande_fabrication'            => true,
		'edit_commande_fabrications'           => true,
		'edit_others_commande_fabrications'    => false,
		'publish_commande_fabrications'        => true,
		'edit_published_commande_fabrications' => true,
		'read_commande_fabrications'           => true,
		'lire_commandes_payees'                => true,
	);

	/**
	 * Capabilities the role grants (value true).
	 *
	 * @return string[]
	 */
	public static function granted(): array {
		return array_keys( array_filter( self::CAPABILITIES ) );
	}

	/**
	 * Creates the role unless a role with this slug exists (then it is left as it is:
	 * a site owner's changes are reported as widening, never silently reverted).
	 */
	public static function install(): void {
		if ( null === get_role( self::ROLE ) ) {
			add_role( self::ROLE, __( 'Service integration', 'service-integration' ), self::CAPABILITIES );
		}
	}

	/**
	 * Removes the role (uninstall only).
	 */
	public static function remove(): void {
		remove_role( self::ROLE );
	}

	/**
	 * Whether a user holds this role, alone or with others (the accounts the clamp
	 * applies to): a second role added by another plugin must not switch the clamp off.
	 *
	 * @param \WP_User|null $user User.
	 */
	public static function is_service_account( $user ): bool {
		return $user instanceof \WP_User && in_array( self::ROLE, (array) $user->roles, true );
	}

	/**
	 * Roles a service account holds besides this one (widening, reported as "role:<slug>").
	 *
	 * @param \WP_User $user Service account.
	 * @return string[]
	 */
	public static function extra_roles( \WP_User $user ): array {
		return array_values( array_diff( (array) $user->roles, array( self::ROLE ) ) );
	}

	/**
	 * Extra roles held by any service account on the site, as "role:<slug>".
	 *
	 * @return string[]
	 */
	public static function stored_extra_roles(): array {
		$found = array();
		foreach ( get_users(
			array(
				'role'   => self::ROLE,
				'number' => 100,
			)
		) as $user ) {
			foreach ( self::extra_roles( $user ) as $role ) {
				$found[ 'role:' . $role ] = true;
			}
		}
		return array_keys( $found );
	}

	/**
	 * Capabilities stored on the role that are true but not granted by this plugin:
	 * persistent widening by another plugin or by hand (add_cap).
	 *
	 * @return string[]
	 */
	public static function stored_widening(): array {
		$role = get_role( self::ROLE );
		if ( null === $role ) {
			return array();
		}
		return array_values( array_diff( array_keys( array_filter( $role->capabilities ) ), self::granted() ) );
	}
}

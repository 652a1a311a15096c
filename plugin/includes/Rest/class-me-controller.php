<?php
/**
 * REST: GET /service-integration/v1/me — lets an automation check its credentials.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Rest;

use ServiceIntegration\Manufacturing\Manufacturing_Order_Type;
use ServiceIntegration\Security\Capability_Clamp;
use ServiceIntegration\Security\Service_Role;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Answers who the caller is, its role and effective capabilities, and whether the
 * role was widened by someone else (which the clamp refuses, but the owner must fix).
 */
final class Me_Controller extends Controller {

	/**
	 * Primitive capabilities the integration must never hold, reported with their
	 * effective value (user_can, after every filter) so widening shows at once.
	 */
	const SENSITIVE_CAPABILITIES = array(
		'edit_posts',
		'edit_others_posts',
		'publish_posts',
		'edit_pages',
		'upload_files',
		'unfiltered_html',
		'edit_shop_orders',
		'read_private_shop_orders',
		'manage_woocommerce',
		'list_users',
		'create_users',
		'edit_users',
		'delete_users',
		'promote_users',
		'activate_plugins',
		'install_plugins',
		'edit_plugins',
		'delete_plugins',
		'switch_themes',
		'edit_theme_options',
		'manage_options',
		'export',
		'import',
		'edit_others_commande_fabrications',
		'read_private_commande_fabrications',
		'delete_commande_fabrications',
		'delete_published_commande_fabrications',
		'delete_others_commande_fabrications',
	);

	/**
	 * The route's base.
	 *
	 * @var string
	 */
	protected $rest_base = 'me';

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		$this->register_route( '', array( $this->endpoint( WP_REST_Server::READABLE, 'get_item', $this->context_args() ) ) );
	}

	/**
	 * Any authenticated user.
	 *
	 * @param WP_REST_Request $request Request.
	 * @return true|\WP_Error
	 */
	public function permissions_check( $request ) {
		if ( is_user_logged_in() ) {
			return true;
		}
		return new \WP_Error( 'rest_not_logged_in', __( 'You are not currently logged in.', 'service-integration' ), array( 'status' => 401 ) );
	}

	/**
	 * Describes the caller.
	 *
	 * @param WP_REST_Request $request Request.
	 */
	public function get_item( $request ): WP_REST_Response {
		$user       = wp_get_current_user();
		$is_service = Service_Role::is_service_account( $user );
		$candidates = $is_service ? array_keys( Service_Role::CAPABILITIES ) : array( 'read', 'lire_commandes_payees', 'manage_options' );
		$effective  = array_values( array_filter( $candidates, static fn( string $cap ): bool => self::holds( $user, $cap ) ) );
		$sensitive  = array();
		foreach ( self::SENSITIVE_CAPABILITIES as $cap ) {
			$sensitive[ $cap ] = user_can( $user, $cap );
		}

		$caller = array(
			'id'                     => $user->ID,
			'username'               => $user->user_login,
			'roles'                  => array_values( $user->roles ),
			'is_service_account'     => $is_service,
			'capabilities'           => $effective,
			'expected_capabilities'  => $is_service ? Service_Role::granted() : null,
			'sensitive_capabilities' => $sensitive,
			'widening_detected'      => $is_service ? Capability_Clamp::detected_widening() : array(),
			'application_password'   => rest_get_authenticated_app_password(),
		);
		return $this->view_response( $caller, $request );
	}

	/**
	 * Whether the user holds a capability. A per-record meta capability (the type's
	 * edit_post / read_post / delete_post) cannot be asked without a record (core's
	 * _doing_it_wrong): it is granted by the user's roles, then mapped per record.
	 *
	 * @param \WP_User $user User.
	 * @param string   $cap  Capability.
	 */
	private static function holds( \WP_User $user, string $cap ): bool {
		$type = get_post_type_object( Manufacturing_Order_Type::POST_TYPE );
		$meta = $type ? array( $type->cap->edit_post, $type->cap->read_post, $type->cap->delete_post ) : array();
		if ( ! in_array( $cap, $meta, true ) ) {
			return user_can( $user, $cap );
		}
		foreach ( (array) $user->roles as $slug ) {
			$role = get_role( $slug );
			if ( $role && $role->has_cap( $cap ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The caller.
	 *
	 * @return array<string, mixed>
	 */
	protected function item_schema(): array {
		return Schemas\Me::caller();
	}
}

<?php
/**
 * The capability clamp's decisions.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Abilities\Abilities;
use ServiceIntegration\Abilities\Mcp_Server;
use ServiceIntegration\Manufacturing\Manufacturing_Order_Type;
use ServiceIntegration\Security\Clamp_Rules;
use ServiceIntegration\Security\Service_Role;

/**
 * Clamp_Rules: what a service account keeps, which routes and abilities it reaches, and which
 * widening is new.
 */
final class ClampRulesTest extends TestCase {

	/**
	 * Clamps with the role's real allow-list.
	 *
	 * @param array<string, bool> $allcaps Capabilities.
	 * @param string[]            $roles   Roles held.
	 */
	private static function clamp( array $allcaps, array $roles = array( Service_Role::ROLE ) ): array {
		return Clamp_Rules::clamp( $allcaps, $roles, Service_Role::granted(), Service_Role::ROLE );
	}

	/**
	 * The role as installed keeps its capabilities and nothing is cut.
	 */
	public function test_the_role_as_installed_keeps_its_capabilities_and_nothing_is_cut(): void {
		$allcaps  = array_merge( Service_Role::CAPABILITIES, array( Service_Role::ROLE => true ) );
		$expected = array_filter( Service_Role::CAPABILITIES );
		ksort( $expected );
		$clamped = self::clamp( $allcaps );
		$caps    = $clamped['caps'];
		unset( $caps[ Service_Role::ROLE ] );
		ksort( $caps );
		$this->assertSame( $expected, $caps );
		$this->assertSame( array(), $clamped['cut'] );
	}

	/**
	 * Capabilities another plugin grants, and what the clamp records.
	 *
	 * @return array<string, array{0: array<string, bool>, 1: string[]}>
	 */
	public static function widened(): array {
		return array(
			'a capability added on the role'     => array( array( 'manage_options' => true ), array( 'manage_options' ) ),
			'several, in their order'            => array(
				array(
					'edit_posts'       => true,
					'edit_shop_orders' => true,
				),
				array( 'edit_posts', 'edit_shop_orders' ),
			),
			'a capability denied is no widening' => array( array( 'delete_users' => false ), array() ),
			'the others\' records, even granted' => array( array( 'edit_others_commande_fabrications' => true ), array( 'edit_others_commande_fabrications' ) ),
			'none at all'                        => array( array(), array() ),
		);
	}

	/**
	 * Widening is cut from the answer and recorded.
	 *
	 * @dataProvider widened
	 * @param array<string, bool> $extra Capabilities added.
	 * @param string[]            $cut   Recorded as cut.
	 */
	public function test_capabilities_outside_the_allow_list_are_cut_and_recorded( array $extra, array $cut ): void {
		$clamped = self::clamp( array_merge( array( 'read' => true ), $extra ) );
		$this->assertSame( $cut, $clamped['cut'] );
		foreach ( array_keys( $extra ) as $cap ) {
			$this->assertArrayNotHasKey( $cap, $clamped['caps'] );
		}
		$this->assertTrue( $clamped['caps']['read'] );
		$this->assertTrue( $clamped['caps'][ Service_Role::ROLE ] );
	}

	/**
	 * An extra role is cut as a role not as a capability.
	 */
	public function test_an_extra_role_is_cut_as_a_role_not_as_a_capability(): void {
		$clamped = self::clamp(
			array(
				'read'           => true,
				'administrator'  => true,
				'manage_options' => true,
			),
			array( Service_Role::ROLE, 'administrator' )
		);
		$this->assertSame( array( 'role:administrator', 'manage_options' ), $clamped['cut'] );
		$this->assertSame(
			array(
				'read'             => true,
				Service_Role::ROLE => true,
			),
			$clamped['caps']
		);
	}

	/**
	 * The role is held even when allcaps lacks it and a denied granted cap stays denied.
	 */
	public function test_the_role_is_held_even_when_allcaps_lacks_it_and_a_denied_granted_cap_stays_denied(): void {
		$clamped = self::clamp( array( 'read' => false ) );
		$this->assertSame(
			array(
				'read'             => false,
				Service_Role::ROLE => true,
			),
			$clamped['caps']
		);
		$this->assertSame( array(), $clamped['cut'] );
	}

	/**
	 * Routes and whether a service account may call them.
	 *
	 * @return array<string, array{0: string, 1: bool}>
	 */
	public static function routes(): array {
		$base = '/wp/v2/' . Manufacturing_Order_Type::REST_BASE;
		return array(
			'the index'                            => array( '/', true ),
			'the index, empty'                     => array( '', true ),
			'the namespace'                        => array( '/service-integration/v1', true ),
			'the namespace, trailing slash'        => array( '/service-integration/v1/', true ),
			'me'                                   => array( '/service-integration/v1/me', true ),
			'paid orders'                          => array( '/service-integration/v1/commandes-payees', true ),
			'manufacturing orders'                 => array( $base, true ),
			'one manufacturing order'              => array( $base . '/42', true ),
			'one manufacturing order, slash'       => array( $base . '/42/', true ),
			'a manufacturing order by name'        => array( $base . '/abc', false ),
			'a manufacturing order\'s revisions'   => array( $base . '/42/revisions', false ),
			'the abilities listing'                => array( '/wp-abilities/v1/abilities', true ),
			'an own ability'                       => array( '/wp-abilities/v1/abilities/service-integration/list-paid-orders', true ),
			'an own ability, run'                  => array( '/wp-abilities/v1/abilities/service-integration/create-manufacturing-order/run', true ),
			'a core ability'                       => array( '/wp-abilities/v1/abilities/core/get-user-info', false ),
			'a core ability, run'                  => array( '/wp-abilities/v1/abilities/core/get-user-info/run', false ),
			'an own ability\'s name as prefix'     => array( '/wp-abilities/v1/abilities/service-integration/list-paid-orders-all', false ),
			'the plugin\'s MCP server'             => array( '/mcp/service-integration', true ),
			'the plugin\'s MCP server, slash'      => array( '/mcp/service-integration/', true ),
			'the MCP adapter\'s default server'    => array( '/mcp/mcp-adapter-default-server', false ),
			'another MCP server'                   => array( '/mcp/service-integration-other', false ),
			'users'                                => array( '/wp/v2/users', false ),
			'settings'                             => array( '/wp/v2/settings', false ),
			'plugins'                              => array( '/wp/v2/plugins', false ),
			'WooCommerce orders'                   => array( '/wc/v3/orders', false ),
			'the outbox (administrators only)'     => array( '/service-integration/v1/outbox', false ),
			'a route that only starts alike'       => array( '/service-integration/v1/meme', false ),
			'a route that contains an allowed one' => array( '/x/service-integration/v1/me', false ),
		);
	}

	/**
	 * The default allow-list is matched whole.
	 *
	 * @dataProvider routes
	 * @param string $route   Route.
	 * @param bool   $allowed Whether it may be called.
	 */
	public function test_the_default_routes_let_through_only_what_a_service_account_uses( string $route, bool $allowed ): void {
		$patterns = Clamp_Rules::default_routes( Manufacturing_Order_Type::REST_BASE, Abilities::names(), Mcp_Server::rest_route() );
		$this->assertSame( $allowed, Clamp_Rules::route_allowed( $route, $patterns ) );
	}

	/**
	 * No pattern allows nothing; ability names and the MCP route are matched literally.
	 */
	public function test_no_pattern_allows_nothing_and_an_ability_name_is_quoted(): void {
		$this->assertFalse( Clamp_Rules::route_allowed( '/', array() ) );
		$patterns = Clamp_Rules::default_routes( 'x', array( 'a.b/c+d' ), '/mcp/a.b' );
		$this->assertTrue( Clamp_Rules::route_allowed( '/wp-abilities/v1/abilities/a.b/c+d/run', $patterns ) );
		$this->assertFalse( Clamp_Rules::route_allowed( '/wp-abilities/v1/abilities/aXb/c+d', $patterns ) );
		$this->assertFalse( Clamp_Rules::route_allowed( '/wp-abilities/v1/abilities/a.b/cd', $patterns ) );
		$this->assertTrue( Clamp_Rules::route_allowed( '/mcp/a.b', $patterns ) );
		$this->assertFalse( Clamp_Rules::route_allowed( '/mcp/aXb', $patterns ) );
	}

	/**
	 * Ability names.
	 *
	 * @return array<string, array{0: string, 1: bool}>
	 */
	public static function abilities(): array {
		return array(
			'list paid orders'     => array( 'service-integration/list-paid-orders', true ),
			'create a mo'          => array( 'service-integration/create-manufacturing-order', true ),
			'get a mo'             => array( 'service-integration/get-manufacturing-order', true ),
			'core user info'       => array( 'core/get-user-info', false ),
			'another plugin\'s'    => array( 'woocommerce/orders', false ),
			'the MCP adapter\'s'   => array( 'mcp-adapter/execute-ability', false ),
			'own name, other case' => array( 'Service-Integration/list-paid-orders', false ),
			'empty'                => array( '', false ),
		);
	}

	/**
	 * Only the plugin's own abilities.
	 *
	 * @dataProvider abilities
	 * @param string $name    Ability.
	 * @param bool   $allowed Whether a service account may run it.
	 */
	public function test_a_service_account_runs_only_the_plugins_abilities( string $name, bool $allowed ): void {
		$this->assertSame( $allowed, Clamp_Rules::ability_allowed( $name, Abilities::names() ) );
	}

	/**
	 * New widening is remembered with its moment and old widening keeps its own.
	 */
	public function test_new_widening_is_remembered_with_its_moment_and_old_widening_keeps_its_own(): void {
		$remembered = Clamp_Rules::remember(
			array( 'manage_options', 'role:administrator', 'edit_posts' ),
			array( 'manage_options' => '2026-01-01T00:00:00+00:00' ),
			'2026-02-02T00:00:00+00:00'
		);
		$this->assertSame( array( 'role:administrator', 'edit_posts' ), $remembered['new'] );
		$this->assertSame(
			array(
				'manage_options'     => '2026-01-01T00:00:00+00:00',
				'role:administrator' => '2026-02-02T00:00:00+00:00',
				'edit_posts'         => '2026-02-02T00:00:00+00:00',
			),
			$remembered['seen']
		);
	}

	/**
	 * Widening seen before is nothing new.
	 */
	public function test_widening_seen_before_is_nothing_new(): void {
		$seen = array( 'edit_posts' => '2026-01-01T00:00:00+00:00' );
		$this->assertSame(
			array(
				'seen' => $seen,
				'new'  => array(),
			),
			Clamp_Rules::remember( array( 'edit_posts' ), $seen, '2026-02-02T00:00:00+00:00' )
		);
		$this->assertSame(
			array(
				'seen' => $seen,
				'new'  => array(),
			),
			Clamp_Rules::remember( array(), $seen, '2026-02-02T00:00:00+00:00' )
		);
	}
}

<?php
/**
 * The plugin's abilities (WordPress's Abilities API, WordPress 6.9 and later).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Abilities;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Registers the plugin's category and its three abilities, each a thin front of a REST route
 * of the plugin (docs/api/abilities.md). Before 6.9 the two actions never fire, so nothing is
 * registered and nothing else changes.
 */
final class Abilities {

	const CATEGORY = 'service-integration';

	/**
	 * The abilities, by name.
	 *
	 * @return array<string, class-string> Ability name => class with args() and execute().
	 */
	public static function all(): array {
		return array(
			List_Paid_Orders::NAME           => List_Paid_Orders::class,
			Create_Manufacturing_Order::NAME => Create_Manufacturing_Order::class,
			Get_Manufacturing_Order::NAME    => Get_Manufacturing_Order::class,
		);
	}

	/**
	 * Names of the plugin's abilities.
	 *
	 * @return string[]
	 */
	public static function names(): array {
		return array_keys( self::all() );
	}

	/**
	 * Registers hooks.
	 */
	public static function register(): void {
		add_action( 'wp_abilities_api_categories_init', array( self::class, 'register_category' ) );
		add_action( 'wp_abilities_api_init', array( self::class, 'register_abilities' ) );
	}

	/**
	 * Registers the plugin's category.
	 */
	public static function register_category(): void {
		wp_register_ability_category(
			self::CATEGORY,
			array(
				'label'       => __( 'Service integration', 'service-integration' ),
				'description' => __( 'Paid orders and manufacturing orders, for automation tools and AI agents.', 'service-integration' ),
			)
		);
	}

	/**
	 * Registers the abilities.
	 */
	public static function register_abilities(): void {
		foreach ( self::all() as $name => $ability ) {
			wp_register_ability( $name, array( 'category' => self::CATEGORY ) + $ability::args() );
		}
	}

	/**
	 * Meta shared by the abilities: shown in the REST API (wp-abilities/v1) and offered to MCP
	 * clients. `public` seeds both from WordPress 7.1 on; `show_in_rest` says so to 6.9 and 7.0;
	 * WordPress's MCP adapter exposes an ability as a tool when `mcp.public` is true.
	 *
	 * @param array<string, bool> $annotations readonly, destructive, idempotent.
	 * @return array<string, mixed>
	 */
	public static function meta( array $annotations ): array {
		return array(
			'annotations'  => $annotations,
			'show_in_rest' => true,
			'public'       => true,
			'mcp'          => array(
				'public' => true,
				'type'   => 'tool',
			),
		);
	}
}

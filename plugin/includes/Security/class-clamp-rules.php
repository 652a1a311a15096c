<?php
/**
 * The capability clamp's decisions, on plain values.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Security;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What Capability_Clamp decides, apart from reading the current user, the filters and the
 * options: which capabilities a service account keeps and which were cut, which routes it may
 * call, which abilities it may run, and what widening is new. Kept free of WordPress so each
 * rule is tested on its own (tests/php/ClampRulesTest.php).
 */
final class Clamp_Rules {

	/**
	 * A service account's capabilities intersected with what its role grants, plus the role
	 * itself; and what was cut: granted capabilities outside the allow-list, and roles besides
	 * its own as "role:<slug>". Role names appear in allcaps too; those of roles it holds are not
	 * recorded as capabilities (the extra ones are, as roles).
	 *
	 * @param array<string, bool> $allcaps All capabilities of the user.
	 * @param string[]            $roles   Roles the user holds.
	 * @param string[]            $granted Capabilities the role grants.
	 * @param string              $role    The service role's slug.
	 * @return array{caps: array<string, bool>, cut: string[]}
	 */
	public static function clamp( array $allcaps, array $roles, array $granted, string $role ): array {
		$allowed = array_fill_keys( $granted, true );
		$held    = array_fill_keys( $roles, true );
		$cut     = array();
		foreach ( $roles as $other ) {
			if ( $role !== $other ) {
				$cut[ 'role:' . $other ] = true;
			}
		}
		foreach ( $allcaps as $cap => $is_granted ) {
			if ( $is_granted && ! isset( $allowed[ $cap ] ) && ! isset( $held[ $cap ] ) ) {
				$cut[ $cap ] = true;
			}
		}
		$caps          = array_intersect_key( $allcaps, $allowed );
		$caps[ $role ] = true;
		return array(
			'caps' => $caps,
			'cut'  => array_map( 'strval', array_keys( $cut ) ),
		);
	}

	/**
	 * The route patterns a service account may call before any filter: the index, the plugin's
	 * own routes it uses, the manufacturing orders, the Abilities API's listing and the
	 * plugin's own abilities, and the plugin's own MCP server (when the MCP Adapter is active).
	 *
	 * @param string   $base      REST base of the manufacturing orders.
	 * @param string[] $abilities The plugin's ability names.
	 * @param string   $mcp_route Route of the plugin's MCP server.
	 * @return string[] Regular expressions without delimiters.
	 */
	public static function default_routes( string $base, array $abilities, string $mcp_route ): array {
		$names = implode( '|', array_map( static fn( string $name ): string => preg_quote( $name, '#' ), $abilities ) );
		return array(
			'',
			'/service-integration/v1',
			'/service-integration/v1/me',
			'/service-integration/v1/commandes-payees',
			'/wp/v2/' . $base,
			'/wp/v2/' . $base . '/\d+',
			// The Abilities API (WordPress 6.9+): the listing, and the plugin's own abilities.
			'/wp-abilities/v1/abilities',
			'/wp-abilities/v1/abilities/(?:' . $names . ')(?:/run)?',
			// The plugin's MCP server, whose tools are its three abilities.
			preg_quote( $mcp_route, '#' ),
		);
	}

	/**
	 * Whether a route matches one of the patterns as a whole, trailing slashes aside (as
	 * untrailingslashit() removes them).
	 *
	 * @param string   $route    Route of the request.
	 * @param string[] $patterns Regular expressions without delimiters.
	 */
	public static function route_allowed( string $route, array $patterns ): bool {
		$route = rtrim( $route, '/\\' );
		foreach ( $patterns as $pattern ) {
			if ( preg_match( '#^' . $pattern . '$#', $route ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a service account may run an ability: only the plugin's own.
	 *
	 * @param string   $name Ability name.
	 * @param string[] $own  The plugin's ability names.
	 */
	public static function ability_allowed( string $name, array $own ): bool {
		return in_array( $name, $own, true );
	}

	/**
	 * The widening cut in this request that was not remembered yet, each with the moment it was
	 * first seen; the remembered ones keep theirs.
	 *
	 * @param string[]              $cut  Capabilities and "role:<slug>" cut in this request.
	 * @param array<string, string> $seen Remembered widening => when first seen.
	 * @param string                $now  The moment (ISO 8601).
	 * @return array{seen: array<string, string>, new: string[]}
	 */
	public static function remember( array $cut, array $seen, string $now ): array {
		$new = array();
		foreach ( $cut as $cap ) {
			if ( ! array_key_exists( $cap, $seen ) ) {
				$seen[ $cap ] = $now;
				$new[]        = $cap;
			}
		}
		return array(
			'seen' => $seen,
			'new'  => $new,
		);
	}
}

<?php
/**
 * WP-CLI: a collection route of the plugin and the routes of its items.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Cli;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A collection (webhook endpoints, inbound sources, application passwords) as the commands call
 * it: its items' routes, their lists without secrets, and what to do about an unknown id (how to
 * list them), a hint given to that error only.
 */
final class Collection_Route {

	/**
	 * A collection route.
	 *
	 * @param string $route     The collection's route under the plugin's namespace, e.g. /webhooks/endpoints.
	 * @param string $not_found The error code of an unknown id, e.g. endpoint_not_found.
	 * @param string $list_hint How to list the ids.
	 */
	public function __construct( private string $route, private string $not_found, private string $list_hint ) {
	}

	/**
	 * What to do about an unknown id, by error code (for Rest_Runner::call()'s hints).
	 *
	 * @return array<string, string>
	 */
	public function unknown_hint(): array {
		return array( $this->not_found => $this->list_hint );
	}

	/**
	 * The items, without their secrets (a secret is printed once, by the command that creates it).
	 *
	 * @param string $key The key of the items in the collection's answer.
	 * @return array<int, array<string, mixed>>
	 */
	public function items_without_secrets( string $key ): array {
		$answer = Rest_Runner::call( 'GET', $this->route );
		return array_map(
			static fn( array $item ): array => array_diff_key( $item, array( 'secrets' => true ) ),
			$answer[ $key ]
		);
	}

	/**
	 * Adds an item; exits 1 on an error answer.
	 *
	 * @param array<string, mixed>  $params The item's fields.
	 * @param array<string, string> $hints  What to do about an error, by its code.
	 * @return array<int|string, mixed> The new item.
	 */
	public function add( array $params, array $hints = array() ): array {
		return Rest_Runner::call( 'POST', $this->route, $params, $hints );
	}

	/**
	 * Calls the route of one item, or of one of its actions; exits 1 on an error answer, with how
	 * to list the ids when the id is unknown.
	 *
	 * @param string                $method HTTP method.
	 * @param string                $id     The item's id.
	 * @param string                $action The action's route under the item's, e.g. /enable; none for the item's own.
	 * @param array<string, mixed>  $params Query (GET) or body parameters.
	 * @param array<string, string> $hints  What to do about the action's own errors, by code.
	 * @return array<int|string, mixed>
	 */
	public function call( string $method, string $id, string $action = '', array $params = array(), array $hints = array() ): array {
		return Rest_Runner::call( $method, $this->route . '/' . rawurlencode( $id ) . $action, $params, $this->unknown_hint() + $hints );
	}
}

<?php
/**
 * The plugin's own MCP server, when WordPress's MCP Adapter is active.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Abilities;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Registers an MCP server with the MCP Adapter (0.4+) that offers the plugin's three abilities
 * as direct tools, over HTTP at /wp-json/mcp/service-integration and over STDIO with
 * `wp mcp-adapter serve --server=service-integration`. Each tool is the ability itself: its
 * name, schemas and annotations as the ability declares them, and the adapter runs it through
 * the ability's permission check (and so the capability clamp's ability lock). Without the
 * adapter the action never fires and nothing is registered.
 */
final class Mcp_Server {

	const SERVER_ID = 'service-integration';

	const ROUTE_NAMESPACE = 'mcp';

	const ROUTE = 'service-integration';

	/**
	 * Registers hooks.
	 */
	public static function register(): void {
		add_action( 'mcp_adapter_init', array( self::class, 'create' ) );
	}

	/**
	 * The server's REST route, as the route allow-list matches it.
	 */
	public static function rest_route(): string {
		return '/' . self::ROUTE_NAMESPACE . '/' . self::ROUTE;
	}

	/**
	 * Creates the server on the adapter.
	 *
	 * @param object $adapter The MCP Adapter (WP\MCP\Core\McpAdapter).
	 */
	public static function create( $adapter ): void {
		$transport = 'WP\\MCP\\Transport\\HttpTransport';
		if ( ! is_object( $adapter ) || ! method_exists( $adapter, 'create_server' ) || ! class_exists( $transport ) ) {
			return;
		}
		$adapter->create_server(
			self::SERVER_ID,
			self::ROUTE_NAMESPACE,
			self::ROUTE,
			__( 'Service Integration', 'service-integration' ),
			__( 'Paid orders and manufacturing orders: the Service Integration plugin’s abilities as tools.', 'service-integration' ),
			\ServiceIntegration\VERSION,
			array( $transport ),
			null,
			null,
			Abilities::names()
		);
	}
}

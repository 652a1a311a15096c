<?php
/**
 * The plugin's wp-admin page: a menu entry, a mount point, and the compiled TypeScript UI.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Admin;

use ServiceIntegration\Sidecar\Sidecar_Messages;

use const ServiceIntegration\PLUGIN_FILE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Thin by design: the page is a React app (plugin/admin/src, built by @wordpress/scripts
 * into plugin/build) that talks to the plugin's REST routes through wp.apiFetch, whose
 * REST root and nonce middlewares core already sets up in wp-admin.
 */
final class Admin_Page {

	const SLUG       = 'service-integration';
	const CAPABILITY = 'manage_options';
	const HANDLE     = 'service-integration-admin';
	const MOUNT_ID   = 'service-integration-admin';

	/**
	 * Hook suffix of the page, known once the menu is registered.
	 *
	 * @var string
	 */
	private static string $hook_suffix = '';

	/**
	 * Registers the menu and the enqueue callback.
	 */
	public static function register(): void {
		add_action( 'admin_menu', array( self::class, 'add_menu' ) );
		add_action( 'admin_enqueue_scripts', array( self::class, 'enqueue' ) );
	}

	/**
	 * Own top-level menu, administrators only (core refuses the page to anyone else).
	 */
	public static function add_menu(): void {
		$hook              = add_menu_page(
			__( 'Service Integration', 'service-integration' ),
			__( 'Service Integration', 'service-integration' ),
			self::CAPABILITY,
			self::SLUG,
			array( self::class, 'render' ),
			'dashicons-rest-api',
			81
		);
		self::$hook_suffix = is_string( $hook ) ? $hook : '';
	}

	/**
	 * The page: a heading and the mount point the app renders into.
	 */
	public static function render(): void {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to access this page.', 'service-integration' ), 403 );
		}
		echo '<div class="wrap service-integration-admin-wrap">';
		echo '<h1>' . esc_html__( 'Service Integration', 'service-integration' ) . '</h1>';
		if ( ! is_readable( self::asset_file() ) ) {
			printf(
				'<div class="notice notice-error"><p>%s <code>npm run build</code></p></div>',
				esc_html__( 'The admin page has not been built. From the plugin\'s project folder, run:', 'service-integration' )
			);
		}
		printf(
			'<noscript><div class="notice notice-warning"><p>%s</p></div></noscript>',
			esc_html__( 'This page needs JavaScript.', 'service-integration' )
		);
		echo '<div id="' . esc_attr( self::MOUNT_ID ) . '"></div>';
		echo '</div>';
	}

	/**
	 * Enqueues the app on this page only, with the dependencies and version of its asset file.
	 *
	 * @param string $hook_suffix Current admin page.
	 */
	public static function enqueue( $hook_suffix ): void {
		if ( '' === self::$hook_suffix || $hook_suffix !== self::$hook_suffix ) {
			return;
		}
		$asset_file = self::asset_file();
		if ( ! is_readable( $asset_file ) ) {
			return;
		}
		$asset = require $asset_file;
		$deps  = isset( $asset['dependencies'] ) && is_array( $asset['dependencies'] ) ? $asset['dependencies'] : array();
		$ver   = isset( $asset['version'] ) ? (string) $asset['version'] : null;

		if ( in_array( 'react-jsx-runtime', $deps, true ) ) {
			self::ensure_jsx_runtime();
		}

		$build = plugin_dir_url( PLUGIN_FILE ) . 'build/';
		wp_enqueue_script( self::HANDLE, $build . 'index.js', $deps, $ver, true );
		wp_set_script_translations( self::HANDLE, 'service-integration', plugin_dir_path( PLUGIN_FILE ) . 'languages' );
		// The sidecar's codes in the site's language, from their one list (plugin/admin/src/api/code-messages.ts).
		wp_add_inline_script(
			self::HANDLE,
			'window.serviceIntegrationAdmin = ' . wp_json_encode( array( 'codeMessages' => (object) Sidecar_Messages::all() ) ) . ';',
			'before'
		);

		if ( is_readable( plugin_dir_path( PLUGIN_FILE ) . 'build/index.css' ) ) {
			wp_enqueue_style( self::HANDLE, $build . 'index.css', array( 'wp-components' ), $ver );
			wp_style_add_data( self::HANDLE, 'rtl', 'replace' );
		} else {
			wp_enqueue_style( 'wp-components' );
		}
	}

	/**
	 * WordPress 6.6 added the `react-jsx-runtime` script the build's JSX needs; on 6.5
	 * (which the plugin supports) it is provided here from core's own React.
	 */
	private static function ensure_jsx_runtime(): void {
		if ( wp_script_is( 'react-jsx-runtime', 'registered' ) ) {
			return;
		}
		wp_register_script( 'react-jsx-runtime', false, array( 'react' ), '18', true );
		// jsx( type, props, key ) / jsxs for static children, on top of createElement: static
		// children are passed as separate arguments, as React's own runtime treats them.
		$shim = <<<'JS'
window.ReactJSXRuntime = window.ReactJSXRuntime || ( function ( React ) {
	function element( type, props, key, isStatic ) {
		var config = {}, name, children = props ? props.children : undefined;
		for ( name in props ) {
			if ( name !== 'children' && Object.prototype.hasOwnProperty.call( props, name ) ) {
				config[ name ] = props[ name ];
			}
		}
		if ( key !== undefined ) {
			config.key = key;
		}
		if ( ! props || ! ( 'children' in props ) ) {
			return React.createElement( type, config );
		}
		if ( isStatic && Array.isArray( children ) ) {
			return React.createElement.apply( null, [ type, config ].concat( children ) );
		}
		return React.createElement( type, config, children );
	}
	return {
		Fragment: React.Fragment,
		jsx: function ( type, props, key ) { return element( type, props, key, false ); },
		jsxs: function ( type, props, key ) { return element( type, props, key, true ); }
	};
} )( window.React );
JS;
		wp_add_inline_script( 'react-jsx-runtime', $shim );
	}

	/**
	 * Path of the build's asset file (dependencies and version).
	 */
	private static function asset_file(): string {
		return plugin_dir_path( PLUGIN_FILE ) . 'build/index.asset.php';
	}
}

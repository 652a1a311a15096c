<?php
/**
 * Activation, deactivation and version-gated upgrades.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Activation runs once; upgrades run on the first request after a version change,
 * because activation hooks do not run when a plugin is updated in place.
 */
final class Lifecycle {

	const VERSION_OPTION = 'service_integration_version';

	/**
	 * Activation hook.
	 */
	public static function activate(): void {
		self::install();
		flush_rewrite_rules( false );
	}

	/**
	 * Deactivation keeps all data (roles, records, outbox); uninstall.php removes it.
	 */
	public static function deactivate(): void {
		wp_clear_scheduled_hook( 'service_integration_outbox_flush' );
		Inbound\Inbound_Processor::unschedule();
		flush_rewrite_rules( false );
	}

	/**
	 * Runs install steps when the stored version differs from the code's, or when the
	 * role is missing (activation did not run, e.g. a must-use or network install).
	 */
	public static function maybe_upgrade(): void {
		if ( get_option( self::VERSION_OPTION ) !== VERSION || null === get_role( Security\Service_Role::ROLE ) || get_option( Outbound\Outbox::DB_VERSION_OPTION ) !== Outbound\Outbox::DB_VERSION ) {
			self::install();
		}
	}

	/**
	 * Idempotent install steps, called explicitly: on activation the plugin's
	 * own hooks are not registered yet, so an action would reach nobody.
	 */
	private static function install(): void {
		Security\Service_Role::install();
		Outbound\Outbox::install();
		Inbound\Inbound_Store::install();
		$administrator = get_role( 'administrator' );
		if ( $administrator ) {
			foreach ( Manufacturing\Manufacturing_Order_Type::ADMIN_CAPABILITIES as $cap ) {
				$administrator->add_cap( $cap );
			}
			// Reading paid orders is the integration's job; administrators see them in WooCommerce.
		}
		update_option( self::VERSION_OPTION, VERSION, false );
	}
}

<?php
/**
 * Tells administrators when another plugin widened the integration role.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Admin;

use ServiceIntegration\Security\Capability_Clamp;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The clamp already refuses the extra capabilities; this makes sure someone knows,
 * because a plugin that widens roles it does not know is worth removing.
 */
final class Widening_Notice {

	/**
	 * Registers the notice.
	 */
	public static function register(): void {
		add_action( 'admin_notices', array( self::class, 'render' ) );
	}

	/**
	 * Prints the notice when widening was detected.
	 */
	public static function render(): void {
		if ( ! current_user_can( 'manage_options' ) ) {
			return;
		}
		$widening = Capability_Clamp::detected_widening();
		if ( ! $widening ) {
			return;
		}
		printf(
			'<div class="notice notice-warning" id="service-integration-widening"><p><strong>%1$s</strong> %2$s <code>%3$s</code></p></div>',
			esc_html__( 'Service Integration:', 'service-integration' ),
			esc_html__( 'another plugin or filter tried to give the service_integration role capabilities it must not have. They are refused; remove their source:', 'service-integration' ),
			esc_html( implode( ', ', $widening ) )
		);
	}
}

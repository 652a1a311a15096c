<?php
/**
 * Plain permalinks lose inbound webhooks: the admin warning, and the words Site Health shares.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Admin;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * With plain permalinks WordPress has no /wp-json/ rewrite: a POST there is served a page of the
 * site (the home page with HTTP 200 where it lists posts), so a provider may believe it delivered
 * a signed webhook that nothing stored.
 * Administrators are warned on the dashboard and the plugin's page, and Site Health has a test
 * (Site_Health, which reads the same rule and words from here).
 */
final class Plain_Permalinks {

	/**
	 * Registers the notice.
	 */
	public static function register(): void {
		add_action( 'admin_notices', array( self::class, 'render' ) );
	}

	/**
	 * Whether the site uses plain permalinks (no structure set).
	 */
	public static function are_plain(): bool {
		return '' === (string) get_option( 'permalink_structure' );
	}

	/**
	 * What goes wrong and what to do, in one translated sentence pair.
	 */
	public static function explanation(): string {
		return __( 'With plain permalinks, WordPress serves a page of the site at /wp-json/…, not the REST API (often the home page, with HTTP 200): a provider that posts a signed webhook to /wp-json/service-integration-inbound/v1/<source> may believe it was delivered, and nothing is stored. In Settings > Permalinks, choose any structure but Plain (for example "Post name").', 'service-integration' );
	}

	/**
	 * The Settings > Permalinks screen.
	 */
	public static function settings_url(): string {
		return admin_url( 'options-permalink.php' );
	}

	/**
	 * Prints the warning on the dashboard and the plugin's page while permalinks are plain.
	 */
	public static function render(): void {
		if ( ! current_user_can( 'manage_options' ) || ! self::are_plain() ) {
			return;
		}
		$screen = get_current_screen();
		if ( ! $screen || ! in_array( $screen->id, array( 'dashboard', 'toplevel_page_' . Admin_Page::SLUG ), true ) ) {
			return;
		}
		printf(
			'<div class="notice notice-error" id="service-integration-plain-permalinks"><p><strong>%1$s</strong> %2$s <a href="%3$s">%4$s</a></p></div>',
			esc_html__( 'Service Integration:', 'service-integration' ),
			esc_html( self::explanation() ),
			esc_url( self::settings_url() ),
			esc_html__( 'Open Settings > Permalinks', 'service-integration' )
		);
	}
}

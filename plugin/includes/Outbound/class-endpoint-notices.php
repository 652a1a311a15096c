<?php
/**
 * Tells the site owner when the sidecar disabled an endpoint.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The sidecar posts a signed `endpoint.disabled` notice (410 Gone, or days of
 * failures); it is kept until the endpoint is enabled again, shown as an admin notice,
 * and mailed once to the site's admin address.
 */
final class Endpoint_Notices {

	const OPTION = 'service_integration_disabled_endpoints';

	/**
	 * Registers hooks.
	 */
	public static function register(): void {
		add_action( 'service_integration_sidecar_notice', array( self::class, 'receive' ), 10, 2 );
		add_action( 'admin_notices', array( self::class, 'render' ) );
	}

	/**
	 * Records an endpoint.disabled notice.
	 *
	 * @param string $type   Notice type (sanitised: endpoint_disabled).
	 * @param array  $notice Whole notice.
	 */
	public static function receive( $type, $notice ): void {
		if ( 'endpoint_disabled' !== $type || empty( $notice['endpoint_id'] ) ) {
			return;
		}
		$id               = sanitize_text_field( (string) $notice['endpoint_id'] );
		$disabled         = (array) get_option( self::OPTION, array() );
		$first_time       = ! isset( $disabled[ $id ] );
		$disabled[ $id ]  = array(
			'url'    => esc_url_raw( (string) ( $notice['url'] ?? '' ) ),
			'reason' => sanitize_text_field( (string) ( $notice['reason'] ?? '' ) ),
			'at'     => gmdate( 'c' ),
		);
		update_option( self::OPTION, $disabled, false );
		if ( $first_time ) {
			wp_mail(
				get_option( 'admin_email' ),
				__( 'A webhook endpoint was disabled', 'service-integration' ),
				sprintf(
					/* translators: 1: endpoint URL, 2: reason. */
					__( "The webhook endpoint %1\$s was disabled: %2\$s\nEvents are kept; enable the endpoint again in wp-admin to redeliver them.", 'service-integration' ),
					$disabled[ $id ]['url'],
					$disabled[ $id ]['reason']
				)
			);
		}
	}

	/**
	 * Forgets an endpoint once it is enabled again.
	 *
	 * @param string $id Endpoint id.
	 */
	public static function forget( string $id ): void {
		$disabled = (array) get_option( self::OPTION, array() );
		unset( $disabled[ $id ] );
		update_option( self::OPTION, $disabled, false );
	}

	/**
	 * Disabled endpoints reported by the sidecar.
	 *
	 * @return array<string, array{url:string, reason:string, at:string}>
	 */
	public static function all(): array {
		return (array) get_option( self::OPTION, array() );
	}

	/**
	 * Admin notice.
	 */
	public static function render(): void {
		if ( ! current_user_can( 'manage_options' ) ) {
			return;
		}
		foreach ( self::all() as $endpoint ) {
			printf(
				'<div class="notice notice-error service-integration-endpoint-disabled"><p><strong>%1$s</strong> %2$s <code>%3$s</code>: %4$s</p></div>',
				esc_html__( 'Service Integration:', 'service-integration' ),
				esc_html__( 'a webhook endpoint was disabled', 'service-integration' ),
				esc_html( $endpoint['url'] ),
				esc_html( $endpoint['reason'] )
			);
		}
	}
}

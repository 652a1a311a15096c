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
 * failures); it is kept until the endpoint is enabled again or deleted, shown as an
 * admin notice, and mailed once to the site's admin address.
 *
 * The sidecar retries a notice until WordPress acknowledges it, so a notice sent (or
 * retried) before an endpoint was deleted can arrive after the DELETE. Endpoints deleted
 * through WordPress are remembered for a while (ids are never reused), and a notice
 * about one of them is acknowledged and dropped: no admin notice, no mail.
 */
final class Endpoint_Notices {

	const OPTION = 'service_integration_disabled_endpoints';

	/** Endpoint id => Unix time of its deletion through WordPress. */
	const DELETED_OPTION = 'service_integration_deleted_endpoints';

	/**
	 * How long a deletion is remembered. The sidecar drops the queued notices of an
	 * endpoint when it deletes it; what remains is a notice already in flight, or one
	 * from a sidecar restored from an older backup.
	 */
	const DELETED_TTL = 30 * DAY_IN_SECONDS;

	/** At most this many deletions are remembered (the oldest are forgotten first). */
	const DELETED_MAX = 1000;

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
		$id = sanitize_text_field( (string) $notice['endpoint_id'] );
		if ( self::was_deleted( $id ) ) {
			return;
		}
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
	 * Records that the endpoint was deleted (the sidecar answered the DELETE), and drops its
	 * notice: a late notice about it must not bring one back.
	 *
	 * @param string $id Endpoint id.
	 */
	public static function deleted( string $id ): void {
		$now     = time();
		$deleted = array_filter(
			(array) get_option( self::DELETED_OPTION, array() ),
			static fn( $at ) => (int) $at > $now - self::DELETED_TTL
		);
		unset( $deleted[ $id ] );
		$deleted[ $id ] = $now;
		if ( count( $deleted ) > self::DELETED_MAX ) {
			$deleted = array_slice( $deleted, -self::DELETED_MAX, null, true );
		}
		update_option( self::DELETED_OPTION, $deleted, false );
		self::forget( $id );
	}

	/**
	 * Whether the endpoint was deleted through WordPress recently.
	 *
	 * @param string $id Endpoint id.
	 */
	public static function was_deleted( string $id ): bool {
		$deleted = (array) get_option( self::DELETED_OPTION, array() );
		return isset( $deleted[ $id ] ) && (int) $deleted[ $id ] > time() - self::DELETED_TTL;
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

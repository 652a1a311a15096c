<?php
/**
 * Tells the site owner when the sidecar disabled an endpoint.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

use ServiceIntegration\Admin\Admin_Page;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The sidecar posts a signed `endpoint.disabled` notice (410 Gone, or days of
 * failures); it is kept until the sidecar's `endpoint.enabled` or `endpoint.deleted`
 * notice arrives, shown as an admin notice, and mailed once (to the site's admin address
 * unless a filter says otherwise).
 *
 * The sidecar drops an endpoint's queued notices when it enables or deletes it, but a
 * disabled notice already in flight, or one from a sidecar restored from an older backup,
 * can still arrive after the deletion. Deleted endpoints are remembered for a while (ids
 * are never reused), and a notice about one of them is acknowledged and dropped: no admin
 * notice, no mail.
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
	public function register(): void {
		add_action( 'service_integration_sidecar_notice', array( $this, 'receive' ), 10, 2 );
		add_action( 'admin_notices', array( $this, 'render' ) );
	}

	/**
	 * Handles the sidecar's endpoint notices: disabled (recorded), enabled (forgotten),
	 * deleted (forgotten and remembered as deleted).
	 *
	 * @param string $type   Notice type (sanitised: endpoint_disabled, endpoint_enabled, endpoint_deleted).
	 * @param array  $notice Whole notice.
	 */
	public function receive( $type, $notice ): void {
		if ( ! is_array( $notice ) || empty( $notice['endpoint_id'] ) || ! is_string( $notice['endpoint_id'] ) ) {
			return;
		}
		$id = sanitize_text_field( $notice['endpoint_id'] );
		if ( 'endpoint_enabled' === $type ) {
			self::forget( $id );
			return;
		}
		if ( 'endpoint_deleted' === $type ) {
			self::deleted( $id );
			return;
		}
		if ( 'endpoint_disabled' !== $type || self::was_deleted( $id ) ) {
			return;
		}
		$disabled        = (array) get_option( self::OPTION, array() );
		$first_time      = ! isset( $disabled[ $id ] );
		$disabled[ $id ] = array(
			'url'           => esc_url_raw( (string) ( $notice['url'] ?? '' ) ),
			'reason'        => sanitize_text_field( (string) ( $notice['reason'] ?? '' ) ),
			'at'            => gmdate( 'c' ),
			'failing_since' => self::iso_time( $notice['failing_since'] ?? null ),
			'last_error'    => self::last_error( $notice['last_error'] ?? null ),
		);
		update_option( self::OPTION, $disabled, false );
		if ( $first_time ) {
			self::mail( $disabled[ $id ] );
		}
	}

	/**
	 * Mails the site owner once per disable: what was disabled, why, since when it failed,
	 * its last error, and where to act.
	 *
	 * @param array $endpoint The recorded notice.
	 */
	private static function mail( array $endpoint ): void {
		/**
		 * Filters who is mailed when the sidecar disables a webhook endpoint.
		 *
		 * @since 0.3.0
		 *
		 * @param string[] $recipients Email addresses; an empty array sends no email. Default: the site's admin email.
		 * @param array    $endpoint   The disabled endpoint: url, reason, at, failing_since and last_error (message, status, at), as recorded.
		 */
		$recipients = apply_filters( 'service_integration_endpoint_disabled_email_recipients', array( get_option( 'admin_email' ) ), $endpoint );
		$recipients = array_values( array_filter( (array) $recipients, static fn( $address ) => is_string( $address ) && is_email( $address ) ) );
		if ( array() === $recipients ) {
			return;
		}
		$lines = array(
			/* translators: %s: endpoint URL. */
			sprintf( __( 'The sidecar disabled the webhook endpoint %s.', 'service-integration' ), $endpoint['url'] ),
			'',
			/* translators: %s: why the endpoint was disabled. */
			sprintf( __( 'Reason: %s', 'service-integration' ), $endpoint['reason'] ),
		);
		if ( null !== $endpoint['failing_since'] ) {
			/* translators: %s: date and time (UTC). */
			$lines[] = sprintf( __( 'Failing since: %s', 'service-integration' ), self::readable_time( $endpoint['failing_since'] ) );
		}
		if ( null !== $endpoint['last_error'] ) {
			/* translators: 1: error message, 2: date and time (UTC). */
			$lines[] = sprintf( __( 'Last error: %1$s (at %2$s)', 'service-integration' ), $endpoint['last_error']['message'], self::readable_time( $endpoint['last_error']['at'] ) );
		}
		$lines[] = '';
		$lines[] = __( 'No event is lost: the sidecar keeps them. Fix the receiver, then enable the endpoint again to redeliver what it missed:', 'service-integration' );
		$lines[] = admin_url( 'admin.php?page=' . Admin_Page::SLUG . '&tab=endpoints' );
		wp_mail(
			$recipients,
			/* translators: %s: site name. */
			sprintf( __( '[%s] A webhook endpoint was disabled', 'service-integration' ), wp_specialchars_decode( get_bloginfo( 'name' ), ENT_QUOTES ) ),
			implode( "\n", $lines )
		);
	}

	/**
	 * An ISO 8601 time from the notice, normalised to UTC; null when absent or not a time.
	 *
	 * @param mixed $value Value from the notice.
	 */
	private static function iso_time( $value ): ?string {
		if ( ! is_string( $value ) || '' === $value ) {
			return null;
		}
		$time = strtotime( $value );
		return false === $time ? null : gmdate( 'c', $time );
	}

	/**
	 * The notice's last error, with only the fields the alert shows; null when absent or malformed.
	 *
	 * @param mixed $value Value from the notice.
	 * @return array{message:string, status:int|null, at:string|null}|null
	 */
	private static function last_error( $value ): ?array {
		if ( ! is_array( $value ) || ! isset( $value['message'] ) || ! is_string( $value['message'] ) ) {
			return null;
		}
		return array(
			'message' => sanitize_text_field( $value['message'] ),
			'status'  => isset( $value['status'] ) && is_int( $value['status'] ) ? $value['status'] : null,
			'at'      => self::iso_time( $value['at'] ?? null ),
		);
	}

	/**
	 * A recorded UTC time as the mail shows it.
	 *
	 * @param string|null $iso ISO 8601 time.
	 */
	private static function readable_time( ?string $iso ): string {
		return null === $iso ? __( 'unknown', 'service-integration' ) : gmdate( 'Y-m-d H:i:s', (int) strtotime( $iso ) ) . ' UTC';
	}

	/**
	 * Forgets an endpoint once it is enabled again.
	 *
	 * @param string $id Endpoint id.
	 */
	private static function forget( string $id ): void {
		$disabled = (array) get_option( self::OPTION, array() );
		unset( $disabled[ $id ] );
		update_option( self::OPTION, $disabled, false );
	}

	/**
	 * Records that the endpoint was deleted (the sidecar's endpoint.deleted notice), and drops its
	 * notice: a late notice about it must not bring one back.
	 *
	 * @param string $id Endpoint id.
	 */
	private static function deleted( string $id ): void {
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
	 * @return array<string, array{url:string, reason:string, at:string, failing_since?:string|null, last_error?:array|null}>
	 */
	public static function all(): array {
		return (array) get_option( self::OPTION, array() );
	}

	/**
	 * Admin notice: what was disabled and why, that its events are held, and how to send them.
	 */
	public function render(): void {
		if ( ! current_user_can( 'manage_options' ) ) {
			return;
		}
		$page = admin_url( 'admin.php?page=' . Admin_Page::SLUG . '&tab=endpoints' );
		foreach ( self::all() as $id => $endpoint ) {
			$last_error = $endpoint['last_error'] ?? null;
			$url        = '<code>' . esc_html( $endpoint['url'] ) . '</code>';
			$message    = is_array( $last_error )
				? sprintf(
					/* translators: 1: endpoint URL, 2: why the sidecar disabled it, 3: the endpoint's last error, e.g. "HTTP 500: Internal Server Error". */
					esc_html__( 'a webhook endpoint was disabled, %1$s: %2$s. Last error: %3$s.', 'service-integration' ),
					$url,
					esc_html( $endpoint['reason'] ),
					esc_html( $last_error['message'] )
				)
				: sprintf(
					/* translators: 1: endpoint URL, 2: why the sidecar disabled it. */
					esc_html__( 'a webhook endpoint was disabled, %1$s: %2$s.', 'service-integration' ),
					$url,
					esc_html( $endpoint['reason'] )
				);
			$held = sprintf(
				/* translators: %s: the WP-CLI command that enables the endpoint. */
				esc_html__( 'Its events are kept, none is lost: once the receiver is fixed, enable the endpoint again (or run %s) to send what it missed, in order.', 'service-integration' ),
				'<code>wp service-integration endpoint enable ' . esc_html( (string) $id ) . '</code>'
			);
			printf(
				'<div class="notice notice-error service-integration-endpoint-disabled"><p><strong>%1$s</strong> %2$s %3$s <a href="%4$s">%5$s</a></p></div>',
				esc_html__( 'Service Integration:', 'service-integration' ),
				wp_kses( $message, array( 'code' => array() ) ),
				wp_kses( $held, array( 'code' => array() ) ),
				esc_url( $page ),
				esc_html__( 'Review the endpoint', 'service-integration' )
			);
		}
	}
}

<?php
/**
 * Signed, time-bounded HTTP client for the sidecar's API.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Sidecar;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Every call is signed, has a timeout, and checks the signature of the answer.
 * Failures come back as WP_Error with codes a REST route can pass through.
 */
final class Sidecar_Client {

	const DEFAULT_URL     = 'http://127.0.0.1:8787';
	const DEFAULT_TIMEOUT = 3.0;

	/**
	 * Constructor.
	 *
	 * @param string $base_url Sidecar base URL, without trailing slash.
	 * @param string $key      Shared key ('' when not configured).
	 * @param float  $timeout  Default timeout in seconds.
	 */
	public function __construct(
		private string $base_url,
		private string $key,
		private float $timeout = self::DEFAULT_TIMEOUT
	) {
		$this->base_url = untrailingslashit( $base_url );
	}

	/**
	 * Builds the client from wp-config constants, falling back to environment variables.
	 */
	public static function from_config(): self {
		return new self(
			(string) self::setting( 'SERVICE_INTEGRATION_SIDECAR_URL', self::DEFAULT_URL ),
			(string) self::setting( 'SERVICE_INTEGRATION_SIDECAR_KEY', '' ),
			(float) self::setting( 'SERVICE_INTEGRATION_SIDECAR_TIMEOUT', self::DEFAULT_TIMEOUT )
		);
	}

	/**
	 * The shared key, for verifying calls the sidecar makes to WordPress.
	 */
	public function key(): string {
		return $this->key;
	}

	/**
	 * Whether a shared key is configured.
	 */
	public function is_configured(): bool {
		return '' !== $this->key;
	}

	/**
	 * Base URL, for status displays.
	 */
	public function base_url(): string {
		return $this->base_url;
	}

	/**
	 * Sends a JSON request and returns the decoded answer.
	 *
	 * @param string     $method  HTTP method.
	 * @param string     $path    Path under the sidecar's base URL, starting with /.
	 * @param mixed      $payload Data to JSON-encode, or null for no body.
	 * @param float|null $timeout Seconds; the client default when null.
	 * @return array{status:int, body:mixed}|WP_Error
	 */
	public function request_json( string $method, string $path, $payload = null, ?float $timeout = null ) {
		$body = null === $payload ? '' : (string) wp_json_encode( $payload );
		return $this->request( $method, $path, $body, array(), $timeout );
	}

	/**
	 * Sends raw bytes (used to forward inbound webhooks unchanged).
	 *
	 * @param string                $method        HTTP method.
	 * @param string                $path          Path starting with /.
	 * @param string                $body          Exact body.
	 * @param array<string, string> $extra_headers Extra headers to send.
	 * @param float|null            $timeout       Seconds.
	 * @return array{status:int, body:mixed}|WP_Error
	 */
	public function request( string $method, string $path, string $body, array $extra_headers = array(), ?float $timeout = null ) {
		if ( ! $this->is_configured() ) {
			return new WP_Error(
				'sidecar_not_configured',
				__( 'The sidecar shared key is not configured (SERVICE_INTEGRATION_SIDECAR_KEY).', 'service-integration' ),
				array( 'status' => 503 )
			);
		}

		$method     = strtoupper( $method );
		$timestamp  = time();
		$request_id = wp_generate_uuid4();
		$headers    = array_merge(
			$extra_headers,
			array(
				'content-type'                       => 'application/json',
				Channel_Signature::HEADER_TIMESTAMP  => (string) $timestamp,
				Channel_Signature::HEADER_REQUEST_ID => $request_id,
				Channel_Signature::HEADER_SIGNATURE  => Channel_Signature::sign_request( $this->key, $timestamp, $request_id, $method, $path, $body ),
			)
		);

		// Plain wp_remote_request: the sidecar is on loopback by design, which the "safe" variant refuses.
		$response = wp_remote_request(
			$this->base_url . $path,
			array(
				'method'      => $method,
				'headers'     => $headers,
				'body'        => '' === $body ? null : $body,
				'timeout'     => $timeout ?? $this->timeout,
				'redirection' => 0,
			)
		);

		if ( is_wp_error( $response ) ) {
			return new WP_Error(
				'sidecar_unreachable',
				__( 'The sidecar did not answer. Is it running?', 'service-integration' ),
				array(
					'status' => 503,
					'reason' => $response->get_error_message(),
					// What to do, for the admin page and WP-CLI: the command that fits this site.
					'hint'   => Sidecar_Messages::unreachable_hint(),
				)
			);
		}

		return $this->read_signed_response( $response, $request_id );
	}

	/**
	 * Checks the answer's signature before trusting any of it.
	 *
	 * @param array  $response   wp_remote_request() result.
	 * @param string $request_id Id of the request sent.
	 * @return array{status:int, body:mixed}|WP_Error
	 */
	private function read_signed_response( array $response, string $request_id ) {
		$status    = (int) wp_remote_retrieve_response_code( $response );
		$raw       = (string) wp_remote_retrieve_body( $response );
		$timestamp = (int) wp_remote_retrieve_header( $response, Channel_Signature::HEADER_TIMESTAMP );
		$signature = (string) wp_remote_retrieve_header( $response, Channel_Signature::HEADER_SIGNATURE );
		$expected  = Channel_Signature::sign_response( $this->key, $timestamp, $request_id, $status, $raw );

		if ( ! Channel_Signature::is_valid( $expected, $signature, $timestamp ) && 413 === $status && '' === $signature ) {
			// Over twice its limit, the sidecar refuses a body before it can check (and so sign) the request.
			return new WP_Error(
				'sidecar_body_too_large',
				__( 'The sidecar refused the request as far over its size limit; raise SIDECAR_MAX_BODY_BYTES or lower the service_integration_outbox_batch_bytes filter.', 'service-integration' ),
				array( 'status' => 502 )
			);
		}
		if ( ! Channel_Signature::is_valid( $expected, $signature, $timestamp ) ) {
			return new WP_Error(
				'sidecar_bad_signature',
				__( 'The sidecar answer was not signed with the shared key; check that both sides use the same key.', 'service-integration' ),
				array( 'status' => 502 )
			);
		}

		$decoded = '' === $raw ? null : json_decode( $raw, true );
		if ( '' !== $raw && JSON_ERROR_NONE !== json_last_error() ) {
			return new WP_Error( 'sidecar_invalid_response', __( 'The sidecar answered with invalid JSON.', 'service-integration' ), array( 'status' => 502 ) );
		}

		return array(
			'status' => $status,
			'body'   => $decoded,
		);
	}

	/**
	 * Reads a setting from a constant, then the environment.
	 *
	 * @param string $name    Constant / environment variable name.
	 * @param mixed  $fallback Fallback.
	 * @return mixed
	 */
	private static function setting( string $name, $fallback ) {
		if ( defined( $name ) ) {
			return constant( $name );
		}
		$env = getenv( $name );
		return false === $env || '' === $env ? $fallback : $env;
	}
}

<?php
/**
 * HMAC signatures of the PHP <-> sidecar channel.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Sidecar;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Both directions sign `kind.timestamp.request-id.subject.body` with the shared key:
 * requests bind method and path, responses bind the status and the request id they
 * answer, so an old "valid" verdict cannot be replayed into a new request.
 * Must stay byte-for-byte identical to sidecar/src/channel/channel-signature.ts.
 */
final class Channel_Signature {

	const HEADER_TIMESTAMP  = 'x-si-timestamp';
	const HEADER_REQUEST_ID = 'x-si-request-id';
	const HEADER_SIGNATURE  = 'x-si-signature';
	const TOLERANCE_SECONDS = 300;

	/**
	 * Signature of a request.
	 *
	 * @param string $key        Shared key.
	 * @param int    $timestamp  Unix seconds.
	 * @param string $request_id Unique id of this request.
	 * @param string $method     Upper-case HTTP method.
	 * @param string $path       Path with query string, e.g. /v1/status.
	 * @param string $body       Exact body bytes.
	 */
	public static function sign_request( string $key, int $timestamp, string $request_id, string $method, string $path, string $body ): string {
		return 'v1=' . hash_hmac( 'sha256', "req.{$timestamp}.{$request_id}.{$method}.{$path}." . $body, $key );
	}

	/**
	 * Signature of a response.
	 *
	 * @param string $key        Shared key.
	 * @param int    $timestamp  Unix seconds.
	 * @param string $request_id Id of the request this answers.
	 * @param int    $status     HTTP status code.
	 * @param string $body       Exact body bytes.
	 */
	public static function sign_response( string $key, int $timestamp, string $request_id, int $status, string $body ): string {
		return 'v1=' . hash_hmac( 'sha256', "res.{$timestamp}.{$request_id}.{$status}." . $body, $key );
	}

	/**
	 * Constant-time check of a received signature and its timestamp.
	 *
	 * @param string $expected  Signature computed locally.
	 * @param string $received  Signature header value.
	 * @param int    $timestamp Timestamp header value.
	 */
	public static function is_valid( string $expected, string $received, int $timestamp ): bool {
		if ( abs( time() - $timestamp ) > self::TOLERANCE_SECONDS ) {
			return false;
		}
		return hash_equals( $expected, $received );
	}
}

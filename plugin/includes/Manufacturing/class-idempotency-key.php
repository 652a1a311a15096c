<?php
/**
 * The Idempotency-Key header's value and the fingerprint of the request it names.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Manufacturing;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Pure functions (no WordPress), so PHPUnit checks them alone.
 *
 * The IETF draft "The Idempotency-Key HTTP Header Field" makes the value a Structured Field
 * string (RFC 8941: `"…"`, printable ASCII, `\"` and `\\` escaped); Stripe and most clients
 * (n8n, Make, Zapier, curl users) send it bare. Both are taken, and name the same key.
 */
final class Idempotency_Key {

	/**
	 * Longest key, in characters (Stripe's limit).
	 */
	const MAX_LENGTH = 255;

	/**
	 * The key a header value names, or null when it names none: empty, longer than
	 * MAX_LENGTH, or with a character outside printable ASCII (controls, non-ASCII).
	 *
	 * @param string $value The header's value as received.
	 */
	public static function parse( string $value ): ?string {
		// Optional whitespace around a field value is not part of it (RFC 9110, section 5.5).
		$value = trim( $value, " \t" );
		if ( str_starts_with( $value, '"' ) ) {
			if ( ! preg_match( '/^"((?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\\\["\\\\])*)"$/', $value, $match ) ) {
				return null;
			}
			$value = (string) preg_replace( '/\\\\(["\\\\])/', '$1', $match[1] );
		} elseif ( ! preg_match( '/^[\x20-\x7E]*$/', $value ) ) {
			return null;
		}
		if ( '' === trim( $value ) || strlen( $value ) > self::MAX_LENGTH ) {
			return null;
		}
		return $value;
	}

	/**
	 * A digest of the request's parameters that does not depend on the order of an object's
	 * keys: the same request sent again, whatever its client's JSON encoder did, has the same
	 * fingerprint; any other value anywhere gives another.
	 *
	 * @param array $params The request's parameters (query, body).
	 */
	public static function fingerprint( array $params ): string {
		return hash( 'sha256', (string) wp_json_encode( self::canonical( $params ), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION | JSON_INVALID_UTF8_SUBSTITUTE ) );
	}

	/**
	 * Objects with their keys sorted (recursively); lists keep their order, which is data.
	 *
	 * @param mixed $value Value.
	 * @return mixed
	 */
	private static function canonical( $value ) {
		if ( ! is_array( $value ) ) {
			return $value;
		}
		$value = array_map( array( self::class, 'canonical' ), $value );
		if ( ! array_is_list( $value ) ) {
			ksort( $value, SORT_STRING );
			// An object even when its keys are "0", "1"…, so it never encodes as a list.
			return (object) $value;
		}
		return $value;
	}
}

<?php
/**
 * The data object of a stored inbound event.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Inbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A source says where its events carry their data (an RFC 6901 JSON pointer, '' for the whole
 * body); handlers receive that object. Pure, so tested on its own
 * (tests/php/InboundPayloadTest.php).
 */
final class Inbound_Payload {

	/**
	 * The stored body, decoded (big integers kept as strings), or null when it is no JSON.
	 *
	 * @param string $payload Stored body.
	 * @return mixed
	 */
	public static function decode( string $payload ) {
		return json_decode( $payload, true, 512, JSON_BIGINT_AS_STRING );
	}

	/**
	 * The event's data: what the pointer designates in the body, when that is an object or a
	 * list; null otherwise (the payload cannot be handed to a handler).
	 *
	 * @param mixed  $body    Decoded body.
	 * @param string $pointer JSON pointer.
	 * @return array|null
	 */
	public static function data( $body, string $pointer ): ?array {
		$data = self::resolve( $body, $pointer );
		return is_array( $data ) ? $data : null;
	}

	/**
	 * Resolves an RFC 6901 JSON pointer ('' = the whole document).
	 *
	 * @param mixed  $document Decoded JSON.
	 * @param string $pointer  Pointer.
	 * @return mixed|null
	 */
	public static function resolve( $document, string $pointer ) {
		if ( '' === $pointer ) {
			return $document;
		}
		foreach ( array_slice( explode( '/', $pointer ), 1 ) as $token ) {
			$token = str_replace( array( '~1', '~0' ), array( '/', '~' ), $token );
			if ( ! is_array( $document ) || ! array_key_exists( $token, $document ) ) {
				return null;
			}
			$document = $document[ $token ];
		}
		return $document;
	}
}

<?php
/**
 * Finding and redacting a customer's personal data in stored JSON: the same rules as the
 * sidecar's sidecar/src/privacy/personal-data.ts.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Privacy;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Pure functions over decoded JSON (objects as stdClass, so {} stays {} when re-encoded).
 *
 * A personal value is replaced by "redacted:sha256:<hex>", the SHA-256 of the value trimmed
 * and lowercased: it cannot be read back, but equal values still compare equal (the same
 * email in two events), so deduplication and counting keep working. Ids stay as they were.
 */
final class Personal_Data_Json {

	const PREFIX = 'redacted:sha256:';

	/**
	 * Keys of an object that, when the object holds the customer's email, hold the customer's data too.
	 */
	const PERSONAL_KEYS = array( 'first_name', 'last_name', 'name', 'full_name', 'email', 'phone', 'company', 'address_1', 'address_2', 'city', 'postcode' );

	/**
	 * The marker replacing a value.
	 *
	 * @param string $value Personal value.
	 */
	public static function marker( string $value ): string {
		return self::PREFIX . hash( 'sha256', self::normal( $value ) );
	}

	/**
	 * Whether a value is a marker already.
	 *
	 * @param mixed $value Any value.
	 */
	public static function is_marker( $value ): bool {
		return is_string( $value ) && 1 === preg_match( '/^redacted:sha256:[0-9a-f]{64}$/', $value );
	}

	/**
	 * Trimmed and lowercased.
	 *
	 * @param string $value Text.
	 */
	private static function normal( string $value ): string {
		return function_exists( 'mb_strtolower' ) ? mb_strtolower( trim( $value ), 'UTF-8' ) : strtolower( trim( $value ) );
	}

	/**
	 * Whether an object holds the email as one of its string values.
	 *
	 * @param object $item   Decoded JSON object.
	 * @param string $wanted Normalised email.
	 */
	private static function holds_email( object $item, string $wanted ): bool {
		foreach ( get_object_vars( $item ) as $value ) {
			if ( is_string( $value ) && self::normal( $value ) === $wanted ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Every object of a decoded JSON value, depth first.
	 *
	 * @param mixed $value Decoded JSON.
	 * @return object[]
	 */
	private static function objects( $value ): array {
		$found = array();
		if ( is_array( $value ) ) {
			foreach ( $value as $item ) {
				$found = array_merge( $found, self::objects( $item ) );
			}
		} elseif ( is_object( $value ) ) {
			$found[] = $value;
			foreach ( get_object_vars( $value ) as $item ) {
				$found = array_merge( $found, self::objects( $item ) );
			}
		}
		return $found;
	}

	/**
	 * The customer's data in a decoded JSON value: for every object holding the email
	 * (case-insensitive), its name (name, or first_name + last_name), email and phone.
	 * Empty: no match (the email only inside a longer string, or not at all).
	 *
	 * @param mixed  $json  Decoded JSON.
	 * @param string $email Email address.
	 * @return array<int, array{name?:string, email:string, phone?:string}>
	 */
	public static function find_fields( $json, string $email ): array {
		$wanted = self::normal( $email );
		$found  = array();
		foreach ( self::objects( $json ) as $item ) {
			if ( ! self::holds_email( $item, $wanted ) ) {
				continue;
			}
			$text   = static function ( string $key ) use ( $item ): ?string {
				return isset( $item->$key ) && is_string( $item->$key ) && '' !== trim( $item->$key ) ? $item->$key : null;
			};
			$joined = trim( ( $text( 'first_name' ) ?? '' ) . ' ' . ( $text( 'last_name' ) ?? '' ) );
			$name   = $text( 'name' ) ?? $text( 'full_name' ) ?? ( '' === $joined ? null : $joined );
			$fields = array();
			foreach ( get_object_vars( $item ) as $value ) {
				if ( is_string( $value ) && self::normal( $value ) === $wanted ) {
					$fields['email'] = $value;
					break;
				}
			}
			if ( null !== $name ) {
				$fields['name'] = $name;
			}
			if ( null !== $text( 'phone' ) ) {
				$fields['phone'] = $text( 'phone' );
			}
			$found[] = $fields;
		}
		return $found;
	}

	/**
	 * Replaces each value (case-insensitive, longest first, in one pass) inside a text by its marker.
	 *
	 * @param string   $text   Free text.
	 * @param string[] $values Values to replace.
	 */
	public static function redact_text( string $text, array $values ): string {
		$values = array_values( array_unique( array_filter( array_map( 'trim', $values ), static fn( $value ) => strlen( $value ) >= 2 ) ) );
		if ( array() === $values ) {
			return $text;
		}
		usort( $values, static fn( $a, $b ) => strlen( $b ) <=> strlen( $a ) );
		$pattern = '/' . implode( '|', array_map( static fn( $value ) => preg_quote( $value, '/' ), $values ) ) . '/iu';
		return (string) preg_replace_callback( $pattern, static fn( $found ) => self::marker( $found[0] ), $text );
	}

	/**
	 * The decoded JSON with the customer's data replaced by markers: in every object holding
	 * the email, the values of PERSONAL_KEYS; anywhere else, the email itself (also inside a
	 * longer string). Keys, numbers, ids and everything else stay as they were.
	 *
	 * @param mixed  $json  Decoded JSON (objects as stdClass).
	 * @param string $email Email address.
	 * @return mixed
	 */
	public static function redact( $json, string $email ) {
		$wanted = self::normal( $email );
		if ( is_string( $json ) ) {
			if ( self::normal( $json ) === $wanted ) {
				return self::marker( $json );
			}
			return false !== stripos( $json, trim( $email ) ) ? self::redact_text( $json, array( $email ) ) : $json;
		}
		if ( is_array( $json ) ) {
			return array_map( static fn( $item ) => self::redact( $item, $email ), $json );
		}
		if ( is_object( $json ) ) {
			$personal = self::holds_email( $json, $wanted );
			$out      = new \stdClass();
			foreach ( get_object_vars( $json ) as $key => $value ) {
				if ( $personal && in_array( (string) $key, self::PERSONAL_KEYS, true ) && is_string( $value ) && '' !== trim( $value ) && ! self::is_marker( $value ) ) {
					$out->$key = self::marker( $value );
				} else {
					$out->$key = self::redact( $value, $email );
				}
			}
			return $out;
		}
		return $json;
	}

	/**
	 * A stored payload (JSON text) with the customer's data replaced; non-JSON text gets the
	 * email replaced wherever it appears. Null when nothing changed.
	 *
	 * @param string $payload Stored text.
	 * @param string $email   Email address.
	 */
	public static function redact_payload( string $payload, string $email ): ?string {
		$json = json_decode( $payload );
		if ( JSON_ERROR_NONE !== json_last_error() ) {
			$text = self::redact_text( $payload, array( $email ) );
			return $text === $payload ? null : $text;
		}
		$redacted = self::redact( $json, $email );
		if ( $redacted == $json ) { // phpcs:ignore Universal.Operators.StrictComparisons.LooseEqual -- a structural comparison of decoded JSON (objects); === would compare their identity.
			return null;
		}
		return (string) wp_json_encode( $redacted, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
	}

	/**
	 * What an export lists of a stored payload: the fields found, or for non-JSON text holding
	 * the email, just the email. Empty: no match.
	 *
	 * @param string $payload Stored text.
	 * @param string $email   Email address.
	 * @return array{name?:string, email?:string, phone?:string}
	 */
	public static function payload_fields( string $payload, string $email ): array {
		$json = json_decode( $payload );
		if ( JSON_ERROR_NONE !== json_last_error() ) {
			return false !== stripos( $payload, trim( $email ) ) ? array( 'email' => trim( $email ) ) : array();
		}
		$found = self::find_fields( $json, $email );
		return array() === $found ? array() : array_merge( ...$found );
	}
}

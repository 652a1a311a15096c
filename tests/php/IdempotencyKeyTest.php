<?php
/**
 * The Idempotency-Key header's value and the request fingerprint.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Manufacturing\Idempotency_Key;

/**
 * Idempotency_Key::parse() (bare, as Stripe and the automation tools send it, or a Structured
 * Field string, as the IETF draft writes it) and Idempotency_Key::fingerprint().
 */
final class IdempotencyKeyTest extends TestCase {

	/**
	 * Header values and the key they name.
	 *
	 * @return array<string, array{string, string}>
	 */
	public function keys(): array {
		return array(
			'a UUID'                                => array( '8e03978e-40d5-43e8-bc93-6894a57f9324', '8e03978e-40d5-43e8-bc93-6894a57f9324' ),
			'one character'                         => array( 'a', 'a' ),
			'255 characters'                        => array( str_repeat( 'k', 255 ), str_repeat( 'k', 255 ) ),
			'inner spaces and punctuation'          => array( 'order 1234 / try #1', 'order 1234 / try #1' ),
			'whitespace around it (not part of it)' => array( " \tabc\t ", 'abc' ),
			'a Structured Field string'             => array( '"8e03978e-40d5"', '8e03978e-40d5' ),
			'escapes in a Structured Field string'  => array( '"a\\"b\\\\c"', 'a"b\\c' ),
			'255 characters once unquoted'          => array( '"' . str_repeat( 'k', 255 ) . '"', str_repeat( 'k', 255 ) ),
		);
	}

	/**
	 * Header values that name no key.
	 *
	 * @return array<string, array{string}>
	 */
	public function bad_keys(): array {
		return array(
			'empty'                                   => array( '' ),
			'only spaces'                             => array( '   ' ),
			'an empty Structured Field string'        => array( '""' ),
			'256 characters'                          => array( str_repeat( 'k', 256 ) ),
			'a tab inside'                            => array( "a\tb" ),
			'a newline inside'                        => array( "a\nb" ),
			'a NUL byte'                              => array( "a\0b" ),
			'DEL'                                     => array( "a\x7Fb" ),
			'non-ASCII (UTF-8)'                       => array( 'clé' ),
			'a Latin-1 byte'                          => array( "cl\xE9" ),
			'an unterminated Structured Field string' => array( '"abc' ),
			'text after the closing quote'            => array( '"abc"def' ),
			'an unescaped quote inside'               => array( '"a"b"' ),
			'an escape of another character'          => array( '"a\\nb"' ),
		);
	}

	/**
	 * A valid value names its key.
	 *
	 * @dataProvider keys
	 *
	 * @param string $header Header value.
	 * @param string $key    Key.
	 */
	public function test_a_valid_value_names_its_key( string $header, string $key ): void {
		$this->assertSame( $key, Idempotency_Key::parse( $header ) );
	}

	/**
	 * Anything else names none.
	 *
	 * @dataProvider bad_keys
	 *
	 * @param string $header Header value.
	 */
	public function test_anything_else_names_no_key( string $header ): void {
		$this->assertNull( Idempotency_Key::parse( $header ) );
	}

	/**
	 * The bare and the quoted form name the same key.
	 */
	public function test_bare_and_quoted_name_the_same_key(): void {
		$this->assertSame( Idempotency_Key::parse( 'abc-123' ), Idempotency_Key::parse( '"abc-123"' ) );
	}

	/**
	 * The order of an object's keys does not matter, at any depth.
	 */
	public function test_the_fingerprint_ignores_the_order_of_object_keys(): void {
		$one = array(
			'title' => 'Order 1234',
			'meta'  => array(
				'source_order_id' => 1234,
				'items'           => array(
					array(
						'sku'      => 'CHAIR',
						'quantity' => 4,
					),
				),
			),
		);
		$two = array(
			'meta'  => array(
				'items'           => array(
					array(
						'quantity' => 4,
						'sku'      => 'CHAIR',
					),
				),
				'source_order_id' => 1234,
			),
			'title' => 'Order 1234',
		);
		$this->assertSame( Idempotency_Key::fingerprint( $one ), Idempotency_Key::fingerprint( $two ) );
		$this->assertMatchesRegularExpression( '/^[0-9a-f]{64}$/', Idempotency_Key::fingerprint( $one ) );
	}

	/**
	 * Any other value, type or list order is another request.
	 *
	 * @return array<string, array{array, array}>
	 */
	public function different_requests(): array {
		return array(
			'another value'                  => array( array( 'title' => 'A' ), array( 'title' => 'B' ) ),
			'a number or its string'         => array( array( 'id' => 4 ), array( 'id' => '4' ) ),
			'an integer or a float'          => array( array( 'n' => 1 ), array( 'n' => 1.0 ) ),
			'a list in another order'        => array( array( 'l' => array( 1, 2 ) ), array( 'l' => array( 2, 1 ) ) ),
			'a missing key'                  => array(
				array(
					'a' => 1,
					'b' => 2,
				),
				array( 'a' => 1 ),
			),
			'a nested value'                 => array( array( 'meta' => array( 'q' => 1 ) ), array( 'meta' => array( 'q' => 2 ) ) ),
			'a list or an object of indexes' => array( array( 'l' => array( 'x' ) ), array( 'l' => array( 1 => 'x' ) ) ),
		);
	}

	/**
	 * Different requests have different fingerprints.
	 *
	 * @dataProvider different_requests
	 *
	 * @param array $one A request.
	 * @param array $two Another.
	 */
	public function test_another_request_has_another_fingerprint( array $one, array $two ): void {
		$this->assertNotSame( Idempotency_Key::fingerprint( $one ), Idempotency_Key::fingerprint( $two ) );
	}
}

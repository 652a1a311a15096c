<?php
/**
 * The data object handed to inbound handlers.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Inbound\Inbound_Payload;

/**
 * Inbound_Payload: the stored body decoded, and its data found with the source's JSON pointer.
 */
final class InboundPayloadTest extends TestCase {

	const BODY = array(
		'id'   => 'evt_1',
		'data' => array(
			'object' => array(
				'id'     => 'pi_1',
				'amount' => 1200,
				'tags'   => array( 'a', 'b' ),
			),
			'empty'  => array(),
			'none'   => null,
			'text'   => 'x',
		),
		'a/b'  => array( 'slash' => true ),
		'm~n'  => array( 'tilde' => true ),
		''     => array( 'blank' => true ),
		'~1'   => array( 'literal' => true ),
	);

	/**
	 * Pointers into BODY and what they designate.
	 *
	 * @return array<string, array{0: string, 1: mixed}>
	 */
	public static function pointers(): array {
		return array(
			'the whole document'        => array( '', self::BODY ),
			'a member'                  => array( '/data', self::BODY['data'] ),
			'a nested member'           => array( '/data/object', self::BODY['data']['object'] ),
			'a scalar'                  => array( '/data/object/amount', 1200 ),
			'a list element'            => array( '/data/object/tags/1', 'b' ),
			'past a list\'s end'        => array( '/data/object/tags/2', null ),
			'a missing member'          => array( '/data/missing', null ),
			'below a scalar'            => array( '/data/text/0', null ),
			'below a null'              => array( '/data/none/x', null ),
			'an escaped slash'          => array( '/a~1b', array( 'slash' => true ) ),
			'an escaped tilde'          => array( '/m~0n', array( 'tilde' => true ) ),
			'~01 is a literal ~1'       => array( '/~01', array( 'literal' => true ) ),
			'the empty key'             => array( '/', array( 'blank' => true ) ),
			'an unescaped slash splits' => array( '/a/b', null ),
			'a trailing slash'          => array( '/data/', null ),
		);
	}

	/**
	 * RFC 6901.
	 *
	 * @dataProvider pointers
	 * @param string $pointer  Pointer.
	 * @param mixed  $expected What it designates.
	 */
	public function test_a_pointer_designates_what_rfc_6901_says( string $pointer, $expected ): void {
		$this->assertSame( $expected, Inbound_Payload::resolve( self::BODY, $pointer ) );
	}

	/**
	 * Pointers whose target is no object or list.
	 *
	 * @return array<string, array{0: mixed, 1: string}>
	 */
	public static function no_data(): array {
		return array(
			'a scalar'               => array( self::BODY, '/data/object/amount' ),
			'a string'               => array( self::BODY, '/data/text' ),
			'null'                   => array( self::BODY, '/data/none' ),
			'missing'                => array( self::BODY, '/nothing' ),
			'a body that is no JSON' => array( null, '' ),
			'a scalar body'          => array( 42, '' ),
			'a string body'          => array( 'text', '/x' ),
		);
	}

	/**
	 * No data to hand to a handler.
	 *
	 * @dataProvider no_data
	 * @param mixed  $body    Decoded body.
	 * @param string $pointer Pointer.
	 */
	public function test_data_that_is_no_object_or_list_is_none( $body, string $pointer ): void {
		$this->assertNull( Inbound_Payload::data( $body, $pointer ) );
	}

	/**
	 * Data that is an object or a list even empty is handed over.
	 */
	public function test_data_that_is_an_object_or_a_list_even_empty_is_handed_over(): void {
		$this->assertSame( self::BODY['data']['object'], Inbound_Payload::data( self::BODY, '/data/object' ) );
		$this->assertSame( array(), Inbound_Payload::data( self::BODY, '/data/empty' ) );
		$this->assertSame( array( 'a', 'b' ), Inbound_Payload::data( self::BODY, '/data/object/tags' ) );
	}

	/**
	 * A stored body is decoded with big integers kept whole.
	 */
	public function test_a_stored_body_is_decoded_with_big_integers_kept_whole(): void {
		$this->assertSame(
			array(
				'id'     => '12345678901234567890123',
				'amount' => 5,
				'ok'     => true,
			),
			Inbound_Payload::decode( '{"id":12345678901234567890123,"amount":5,"ok":true}' )
		);
	}

	/**
	 * Stored bodies that are no JSON object.
	 *
	 * @return array<string, array{0: string}>
	 */
	public static function undecodable(): array {
		return array(
			'empty'     => array( '' ),
			'truncated' => array( '{"id":' ),
			'not JSON'  => array( 'id=1&type=x' ),
			'too deep'  => array( str_repeat( '[', 600 ) . str_repeat( ']', 600 ) ),
		);
	}

	/**
	 * Nothing to hand over from a body that does not decode.
	 *
	 * @dataProvider undecodable
	 * @param string $payload Stored body.
	 */
	public function test_a_body_that_does_not_decode_has_no_data( string $payload ): void {
		$this->assertNull( Inbound_Payload::data( Inbound_Payload::decode( $payload ), '' ) );
	}
}

<?php
/**
 * Site-added manufacturing order fields, made safe to register.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Manufacturing\Manufacturing_Order_Type;

/**
 * Manufacturing_Order_Type::normalize(): what the fields filter returned, as the meta API and the
 * REST schema can take it.
 */
final class ManufacturingFieldsTest extends TestCase {

	/**
	 * Filtered fields and what is registered.
	 *
	 * @return array<string, array{0: array, 1: array}>
	 */
	public static function fields(): array {
		return array(
			'a typed field, kept whole'             => array(
				array(
					'colour' => array(
						'type'        => 'string',
						'enum'        => array( 'red', 'blue' ),
						'description' => 'Colour',
					),
				),
				array(
					'colour' => array(
						'type'        => 'string',
						'enum'        => array( 'red', 'blue' ),
						'description' => 'Colour',
					),
				),
			),
			'no type: a string'                     => array(
				array( 'note' => array( 'description' => 'Note' ) ),
				array(
					'note' => array(
						'description' => 'Note',
						'type'        => 'string',
					),
				),
			),
			'an unknown type: a string'             => array(
				array( 'when' => array( 'type' => 'date' ) ),
				array( 'when' => array( 'type' => 'string' ) ),
			),
			'a list of types: a string'             => array(
				array( 'x' => array( 'type' => array( 'string', 'null' ) ) ),
				array( 'x' => array( 'type' => 'string' ) ),
			),
			'a type in capitals: a string'          => array(
				array( 'x' => array( 'type' => 'Integer' ) ),
				array( 'x' => array( 'type' => 'string' ) ),
			),
			'a list without items holds strings'    => array(
				array( 'tags' => array( 'type' => 'array' ) ),
				array(
					'tags' => array(
						'type'  => 'array',
						'items' => array( 'type' => 'string' ),
					),
				),
			),
			'a list with empty items holds strings' => array(
				array(
					'tags' => array(
						'type'  => 'array',
						'items' => array(),
					),
				),
				array(
					'tags' => array(
						'type'  => 'array',
						'items' => array( 'type' => 'string' ),
					),
				),
			),
			'a list with items keeps them'          => array(
				array(
					'sizes' => array(
						'type'  => 'array',
						'items' => array( 'type' => 'integer' ),
					),
				),
				array(
					'sizes' => array(
						'type'  => 'array',
						'items' => array( 'type' => 'integer' ),
					),
				),
			),
			'each scalar type kept'                 => array(
				array(
					'a' => array( 'type' => 'boolean' ),
					'b' => array( 'type' => 'integer' ),
					'c' => array( 'type' => 'number' ),
					'd' => array( 'type' => 'object' ),
				),
				array(
					'a' => array( 'type' => 'boolean' ),
					'b' => array( 'type' => 'integer' ),
					'c' => array( 'type' => 'number' ),
					'd' => array( 'type' => 'object' ),
				),
			),
			'a schema that is text is dropped'      => array(
				array(
					'x'    => 'string',
					'kept' => array( 'type' => 'string' ),
				),
				array( 'kept' => array( 'type' => 'string' ) ),
			),
			'a field without a name is dropped'     => array(
				array(
					0  => array( 'type' => 'string' ),
					'' => array( 'type' => 'string' ),
				),
				array(),
			),
			'none'                                  => array( array(), array() ),
		);
	}

	/**
	 * Every field registers with a usable type.
	 *
	 * @dataProvider fields
	 * @param array $filtered What the filter returned.
	 * @param array $expected What is registered.
	 */
	public function test_site_added_fields_are_made_safe_to_register( array $filtered, array $expected ): void {
		$this->assertSame( $expected, Manufacturing_Order_Type::normalize( $filtered ) );
	}

	/**
	 * Submitted titles and whether each is one.
	 *
	 * @return array<string, array{0: mixed, 1: bool}>
	 */
	public static function titles(): array {
		return array(
			'text'                  => array( 'Order 1001', true ),
			'text with spaces'      => array( '  Order 1001 ', true ),
			'core\'s raw object'    => array( array( 'raw' => 'Order 1001' ), true ),
			'empty'                 => array( '', false ),
			'white space only'      => array( " \t\n", false ),
			'missing'               => array( null, false ),
			'an empty raw object'   => array( array( 'raw' => ' ' ), false ),
			'an object without raw' => array( array( 'rendered' => 'x' ), false ),
			'a number'              => array( 1001, false ),
		);
	}

	/**
	 * A manufacturing order needs a title with more than white space.
	 *
	 * @dataProvider titles
	 * @param mixed $title    Submitted title.
	 * @param bool  $expected Whether it is a title.
	 */
	public function test_a_title_is_text_with_more_than_white_space( $title, bool $expected ): void {
		$this->assertSame( $expected, Manufacturing_Order_Type::has_title( $title ) );
	}

	/**
	 * A title fits wp_posts.post_title (TEXT: 65,535 bytes), counted as UTF-8 bytes, in either
	 * shape core takes; what is not a title is has_title()'s to refuse.
	 */
	public function test_a_title_fits_the_database_column_in_bytes(): void {
		$max = Manufacturing_Order_Type::TITLE_MAX_BYTES;
		$this->assertSame( 65535, $max );
		$this->assertTrue( Manufacturing_Order_Type::title_fits( str_repeat( 'a', $max ) ) );
		$this->assertFalse( Manufacturing_Order_Type::title_fits( str_repeat( 'a', $max + 1 ) ) );
		$this->assertTrue( Manufacturing_Order_Type::title_fits( array( 'raw' => str_repeat( 'a', $max ) ) ) );
		$this->assertFalse( Manufacturing_Order_Type::title_fits( array( 'raw' => str_repeat( 'a', $max + 1 ) ) ) );
		// 32,768 "é" are 65,536 bytes: too long, though fewer characters than the limit.
		$this->assertFalse( Manufacturing_Order_Type::title_fits( str_repeat( 'é', 32768 ) ) );
		$this->assertTrue( Manufacturing_Order_Type::title_fits( null ) );
	}

	/**
	 * Items given as text are refused as text, not as a list core split out of it.
	 */
	public function test_a_list_given_as_text_is_refused_as_not_an_array(): void {
		$error = Manufacturing_Order_Type::validate_value( 'CHAIR x2', Manufacturing_Order_Type::fields()['items'], 'meta.items' );
		$this->assertInstanceOf( WP_Error::class, $error );
		$this->assertSame( 'rest_invalid_type', $error->get_error_code() );
		$this->assertSame( 'meta.items must be an array (a JSON list), not text or a single value.', $error->get_error_message() );
	}

	/**
	 * A property an item does not have is named with its path, and the item's properties listed.
	 */
	public function test_an_unknown_item_property_is_named_with_its_path(): void {
		$items = array(
			array( 'quantity' => 1 ),
			array(
				'quantity' => 2,
				'color'    => 'red',
			),
		);
		$error = Manufacturing_Order_Type::validate_value( $items, Manufacturing_Order_Type::fields()['items'], 'meta.items' );
		$this->assertInstanceOf( WP_Error::class, $error );
		$this->assertSame( 'rest_additional_properties_forbidden', $error->get_error_code() );
		$this->assertSame( 'meta.items[1][color] is not a known property: an entry has only product_id, sku, name, quantity.', $error->get_error_message() );
	}

	/**
	 * The statuses a manufacturing order can have are core's own, never WooCommerce's.
	 */
	public function test_the_statuses_are_cores_own(): void {
		$this->assertSame( array( 'draft', 'pending', 'future', 'publish', 'private' ), Manufacturing_Order_Type::STATUSES );
	}
}

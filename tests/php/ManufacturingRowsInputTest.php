<?php
/**
 * The manufacturing order box's rows: which fields they hold, and the value submitted rows make.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Manufacturing\Manufacturing_Order_Rows_Input;

/**
 * Manufacturing_Order_Rows_Input::fits() and value_of().
 */
final class ManufacturingRowsInputTest extends TestCase {

	/**
	 * The items field as Manufacturing_Order_Type declares it.
	 */
	private static function items(): array {
		return array(
			'type'  => 'array',
			'items' => array(
				'type'       => 'object',
				'properties' => array(
					'product_id' => array(
						'type'    => 'integer',
						'minimum' => 0,
					),
					'sku'        => array( 'type' => 'string' ),
					'name'       => array( 'type' => 'string' ),
					'quantity'   => array(
						'type'    => 'integer',
						'minimum' => 1,
					),
				),
			),
		);
	}

	/**
	 * Field schemas and whether rows can hold them.
	 *
	 * @return array<string, array{0: array, 1: bool}>
	 */
	public static function fields(): array {
		$items = self::items();
		return array(
			'the items'                            => array( $items, true ),
			'a property without a type (string)'   => array( array_replace_recursive( $items, array( 'items' => array( 'properties' => array( 'note' => array() ) ) ) ), true ),
			'a number property'                    => array( array_replace_recursive( $items, array( 'items' => array( 'properties' => array( 'weight' => array( 'type' => 'number' ) ) ) ) ), true ),
			'a boolean property'                   => array( array_replace_recursive( $items, array( 'items' => array( 'properties' => array( 'rush' => array( 'type' => 'boolean' ) ) ) ) ), false ),
			'a nested object property'             => array( array_replace_recursive( $items, array( 'items' => array( 'properties' => array( 'dims' => array( 'type' => 'object' ) ) ) ) ), false ),
			'a property that is no schema'         => array( array_replace_recursive( $items, array( 'items' => array( 'properties' => array( 'x' => 'string' ) ) ) ), false ),
			'a string field'                       => array( array( 'type' => 'string' ), false ),
			'a list of strings'                    => array(
				array(
					'type'  => 'array',
					'items' => array( 'type' => 'string' ),
				),
				false,
			),
			'a list without items'                 => array( array( 'type' => 'array' ), false ),
			'a list of objects without properties' => array(
				array(
					'type'  => 'array',
					'items' => array( 'type' => 'object' ),
				),
				false,
			),
			'properties that are no list'          => array(
				array(
					'type'  => 'array',
					'items' => array(
						'type'       => 'object',
						'properties' => 'sku',
					),
				),
				false,
			),
			'an object field'                      => array(
				array(
					'type'       => 'object',
					'properties' => array( 'sku' => array( 'type' => 'string' ) ),
				),
				false,
			),
		);
	}

	/**
	 * Only a list of flat objects.
	 *
	 * @dataProvider fields
	 * @param array $field Field schema.
	 * @param bool  $fits  Whether rows hold it.
	 */
	public function test_rows_hold_only_a_list_of_flat_objects( array $field, bool $fits ): void {
		$this->assertSame( $fits, Manufacturing_Order_Rows_Input::fits( $field ) );
	}

	/**
	 * Submitted rows and the value they make.
	 *
	 * @return array<string, array{0: mixed, 1: array}>
	 */
	public static function submitted(): array {
		return array(
			'every row removed (nothing sent)'             => array( null, array() ),
			'no rows'                                      => array( array(), array() ),
			'one row, as typed'                            => array(
				array(
					array(
						'product_id' => '12',
						'sku'        => 'MUG-1',
						'name'       => 'Mug',
						'quantity'   => '2',
					),
				),
				array(
					array(
						'product_id' => '12',
						'sku'        => 'MUG-1',
						'name'       => 'Mug',
						'quantity'   => '2',
					),
				),
			),
			'spaces trimmed'                               => array(
				array(
					array(
						'sku'      => '  MUG-1 ',
						'quantity' => "\t3\n",
					),
				),
				array(
					array(
						'sku'      => 'MUG-1',
						'quantity' => '3',
					),
				),
			),
			'empty properties left out'                    => array(
				array(
					array(
						'product_id' => '',
						'sku'        => '   ',
						'quantity'   => '1',
					),
				),
				array( array( 'quantity' => '1' ) ),
			),
			'an empty row is no entry'                     => array(
				array(
					array(
						'sku'      => '',
						'quantity' => '',
					),
					array( 'quantity' => '4' ),
				),
				array( array( 'quantity' => '4' ) ),
			),
			'indexes renumbered in their order'            => array(
				array(
					'7' => array( 'quantity' => '1' ),
					'2' => array( 'quantity' => '2' ),
				),
				array( array( 'quantity' => '1' ), array( 'quantity' => '2' ) ),
			),
			'a property that is no text is dropped'        => array(
				array(
					array(
						'sku'      => array( 'MUG-1' ),
						'quantity' => '1',
					),
				),
				array( array( 'quantity' => '1' ) ),
			),
			'the text "0" is kept'                         => array(
				array( array( 'quantity' => '0' ) ),
				array( array( 'quantity' => '0' ) ),
			),
			'unknown properties kept for the schema check' => array(
				array( array( 'colour' => 'red' ) ),
				array( array( 'colour' => 'red' ) ),
			),
		);
	}

	/**
	 * As typed: the schema check judges the value afterwards.
	 *
	 * @dataProvider submitted
	 * @param mixed $rows  Submitted rows.
	 * @param array $value Value.
	 */
	public function test_submitted_rows_make_the_entries_typed_into_them( $rows, array $value ): void {
		$this->assertSame( $value, Manufacturing_Order_Rows_Input::value_of( $rows ) );
	}

	/**
	 * What is not rows.
	 *
	 * @return array<string, array{0: mixed}>
	 */
	public static function not_rows(): array {
		return array(
			'a string'                    => array( 'MUG-1' ),
			'an empty string'             => array( '' ),
			'a number'                    => array( 3 ),
			'false'                       => array( false ),
			'a row that is text'          => array( array( 'MUG-1' ) ),
			'one bad row among good ones' => array( array( array( 'quantity' => '1' ), 'x' ) ),
			'a row that is null'          => array( array( null ) ),
		);
	}

	/**
	 * Refused whole: nothing of it is taken.
	 *
	 * @dataProvider not_rows
	 * @param mixed $rows Submitted.
	 */
	public function test_what_is_not_rows_is_refused( $rows ): void {
		$this->assertNull( Manufacturing_Order_Rows_Input::value_of( $rows ) );
	}
	/**
	 * The items field with its required quantity, as Manufacturing_Order_Type declares it.
	 */
	private static function items_with_required(): array {
		$field                      = self::items();
		$field['items']['required'] = array( 'quantity' );
		return $field;
	}

	/**
	 * A refused row is named as the form shows it: its number from 1 and its column's header.
	 */
	public function test_a_row_problem_names_the_row_from_one_and_the_column(): void {
		$field = self::items_with_required();
		$this->assertNull(
			Manufacturing_Order_Rows_Input::problem(
				array(
					array(
						'sku'      => 'CHAIR',
						'quantity' => '2',
					),
				),
				$field
			)
		);
		$this->assertSame(
			'Row 1, Quantity: must be at least 1.',
			Manufacturing_Order_Rows_Input::problem( array( array( 'quantity' => '0' ) ), $field )
		);
		$this->assertSame(
			'Row 2, Quantity: must be a whole number.',
			Manufacturing_Order_Rows_Input::problem(
				array(
					array( 'quantity' => '1' ),
					array( 'quantity' => '1.5' ),
				),
				$field
			)
		);
		$this->assertSame(
			'Row 1, Quantity: is required.',
			Manufacturing_Order_Rows_Input::problem( array( array( 'name' => 'Oak chair' ) ), $field )
		);
		$this->assertSame(
			'Row 1, product_id: must be at least 0.',
			Manufacturing_Order_Rows_Input::problem(
				array(
					array(
						'product_id' => '-3',
						'quantity'   => '1',
					),
				),
				$field
			)
		);
	}
}

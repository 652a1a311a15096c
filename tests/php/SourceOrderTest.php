<?php
/**
 * The source order a manufacturing order request names.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Manufacturing\Source_Order_Rule;

/**
 * Source_Order_Rule::source_of(): the one-live-record rule applies to a positive source
 * order only.
 */
final class SourceOrderTest extends TestCase {

	/**
	 * Meta parameters and the source order they name.
	 *
	 * @return array<string, array{0: mixed, 1: int}>
	 */
	public static function metas(): array {
		return array(
			'an id'              => array( array( 'source_order_id' => 42 ), 42 ),
			'an id as text'      => array( array( 'source_order_id' => '42' ), 42 ),
			'among other fields' => array(
				array(
					'priority'        => 'high',
					'source_order_id' => 7,
				),
				7,
			),
			'a fraction'         => array( array( 'source_order_id' => '42.9' ), 42 ),
			'zero'               => array( array( 'source_order_id' => 0 ), 0 ),
			'negative'           => array( array( 'source_order_id' => -5 ), 0 ),
			'negative text'      => array( array( 'source_order_id' => '-5' ), 0 ),
			'not a number'       => array( array( 'source_order_id' => 'abc' ), 0 ),
			'a number then text' => array( array( 'source_order_id' => '42abc' ), 0 ),
			'null'               => array( array( 'source_order_id' => null ), 0 ),
			'a list'             => array( array( 'source_order_id' => array( 42 ) ), 0 ),
			'true'               => array( array( 'source_order_id' => true ), 0 ),
			'absent'             => array( array( 'priority' => 'high' ), 0 ),
			'no meta'            => array( null, 0 ),
			'meta that is text'  => array( 'source_order_id=42', 0 ),
		);
	}

	/**
	 * Only a positive number.
	 *
	 * @dataProvider metas
	 * @param mixed $meta   Meta parameter.
	 * @param int   $source Source order (0: none).
	 */
	public function test_only_a_positive_source_order_is_guarded( $meta, int $source ): void {
		$this->assertSame( $source, Source_Order_Rule::source_of( $meta ) );
	}
}

<?php
/**
 * A row of the paid-orders index.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Commerce\Paid_Order_Index_Row;

/**
 * What a row holds from an order's snapshot, and which stored snapshots are served.
 */
final class PaidOrderIndexRowTest extends TestCase {

	/**
	 * A row holds the sort keys the generation and the snapshot.
	 */
	public function test_a_row_holds_the_sort_keys_the_generation_and_the_snapshot(): void {
		$this->assertSame(
			array(
				'order_id'    => 7,
				'paid_at'     => 1767225000,
				'created_at'  => 1767220000,
				'modified_at' => 1767225100,
				'generation'  => 2,
				'snapshot'    => '{"id":7,"total":"12.50"}',
			),
			Paid_Order_Index_Row::of(
				7,
				1767225000,
				1767220000,
				1767225100,
				2,
				array(
					'id'    => 7,
					'total' => '12.50',
				)
			)
		);
	}

	/**
	 * Every column has a format.
	 */
	public function test_every_column_has_a_format(): void {
		$this->assertCount( count( Paid_Order_Index_Row::of( 1, 0, 0, 0, 0, array() ) ), Paid_Order_Index_Row::FORMATS );
	}

	/**
	 * The snapshot is stored as utf 8 with plain slashes.
	 */
	public function test_the_snapshot_is_stored_as_utf_8_with_plain_slashes(): void {
		$row = Paid_Order_Index_Row::of(
			7,
			0,
			0,
			0,
			0,
			array(
				'id'       => 7,
				'customer' => 'Zoé',
				'url'      => 'https://shop.example/o/7',
			)
		);
		$this->assertSame( '{"id":7,"customer":"Zoé","url":"https://shop.example/o/7"}', $row['snapshot'] );
	}

	/**
	 * A stored snapshot reads back as written.
	 */
	public function test_a_stored_snapshot_reads_back_as_written(): void {
		$snapshot = array(
			'id'         => 7,
			'customer'   => 'Zoé',
			'line_items' => array(
				array(
					'sku'      => 'A/1',
					'quantity' => 2,
				),
			),
		);
		$this->assertSame( $snapshot, Paid_Order_Index_Row::snapshot( Paid_Order_Index_Row::of( 7, 0, 0, 0, 0, $snapshot )['snapshot'] ) );
	}

	/**
	 * Column values that hold no snapshot.
	 *
	 * @return array<string, array{0: mixed}>
	 */
	public static function not_snapshots(): array {
		return array(
			'not JSON'       => array( '{"id":7' ),
			'empty'          => array( '' ),
			'null'           => array( null ),
			'a JSON string'  => array( '"order"' ),
			'a JSON number'  => array( '7' ),
			'without its id' => array( '{"number":"7"}' ),
		);
	}

	/**
	 * A column that holds no snapshot is never served as an order.
	 *
	 * @dataProvider not_snapshots
	 * @param mixed $json The column's value.
	 */
	public function test_a_column_without_a_snapshot_is_none( $json ): void {
		$this->assertNull( Paid_Order_Index_Row::snapshot( $json ) );
	}
}

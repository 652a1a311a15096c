<?php
/**
 * Whether the one-live-record rule looks at a write, and its refusal.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Manufacturing\Source_Order_Rule;

/**
 * Source_Order_Rule::applies() and refusal().
 */
final class SourceOrderRuleTest extends TestCase {

	/**
	 * The rule looks at a source order when it is on.
	 */
	public function test_the_rule_looks_at_a_source_order_when_it_is_on(): void {
		$this->assertTrue( Source_Order_Rule::applies( 42, true ) );
	}

	/**
	 * The rule off looks at nothing.
	 */
	public function test_the_rule_off_looks_at_nothing(): void {
		$this->assertFalse( Source_Order_Rule::applies( 42, false ) );
	}

	/**
	 * No source order is never checked.
	 */
	public function test_no_source_order_is_never_checked(): void {
		$this->assertFalse( Source_Order_Rule::applies( 0, true ) );
	}

	/**
	 * A source order without another live record is no refusal.
	 */
	public function test_a_source_order_without_another_live_record_is_no_refusal(): void {
		$this->assertNull( Source_Order_Rule::refusal( 42, 0 ) );
	}

	/**
	 * A source order with a live record is refused with its id.
	 */
	public function test_a_source_order_with_a_live_record_is_refused_with_its_id(): void {
		$refusal = Source_Order_Rule::refusal( 42, 7 );
		$this->assertInstanceOf( WP_Error::class, $refusal );
		$this->assertSame( 'manufacturing_order_exists', $refusal->get_error_code() );
		$this->assertSame( 'Source order 42 already has a manufacturing order: 7.', $refusal->get_error_message() );
		$this->assertSame(
			array(
				'status'          => 409,
				'id'              => 7,
				'source_order_id' => 42,
			),
			$refusal->get_error_data()
		);
	}
}

<?php
/**
 * Whole-value patterns of the plugin's routes.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Contracts;
use ServiceIntegration\Sidecar_Contract;

/**
 * The sidecar's values come from Sidecar_Contract, generated from its sources (the unit test
 * tests/unit/contracts.test.ts checks that file); what is left to the plugin is how a pattern
 * becomes a whole-value one.
 */
final class ContractsTest extends TestCase {

	/**
	 * Anchored patterns accept whole values only.
	 */
	public function test_anchored_patterns_accept_whole_values_only(): void {
		$slug = '/' . Contracts::anchored( Sidecar_Contract::SOURCE_ID_PATTERN ) . '/';
		$this->assertSame( 1, preg_match( $slug, 'stripe-live' ) );
		$this->assertSame( 0, preg_match( $slug, 'Stripe' ) );
		$this->assertSame( 0, preg_match( $slug, 'a/b' ) );
		$this->assertSame( 0, preg_match( $slug, str_repeat( 'a', 65 ) ) );
		$id = '/' . Contracts::anchored( Contracts::ENDPOINT_ID_PATTERN ) . '/';
		$this->assertSame( 1, preg_match( $id, 'evt_0123:abc-DEF' ) );
		$this->assertSame( 0, preg_match( $id, 'a.b' ) );
	}
}

<?php
/**
 * The one-live-record-per-source-order rule's setting, over options in memory.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Manufacturing\Source_Order_Uniqueness;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * Source_Order_Uniqueness::is_enabled() (live_record() reads MariaDB: tests/php/db/SourceOrderLiveRecordTest.php).
 */
final class SourceOrderUniquenessTest extends TestCase {

	/**
	 * The site's options.
	 *
	 * @var In_Memory_Options
	 */
	private In_Memory_Options $options;

	/**
	 * The rule under test.
	 *
	 * @var Source_Order_Uniqueness
	 */
	private Source_Order_Uniqueness $rule;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		$GLOBALS['service_integration_test_wp'] = array();
		$this->options                          = new In_Memory_Options();
		$this->rule                             = new Source_Order_Uniqueness( new Recording_Wpdb(), new Fixed_Clock( 1767225600 ), $this->options );
	}

	/**
	 * Restores what the tests changed.
	 */
	protected function tearDown(): void {
		$GLOBALS['service_integration_test_wp'] = array();
	}

	/**
	 * The rule is off without the setting.
	 */
	public function test_the_rule_is_off_without_the_setting(): void {
		$this->assertFalse( $this->rule->is_enabled() );
	}

	/**
	 * The setting switches it on.
	 */
	public function test_the_setting_switches_it_on(): void {
		$this->options->values[ Source_Order_Uniqueness::OPTION ] = true;
		$this->assertTrue( $this->rule->is_enabled() );
	}

	/**
	 * The filter decides given the setting.
	 */
	public function test_the_filter_decides_given_the_setting(): void {
		$this->options->values[ Source_Order_Uniqueness::OPTION ] = true;
		$seen = null;
		add_action(
			Source_Order_Uniqueness::FILTER,
			static function ( bool $unique ) use ( &$seen ): bool {
				$seen = $unique;
				return false;
			}
		);
		$this->assertFalse( $this->rule->is_enabled() );
		$this->assertTrue( $seen );
	}
}

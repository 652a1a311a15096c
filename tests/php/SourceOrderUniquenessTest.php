<?php
/**
 * The one-live-record-per-source-order rule over a recording database and options in memory.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Database_Error;
use ServiceIntegration\Manufacturing\Source_Order_Uniqueness;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * Source_Order_Uniqueness::is_enabled() and live_record().
 */
final class SourceOrderUniquenessTest extends TestCase {

	/**
	 * The database.
	 *
	 * @var Recording_Wpdb
	 */
	private Recording_Wpdb $db;

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
		$this->db                               = new Recording_Wpdb();
		$this->db->posts                        = 'shop_posts';
		$this->db->postmeta                     = 'shop_postmeta';
		$this->options                          = new In_Memory_Options();
		$this->rule                             = new Source_Order_Uniqueness( $this->db, new Fixed_Clock( 1767225600 ), $this->options );
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

	/**
	 * The live record is the oldest other untrashed one with the source order.
	 */
	public function test_the_live_record_is_the_oldest_other_untrashed_one_with_the_source_order(): void {
		$this->db->answers( 'SELECT p.ID FROM shop_posts p INNER JOIN shop_postmeta m', '7' );
		$this->assertSame( 7, $this->rule->live_record( 42, 3 ) );
		$this->assertSame( array( 'commande_fabrication', '42', 3 ), $this->db->prepared[0]['args'] );
		$this->assertStringContainsString( "post_status NOT IN ('trash', 'auto-draft', 'inherit')", $this->db->prepared[0]['sql'] );
		$this->assertStringContainsString( 'ORDER BY p.ID ASC LIMIT 1', $this->db->prepared[0]['sql'] );
	}

	/**
	 * A source order without a live record has none.
	 */
	public function test_a_source_order_without_a_live_record_has_none(): void {
		$this->assertSame( 0, $this->rule->live_record( 42, 0 ) );
	}

	/**
	 * A failed read is a database error not no record.
	 */
	public function test_a_failed_read_is_a_database_error_not_no_record(): void {
		$this->db->fails( 'SELECT p.ID' );
		$answer = $this->rule->live_record( 42, 0 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		$this->assertSame( array( 'status' => 500 ), $answer->get_error_data() );
	}
}

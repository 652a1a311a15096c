<?php
/**
 * WordPress's options as the stores' port: the compare-and-set over the options table.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Tests\Recording_Wpdb;
use ServiceIntegration\Wp_Options;

/**
 * Wp_Options::compare_and_set(): the stored value is read from the table, judged, and replaced
 * only by an UPDATE conditioned on the exact bytes read; the option's cache follows the table.
 */
final class WpOptionsTest extends TestCase {

	/**
	 * The database.
	 *
	 * @var Recording_Wpdb
	 */
	private Recording_Wpdb $db;

	/**
	 * The options under test.
	 *
	 * @var Wp_Options
	 */
	private Wp_Options $options;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		$GLOBALS['service_integration_test_wp'] = array();
		$this->db                               = new Recording_Wpdb();
		$this->db->options                      = 'shop_options';
		$this->options                          = new Wp_Options( $this->db );
	}

	/**
	 * A value still as read is replaced on exactly the bytes read.
	 */
	public function test_a_value_still_as_read_is_replaced_on_exactly_the_bytes_read(): void {
		$stored = serialize( array( 'walk' => 200 ) ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize -- as core stores it.
		$this->db->answers( 'SELECT option_value FROM shop_options', $stored );
		$this->db->answers( 'UPDATE shop_options SET option_value', 1 );
		$seen = null;
		$this->assertTrue(
			$this->options->compare_and_set(
				'a_state',
				static function ( $value ) use ( &$seen ): bool {
					$seen = $value;
					return true;
				},
				array( 'walk' => 400 )
			)
		);
		$this->assertSame( array( 'walk' => 200 ), $seen );
		$update = $this->db->prepared[1];
		$this->assertSame( 'UPDATE shop_options SET option_value = %s WHERE option_name = %s AND option_value = %s', $update['sql'] );
		$this->assertSame( array( serialize( array( 'walk' => 400 ) ), 'a_state', $stored ), $update['args'] ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize -- the option as core stores it.
		$this->assertSame( serialize( array( 'walk' => 400 ) ), $GLOBALS['service_integration_test_wp']['cache']['options/a_state'] ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize -- the option as core stores it.
	}

	/**
	 * A value the caller does not expect is left and its cache dropped.
	 */
	public function test_a_value_the_caller_does_not_expect_is_left_and_its_cache_dropped(): void {
		$GLOBALS['service_integration_test_wp']['cache']['options/a_state'] = 'stale';
		$this->db->answers( 'SELECT option_value FROM shop_options', serialize( array( 'walk' => 0 ) ) ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize -- the option as core stores it.
		$this->assertFalse( $this->options->compare_and_set( 'a_state', static fn(): bool => false, array( 'walk' => 400 ) ) );
		$this->assertCount( 1, $this->db->queries );
		$this->assertArrayNotHasKey( 'options/a_state', $GLOBALS['service_integration_test_wp']['cache'] ?? array() );
	}

	/**
	 * A write in between leaves no row to update.
	 */
	public function test_a_write_in_between_leaves_no_row_to_update(): void {
		$this->db->answers( 'SELECT option_value FROM shop_options', serialize( array( 'walk' => 0 ) ) ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize -- the option as core stores it.
		$this->db->answers( 'UPDATE shop_options SET option_value', 0 );
		$this->assertFalse( $this->options->compare_and_set( 'a_state', static fn(): bool => true, array( 'walk' => 400 ) ) );
	}

	/**
	 * A missing option or a failed read stores nothing.
	 */
	public function test_a_missing_option_or_a_failed_read_stores_nothing(): void {
		$this->assertFalse( $this->options->compare_and_set( 'a_state', static fn(): bool => true, array() ) );
		$this->db->fails( 'SELECT option_value' );
		$this->assertFalse( $this->options->compare_and_set( 'a_state', static fn(): bool => true, array() ) );
		$this->assertSame( array(), $this->db->updates );
		$this->assertCount( 2, $this->db->queries );
	}

	/**
	 * An autoloaded option is refreshed in the autoloaded set.
	 */
	public function test_an_autoloaded_option_is_refreshed_in_the_autoloaded_set(): void {
		$GLOBALS['service_integration_test_wp']['alloptions'] = array(
			'a_state' => '1',
			'other'   => 'x',
		);
		$this->db->answers( 'SELECT option_value FROM shop_options', '1' );
		$this->db->answers( 'UPDATE shop_options SET option_value', 1 );
		$this->assertTrue( $this->options->compare_and_set( 'a_state', static fn( $value ): bool => '1' === $value, '2' ) );
		$this->assertSame(
			array(
				'a_state' => '2',
				'other'   => 'x',
			),
			$GLOBALS['service_integration_test_wp']['cache']['options/alloptions']
		);
	}
}

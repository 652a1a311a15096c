<?php
/**
 * WordPress's options as the stores' port, on WordPress's options table in MariaDB.
 *
 * @package ServiceIntegration
 */

use ServiceIntegration\Tests\Store_Test_Case;
use ServiceIntegration\Support\Wp_Options;

/**
 * Wp_Options::compare_and_set(): the stored value is read from the table, judged, and replaced
 * only if the row still holds exactly the bytes read; WordPress's option cache follows the table.
 */
final class WpOptionsTest extends Store_Test_Case {

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
		parent::setUp();
		$this->options = new Wp_Options( $this->db );
	}

	/**
	 * A value still as read is replaced, and get_option() answers the new value.
	 */
	public function test_a_value_still_as_read_is_replaced(): void {
		add_option( 'a_state', array( 'walk' => 200 ), '', false );
		$this->assertSame( array( 'walk' => 200 ), get_option( 'a_state' ) );
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
		$this->assertSame( array( 'walk' => 400 ), maybe_unserialize( $this->stored_option( 'a_state' ) ) );
		$this->assertSame( array( 'walk' => 400 ), get_option( 'a_state' ) );
	}

	/**
	 * A value the caller does not expect is left, and a stale cached copy is dropped.
	 */
	public function test_a_value_the_caller_does_not_expect_is_left_and_its_cache_dropped(): void {
		add_option( 'a_state', array( 'walk' => 0 ), '', false );
		wp_cache_set( 'a_state', 'stale', 'options' );
		$this->assertFalse( $this->options->compare_and_set( 'a_state', static fn(): bool => false, array( 'walk' => 400 ) ) );
		$this->assertSame( array( 'walk' => 0 ), maybe_unserialize( $this->stored_option( 'a_state' ) ) );
		$this->assertSame( array( 'walk' => 0 ), get_option( 'a_state' ) );
	}

	/**
	 * A write by another request between the read and the update wins: nothing is stored over it.
	 */
	public function test_a_write_in_between_is_not_overwritten(): void {
		add_option( 'a_state', array( 'walk' => 0 ), '', false );
		$theirs = maybe_serialize( array( 'walk' => 100 ) );
		$this->just_before(
			'UPDATE',
			fn() => $this->sql( $this->db->prepare( "UPDATE {$this->db->options} SET option_value = %s WHERE option_name = 'a_state'", $theirs ) )
		);
		$this->assertFalse( $this->options->compare_and_set( 'a_state', static fn(): bool => true, array( 'walk' => 400 ) ) );
		$this->assertSame( $theirs, $this->stored_option( 'a_state' ) );
		$this->assertSame( array( 'walk' => 100 ), get_option( 'a_state' ) );
	}

	/**
	 * A missing option is not created; a failed read writes nothing.
	 */
	public function test_a_missing_option_or_a_failed_read_stores_nothing(): void {
		$this->assertFalse( $this->options->compare_and_set( 'a_state', static fn(): bool => true, array() ) );
		$this->assertNull( $this->stored_option( 'a_state' ) );
		$this->break_table( $this->db->options );
		$sent = $this->statements();
		$this->assertFalse( $this->options->compare_and_set( 'a_state', static fn(): bool => true, array() ) );
		$this->assertCount( 1, $sent, 'the read only, no write' );
	}

	/**
	 * An autoloaded option is refreshed in WordPress's autoloaded set.
	 */
	public function test_an_autoloaded_option_is_refreshed_in_the_autoloaded_set(): void {
		add_option( 'a_state', '1', '', true );
		$this->assertSame( '1', wp_load_alloptions()['a_state'] );
		$this->assertTrue( $this->options->compare_and_set( 'a_state', static fn( $value ): bool => '1' === $value, '2' ) );
		$this->assertSame( '2', $this->stored_option( 'a_state' ) );
		$this->assertSame( '2', wp_load_alloptions()['a_state'] );
		$this->assertSame( '2', get_option( 'a_state' ) );
	}
}

<?php
/**
 * The live record of a source order, read from WordPress's posts and post meta in MariaDB.
 *
 * @package ServiceIntegration
 */

use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Manufacturing\Manufacturing_Order_Type;
use ServiceIntegration\Manufacturing\Source_Order_Uniqueness;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\Store_Test_Case;
use ServiceIntegration\Support\Wp_Options;

/**
 * Source_Order_Uniqueness::live_record(): the oldest other manufacturing order with the source
 * order that is not trashed (nor an auto-draft or a revision); a failed read is an error, never "none".
 */
final class SourceOrderLiveRecordTest extends Store_Test_Case {

	/**
	 * The rule under test.
	 *
	 * @var Source_Order_Uniqueness
	 */
	private Source_Order_Uniqueness $rule;

	/**
	 * Posts the test created.
	 *
	 * @var int[]
	 */
	private array $posts = array();

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		parent::setUp();
		$this->rule = new Source_Order_Uniqueness( $this->db, new Fixed_Clock( 1767225600 ), new Wp_Options( $this->db ) );
	}

	/**
	 * Removes the posts the test created.
	 */
	protected function tearDown(): void {
		parent::tearDown();
		foreach ( $this->posts as $id ) {
			wp_delete_post( $id, true );
		}
		$this->posts = array();
	}

	/**
	 * A post of $type and $status whose source_order_id is $source; returns its id.
	 *
	 * @param string $source Source order id ('' for none).
	 * @param string $status Post status.
	 * @param string $type   Post type.
	 */
	private function record( string $source, string $status = 'publish', string $type = Manufacturing_Order_Type::POST_TYPE ): int {
		$id = wp_insert_post(
			array(
				'post_type'   => $type,
				'post_status' => $status,
				'post_title'  => 'MO',
			),
			true
		);
		$this->assertIsInt( $id );
		$this->posts[] = $id;
		if ( '' !== $source ) {
			add_post_meta( $id, 'source_order_id', $source );
		}
		return $id;
	}

	/**
	 * The live record is the oldest other untrashed manufacturing order with the source order.
	 */
	public function test_the_live_record_is_the_oldest_other_untrashed_one_with_the_source_order(): void {
		$this->record( '42', 'trash' );
		$this->record( '42', 'auto-draft' );
		$this->record( '42', 'publish', 'post' );
		$this->record( '43' );
		$this->record( '' );
		$own    = $this->record( '42', 'draft' );
		$oldest = $this->record( '42', 'private' );
		$newer  = $this->record( '42' );
		$this->assertSame( $oldest, $this->rule->live_record( 42, $own ) );
		$this->assertSame( $own, $this->rule->live_record( 42, 0 ) );
		$this->assertSame( $own, $this->rule->live_record( 42, $oldest ) );
		wp_trash_post( $own );
		wp_trash_post( $oldest );
		$this->assertSame( $newer, $this->rule->live_record( 42, 0 ) );
		$this->assertSame( 0, $this->rule->live_record( 42, $newer ) );
	}

	/**
	 * A source order without a live record has none.
	 */
	public function test_a_source_order_without_a_live_record_has_none(): void {
		$this->record( '4200' );
		$this->record( '42', 'trash' );
		$this->assertSame( 0, $this->rule->live_record( 42, 0 ) );
	}

	/**
	 * A failed read is a database error, not "no record".
	 */
	public function test_a_failed_read_is_a_database_error_not_no_record(): void {
		$this->record( '42' );
		$this->break_table( $this->db->postmeta );
		$answer = $this->rule->live_record( 42, 0 );
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		$this->assertSame( array( 'status' => 500 ), $answer->get_error_data() );
	}
}

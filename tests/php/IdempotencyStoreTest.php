<?php
/**
 * The idempotency keys' table over a recording database.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Database_Error;
use ServiceIntegration\Manufacturing\Idempotency_Store;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\In_Memory_Options;
use ServiceIntegration\Tests\Recording_Wpdb;

/**
 * What Idempotency_Store reads and writes for each state of a key, and that a database error is
 * an error, never "no row" (which would let the request do its work twice).
 */
final class IdempotencyStoreTest extends TestCase {

	/** 2026-01-01 00:00:00 UTC. */
	const NOW = 1767225600;

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
	 * The store under test.
	 *
	 * @var Idempotency_Store
	 */
	private Idempotency_Store $store;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		$this->db         = new Recording_Wpdb();
		$this->db->prefix = 'shop_';
		$this->options    = new In_Memory_Options();
		$this->store      = new Idempotency_Store( $this->db, new Fixed_Clock( self::NOW ), $this->options );
	}

	/**
	 * A stored row of key "k" for fingerprint "fp".
	 *
	 * @param array<string, mixed> $columns Columns over the defaults.
	 */
	private static function row( array $columns = array() ): object {
		return (object) array_merge(
			array(
				'id'              => '9',
				'fingerprint'     => 'fp',
				'claim_token'     => 'old-token',
				'response_status' => null,
				'response_data'   => null,
				'response_meta'   => null,
				'locked_until'    => '2026-01-01 00:00:20',
				'expires_at'      => '2026-01-01 12:00:00',
			),
			$columns
		);
	}

	/**
	 * Asserts that $answer is the database error.
	 *
	 * @param mixed $answer What the store answered.
	 */
	private function assertDatabaseError( $answer ): void {
		$this->assertInstanceOf( WP_Error::class, $answer );
		$this->assertSame( Database_Error::CODE, $answer->get_error_code() );
		$this->assertSame( array( 'status' => 500 ), $answer->get_error_data() );
	}

	/**
	 * The table is named after the site prefix.
	 */
	public function test_the_table_is_named_after_the_site_prefix(): void {
		$this->assertSame( 'shop_si_idempotency_keys', $this->store->table() );
	}

	/**
	 * A new key is claimed with one insert its lease and expiry from the clock.
	 */
	public function test_a_new_key_is_claimed_with_one_insert_its_lease_and_expiry_from_the_clock(): void {
		$this->db->answers( 'INSERT IGNORE INTO shop_si_idempotency_keys', 1, 31 );
		$claim = $this->store->claim( 5, 'create:commande_fabrication', 'key-1', 'fp' );
		$this->assertSame( 'claimed', $claim['state'] );
		$this->assertSame( 31, $claim['id'] );
		$this->assertSame( 32, strlen( $claim['token'] ) );
		$args = $this->db->prepared[0]['args'];
		$this->assertSame( array( 5, 'create:commande_fabrication', hash( 'sha256', 'key-1' ), 'fp', $claim['token'] ), array_slice( $args, 0, 5 ) );
		$this->assertSame( array( '2026-01-01 00:01:00', '2026-01-01 00:00:00', '2026-01-02 00:00:00' ), array_slice( $args, 5 ) );
		$this->assertCount( 1, $this->db->queries );
	}

	/**
	 * The key is stored as its digest whatever its length.
	 */
	public function test_the_key_is_stored_as_its_digest_whatever_its_length(): void {
		$this->db->answers( 'INSERT IGNORE', 1, 1 );
		$this->store->claim( 5, 'scope', str_repeat( 'k', 255 ), 'fp' );
		$this->assertSame( 64, strlen( $this->db->prepared[0]['args'][2] ) );
	}

	/**
	 * A key answered before replays its first answer.
	 */
	public function test_a_key_answered_before_replays_its_first_answer(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers(
			'SELECT * FROM shop_si_idempotency_keys',
			self::row(
				array(
					'response_status' => '201',
					'response_data'   => '{"id":7}',
					'response_meta'   => '{"headers":{"Location":"/x/7"},"links":[]}',
					'locked_until'    => null,
					'claim_token'     => '',
				)
			)
		);
		$this->assertSame(
			array(
				'state'  => 'replay',
				'status' => 201,
				'data'   => array( 'id' => 7 ),
				'meta'   => array(
					'headers' => array( 'Location' => '/x/7' ),
					'links'   => array(),
				),
			),
			$this->store->claim( 5, 'scope', 'key-1', 'fp' )
		);
		$this->assertSame( array( 5, 'scope', hash( 'sha256', 'key-1' ) ), $this->db->prepared[1]['args'] );
	}

	/**
	 * A key used with another request is a mismatch and writes nothing.
	 */
	public function test_a_key_used_with_another_request_is_a_mismatch_and_writes_nothing(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT *', self::row() );
		$this->assertSame( array( 'state' => 'mismatch' ), $this->store->claim( 5, 'scope', 'key-1', 'another' ) );
		$this->assertCount( 2, $this->db->queries );
	}

	/**
	 * A key another request holds is in progress for the rest of its lease.
	 */
	public function test_a_key_another_request_holds_is_in_progress_for_the_rest_of_its_lease(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT *', self::row() );
		$this->assertSame(
			array(
				'state'       => 'in_progress',
				'retry_after' => 20,
			),
			$this->store->claim( 5, 'scope', 'key-1', 'fp' )
		);
	}

	/**
	 * An abandoned key is taken over with a compare and set on its token.
	 */
	public function test_an_abandoned_key_is_taken_over_with_a_compare_and_set_on_its_token(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT *', self::row( array( 'locked_until' => '2025-12-31 23:59:00' ) ) );
		$this->db->answers( 'UPDATE shop_si_idempotency_keys SET claim_token', 1 );
		$claim = $this->store->claim( 5, 'scope', 'key-1', 'fp' );
		$this->assertSame( 'claimed', $claim['state'] );
		$this->assertSame( 9, $claim['id'] );
		$this->assertSame( array( $claim['token'], '2026-01-01 00:01:00', '9', 'old-token' ), $this->db->prepared[2]['args'] );
		$this->assertStringContainsString( 'AND claim_token = %s AND response_status IS NULL', $this->db->prepared[2]['sql'] );
	}

	/**
	 * An abandoned key another request just took over is in progress.
	 */
	public function test_an_abandoned_key_another_request_just_took_over_is_in_progress(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT *', self::row( array( 'locked_until' => '2025-12-31 23:59:00' ) ) );
		$this->db->answers( 'SET claim_token', 0 );
		$this->assertSame(
			array(
				'state'       => 'in_progress',
				'retry_after' => 1,
			),
			$this->store->claim( 5, 'scope', 'key-1', 'fp' )
		);
	}

	/**
	 * An expired key is deleted and claimed anew.
	 */
	public function test_an_expired_key_is_deleted_and_claimed_anew(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT *', self::row( array( 'expires_at' => '2025-12-31 00:00:00' ) ) );
		$this->db->answers( 'DELETE FROM shop_si_idempotency_keys WHERE id', 1 );
		$this->db->answers( 'INSERT IGNORE', 1, 12 );
		$claim = $this->store->claim( 5, 'scope', 'key-1', 'another' );
		$this->assertSame( 'claimed', $claim['state'] );
		$this->assertSame( 12, $claim['id'] );
		$this->assertSame( array( '9', '2025-12-31 00:00:00' ), $this->db->prepared[2]['args'] );
	}

	/**
	 * A key released between the insert and the read is claimed at the second insert.
	 */
	public function test_a_key_released_between_the_insert_and_the_read_is_claimed_at_the_second_insert(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'INSERT IGNORE', 1, 13 );
		$this->assertSame( 13, $this->store->claim( 5, 'scope', 'key-1', 'fp' )['id'] );
	}

	/**
	 * A key that keeps vanishing is in progress after two attempts.
	 */
	public function test_a_key_that_keeps_vanishing_is_in_progress_after_two_attempts(): void {
		$this->assertSame(
			array(
				'state'       => 'in_progress',
				'retry_after' => 1,
			),
			$this->store->claim( 5, 'scope', 'key-1', 'fp' )
		);
		$this->assertCount( 4, $this->db->queries );
	}

	/**
	 * A failed insert is a database error not a claim.
	 */
	public function test_a_failed_insert_is_a_database_error_not_a_claim(): void {
		$this->db->fails( 'INSERT IGNORE' );
		$this->assertDatabaseError( $this->store->claim( 5, 'scope', 'key-1', 'fp' ) );
		$this->assertCount( 1, $this->db->queries );
	}

	/**
	 * A failed read of the key is a database error not a vanished key.
	 */
	public function test_a_failed_read_of_the_key_is_a_database_error_not_a_vanished_key(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->fails( 'SELECT *' );
		$this->assertDatabaseError( $this->store->claim( 5, 'scope', 'key-1', 'fp' ) );
		$this->assertCount( 2, $this->db->queries );
	}

	/**
	 * A failed delete of an expired key is a database error.
	 */
	public function test_a_failed_delete_of_an_expired_key_is_a_database_error(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT *', self::row( array( 'expires_at' => '2025-12-31 00:00:00' ) ) );
		$this->db->fails( 'DELETE FROM' );
		$this->assertDatabaseError( $this->store->claim( 5, 'scope', 'key-1', 'fp' ) );
		$this->assertCount( 3, $this->db->queries );
	}

	/**
	 * A failed take over is a database error.
	 */
	public function test_a_failed_take_over_is_a_database_error(): void {
		$this->db->answers( 'INSERT IGNORE', 0 );
		$this->db->answers( 'SELECT *', self::row( array( 'locked_until' => null ) ) );
		$this->db->fails( 'SET claim_token' );
		$this->assertDatabaseError( $this->store->claim( 5, 'scope', 'key-1', 'fp' ) );
	}

	/**
	 * The database message goes to the log not the answer.
	 */
	public function test_the_database_message_goes_to_the_log_not_the_answer(): void {
		$this->db->fails( 'INSERT IGNORE', "Table 'shop_si_idempotency_keys' doesn't exist" );
		$answer = $this->store->claim( 5, 'scope', 'key-1', 'fp' );
		$this->assertStringNotContainsString( 'shop_si_idempotency_keys', $answer->get_error_message() );
		$this->assertStringContainsString( "idempotency keys: claim a key failed: Table 'shop_si_idempotency_keys' doesn't exist", (string) file_get_contents( SERVICE_INTEGRATION_TEST_LOG ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- reads the local test log, no URL
	}

	/**
	 * Complete keeps the answer and ends the claim of its token.
	 */
	public function test_complete_keeps_the_answer_and_ends_the_claim_of_its_token(): void {
		$this->db->answers( 'SET response_status', 1 );
		$this->assertTrue( $this->store->complete( 9, 'tok', 201, array( 'id' => 7 ), array( 'headers' => array() ) ) );
		$this->assertSame( array( 201, '{"id":7}', '{"headers":[]}', 9, 'tok' ), $this->db->prepared[0]['args'] );
		$this->assertStringContainsString( "claim_token = '', locked_until = NULL WHERE id = %d AND claim_token = %s", $this->db->prepared[0]['sql'] );
	}

	/**
	 * Complete after another request took the key over records nothing.
	 */
	public function test_complete_after_another_request_took_the_key_over_records_nothing(): void {
		$this->db->answers( 'SET response_status', 0 );
		$this->assertFalse( $this->store->complete( 9, 'tok', 201, array(), array() ) );
	}

	/**
	 * A failed complete is a database error.
	 */
	public function test_a_failed_complete_is_a_database_error(): void {
		$this->db->fails( 'SET response_status' );
		$this->assertDatabaseError( $this->store->complete( 9, 'tok', 201, array(), array() ) );
	}

	/**
	 * Release deletes only its own unanswered claim.
	 */
	public function test_release_deletes_only_its_own_unanswered_claim(): void {
		$this->db->answers( 'DELETE FROM shop_si_idempotency_keys', 1 );
		$this->assertTrue( $this->store->release( 9, 'tok' ) );
		$this->assertSame( "DELETE FROM shop_si_idempotency_keys WHERE id = 9 AND claim_token = 'tok' AND response_status IS NULL", $this->db->sql()[0] );
	}

	/**
	 * A failed release is a database error.
	 */
	public function test_a_failed_release_is_a_database_error(): void {
		$this->db->fails( 'DELETE FROM' );
		$this->assertDatabaseError( $this->store->release( 9, 'tok' ) );
	}

	/**
	 * The purge deletes the keys expired by the clock in one batch.
	 */
	public function test_the_purge_deletes_the_keys_expired_by_the_clock_in_one_batch(): void {
		$this->db->answers( 'SELECT id FROM shop_si_idempotency_keys WHERE expires_at <= ', array( '3', '4' ) );
		$this->db->answers( 'DELETE FROM shop_si_idempotency_keys WHERE id IN', 2 );
		$this->assertSame( 2, $this->store->purge_expired() );
		$this->assertSame( array( '2026-01-01 00:00:00', Idempotency_Store::PURGE_BATCH ), $this->db->prepared[0]['args'] );
		$this->assertSame( 'DELETE FROM shop_si_idempotency_keys WHERE id IN (3,4)', $this->db->sql()[1] );
	}

	/**
	 * The purge with nothing expired deletes nothing.
	 */
	public function test_the_purge_with_nothing_expired_deletes_nothing(): void {
		$this->assertSame( 0, $this->store->purge_expired() );
		$this->assertCount( 1, $this->db->queries );
	}

	/**
	 * A failed purge read is a database error not zero keys.
	 */
	public function test_a_failed_purge_read_is_a_database_error_not_zero_keys(): void {
		$this->db->fails( 'SELECT id' );
		$this->assertDatabaseError( $this->store->purge_expired() );
		$this->assertCount( 1, $this->db->queries );
	}

	/**
	 * A failed purge delete is a database error.
	 */
	public function test_a_failed_purge_delete_is_a_database_error(): void {
		$this->db->answers( 'SELECT id', array( '3' ) );
		$this->db->fails( 'DELETE FROM' );
		$this->assertDatabaseError( $this->store->purge_expired() );
	}
}

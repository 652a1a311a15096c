<?php
/**
 * The idempotency keys' table on WordPress's wpdb and MariaDB, created by its own install().
 *
 * @package ServiceIntegration
 */

use ServiceIntegration\Support\Database_Error;
use ServiceIntegration\Manufacturing\Idempotency_Store;
use ServiceIntegration\Tests\Fixed_Clock;
use ServiceIntegration\Tests\Store_Test_Case;
use ServiceIntegration\Support\Wp_Options;

/**
 * What Idempotency_Store answers and keeps for each state of a key, and that a database error is
 * an error, never "no row" (which would let the request do its work twice).
 */
final class IdempotencyStoreTest extends Store_Test_Case {

	/** 2026-01-01 00:00:00 UTC. */
	const NOW = 1767225600;

	/**
	 * The store under test.
	 *
	 * @var Idempotency_Store
	 */
	private Idempotency_Store $store;

	/**
	 * The store's table.
	 *
	 * @var string
	 */
	private string $table;

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		parent::setUp();
		$this->store = new Idempotency_Store( $this->db, new Fixed_Clock( self::NOW ), new Wp_Options( $this->db ) );
		$this->table = $this->store->table();
	}

	/**
	 * A row of user 5's key "key-1" in scope "scope" for fingerprint "fp", as another request left it; returns its id.
	 *
	 * Written on another connection, so that it can happen between two statements of the store's.
	 *
	 * @param array<string, string|null> $columns Columns over the defaults (a live claim of token "old-token").
	 * @param string                     $insert  INSERT, or INSERT IGNORE to leave a row already there.
	 */
	private function existing( array $columns = array(), string $insert = 'INSERT' ): int {
		$row    = array_merge(
			array(
				'user_id'         => '5',
				'scope'           => 'scope',
				'key_hash'        => hash( 'sha256', 'key-1' ),
				'fingerprint'     => 'fp',
				'claim_token'     => 'old-token',
				'locked_until'    => '2026-01-01 00:00:20',
				'response_status' => null,
				'response_data'   => null,
				'response_meta'   => null,
				'created_at'      => '2025-12-31 23:59:50',
				'expires_at'      => '2026-01-01 12:00:00',
			),
			$columns
		);
		$values = array_map( fn( $value ) => null === $value ? 'NULL' : $this->db->prepare( '%s', $value ), $row );
		$this->sql( "{$insert} INTO {$this->table} (" . implode( ', ', array_keys( $row ) ) . ') VALUES (' . implode( ', ', $values ) . ')' );
		return (int) $this->own( fn() => $this->other_request()->get_var( "SELECT MAX(id) FROM {$this->table}" ) );
	}

	/**
	 * The table's rows by id.
	 *
	 * @return array<int, array<string, string|null>>
	 */
	private function keys(): array {
		return array_column( $this->rows( $this->table, '1 = 1 ORDER BY id' ), null, 'id' );
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
	 * A new key is claimed: one row, its lease and expiry from the clock, the claim's token.
	 */
	public function test_a_new_key_is_claimed_with_its_lease_and_expiry_from_the_clock(): void {
		$claim = $this->store->claim( 5, 'create:commande_fabrication', 'key-1', 'fp' );
		$this->assertSame( 'claimed', $claim['state'] );
		$this->assertSame( 32, strlen( $claim['token'] ) );
		$keys = $this->keys();
		$this->assertSame( array( $claim['id'] ), array_keys( $keys ) );
		$row = $keys[ $claim['id'] ];
		$this->assertSame(
			array( '5', 'create:commande_fabrication', hash( 'sha256', 'key-1' ), 'fp', $claim['token'], '2026-01-01 00:01:00', '2026-01-01 00:00:00', '2026-01-02 00:00:00', null ),
			array( $row['user_id'], $row['scope'], $row['key_hash'], $row['fingerprint'], $row['claim_token'], $row['locked_until'], $row['created_at'], $row['expires_at'], $row['response_status'] )
		);
	}

	/**
	 * The key is stored as its digest whatever its length, and the same long key finds its row.
	 */
	public function test_the_key_is_stored_as_its_digest_whatever_its_length(): void {
		$long  = str_repeat( 'k', 255 );
		$claim = $this->store->claim( 5, 'scope', $long, 'fp' );
		$this->assertSame( hash( 'sha256', $long ), $this->keys()[ $claim['id'] ]['key_hash'] );
		$this->assertSame( 'in_progress', $this->store->claim( 5, 'scope', $long, 'fp' )['state'] );
	}

	/**
	 * The same key of another user or in another scope is another key.
	 */
	public function test_the_same_key_of_another_user_or_scope_is_another_key(): void {
		$this->existing();
		$this->assertSame( 'claimed', $this->store->claim( 6, 'scope', 'key-1', 'fp' )['state'] );
		$this->assertSame( 'claimed', $this->store->claim( 5, 'other', 'key-1', 'fp' )['state'] );
		$this->assertCount( 3, $this->keys() );
	}

	/**
	 * A key answered before replays its first answer.
	 */
	public function test_a_key_answered_before_replays_its_first_answer(): void {
		$this->existing(
			array(
				'response_status' => '201',
				'response_data'   => '{"id":7}',
				'response_meta'   => '{"headers":{"Location":"/x/7"},"links":[]}',
				'locked_until'    => null,
				'claim_token'     => '',
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
	}

	/**
	 * A key used with another request is a mismatch and changes nothing.
	 */
	public function test_a_key_used_with_another_request_is_a_mismatch_and_changes_nothing(): void {
		$this->existing();
		$before = $this->keys();
		$this->assertSame( array( 'state' => 'mismatch' ), $this->store->claim( 5, 'scope', 'key-1', 'another' ) );
		$this->assertSame( $before, $this->keys() );
	}

	/**
	 * A key another request holds is in progress for the rest of its lease.
	 */
	public function test_a_key_another_request_holds_is_in_progress_for_the_rest_of_its_lease(): void {
		$this->existing();
		$before = $this->keys();
		$this->assertSame(
			array(
				'state'       => 'in_progress',
				'retry_after' => 20,
			),
			$this->store->claim( 5, 'scope', 'key-1', 'fp' )
		);
		$this->assertSame( $before, $this->keys() );
	}

	/**
	 * An abandoned key is taken over: the row holds the new claim's token and lease.
	 */
	public function test_an_abandoned_key_is_taken_over(): void {
		$id    = $this->existing( array( 'locked_until' => '2025-12-31 23:59:00' ) );
		$claim = $this->store->claim( 5, 'scope', 'key-1', 'fp' );
		$this->assertSame( 'claimed', $claim['state'] );
		$this->assertSame( $id, $claim['id'] );
		$this->assertNotSame( 'old-token', $claim['token'] );
		$row = $this->keys()[ $id ];
		$this->assertSame( array( $claim['token'], '2026-01-01 00:01:00' ), array( $row['claim_token'], $row['locked_until'] ) );
	}

	/**
	 * An abandoned key another request takes over between the read and the take-over stays theirs.
	 */
	public function test_an_abandoned_key_another_request_just_took_over_is_in_progress(): void {
		$id = $this->existing( array( 'locked_until' => '2025-12-31 23:59:00' ) );
		$this->just_before( 'SET claim_token', fn() => $this->sql( "UPDATE {$this->table} SET claim_token = 'their-token', locked_until = '2026-01-01 00:01:00' WHERE id = {$id}" ) );
		$this->assertSame(
			array(
				'state'       => 'in_progress',
				'retry_after' => 1,
			),
			$this->store->claim( 5, 'scope', 'key-1', 'fp' )
		);
		$this->assertSame( 'their-token', $this->keys()[ $id ]['claim_token'] );
	}

	/**
	 * An abandoned key answered meanwhile is not taken over.
	 */
	public function test_an_abandoned_key_answered_meanwhile_is_not_taken_over(): void {
		$id = $this->existing( array( 'locked_until' => '2025-12-31 23:59:00' ) );
		$this->just_before( 'SET claim_token', fn() => $this->sql( "UPDATE {$this->table} SET response_status = 201, response_data = '{}', response_meta = '{}' WHERE id = {$id}" ) );
		$this->assertSame( 'in_progress', $this->store->claim( 5, 'scope', 'key-1', 'fp' )['state'] );
		$this->assertSame( 'old-token', $this->keys()[ $id ]['claim_token'] );
	}

	/**
	 * An expired key is deleted and claimed anew, whatever request it was used with.
	 */
	public function test_an_expired_key_is_deleted_and_claimed_anew(): void {
		$old   = $this->existing( array( 'expires_at' => '2025-12-31 00:00:00' ) );
		$claim = $this->store->claim( 5, 'scope', 'key-1', 'another' );
		$this->assertSame( 'claimed', $claim['state'] );
		$this->assertNotSame( $old, $claim['id'] );
		$keys = $this->keys();
		$this->assertSame( array( $claim['id'] ), array_keys( $keys ) );
		$this->assertSame( array( 'another', '2026-01-02 00:00:00' ), array( $keys[ $claim['id'] ]['fingerprint'], $keys[ $claim['id'] ]['expires_at'] ) );
	}

	/**
	 * A key released between the insert and the read is claimed at the second insert.
	 */
	public function test_a_key_released_between_the_insert_and_the_read_is_claimed_at_the_second_insert(): void {
		$this->existing();
		$this->just_before( 'SELECT *', fn() => $this->sql( "DELETE FROM {$this->table}" ) );
		$claim = $this->store->claim( 5, 'scope', 'key-1', 'fp' );
		$this->assertSame( 'claimed', $claim['state'] );
		$this->assertSame( $claim['token'], $this->keys()[ $claim['id'] ]['claim_token'] );
	}

	/**
	 * A key that vanishes before each read (and is back before each insert) is in progress after two attempts.
	 */
	public function test_a_key_that_keeps_vanishing_is_in_progress_after_two_attempts(): void {
		$this->existing();
		$this->just_before( 'SELECT *', fn() => $this->sql( "DELETE FROM {$this->table}" ), 2 );
		$this->just_before( 'INSERT IGNORE', fn() => $this->existing( array(), 'INSERT IGNORE' ), 2 );
		$this->assertSame(
			array(
				'state'       => 'in_progress',
				'retry_after' => 1,
			),
			$this->store->claim( 5, 'scope', 'key-1', 'fp' )
		);
	}

	/**
	 * A failed insert is a database error, not a claim.
	 */
	public function test_a_failed_insert_is_a_database_error_not_a_claim(): void {
		$this->refuse( 'INSERT', $this->table );
		$this->assertDatabaseError( $this->store->claim( 5, 'scope', 'key-1', 'fp' ) );
		$this->assertSame( array(), $this->keys() );
	}

	/**
	 * A failed read of the key is a database error, not a vanished key.
	 */
	public function test_a_failed_read_of_the_key_is_a_database_error_not_a_vanished_key(): void {
		$this->existing();
		$this->just_before( 'SELECT *', fn() => $this->break_table( $this->table ) );
		$this->assertDatabaseError( $this->store->claim( 5, 'scope', 'key-1', 'fp' ) );
	}

	/**
	 * A failed delete of an expired key is a database error, and the key is not claimed.
	 */
	public function test_a_failed_delete_of_an_expired_key_is_a_database_error(): void {
		$id = $this->existing( array( 'expires_at' => '2025-12-31 00:00:00' ) );
		$this->refuse( 'DELETE', $this->table );
		$this->assertDatabaseError( $this->store->claim( 5, 'scope', 'key-1', 'fp' ) );
		$this->assertSame( array( $id ), array_keys( $this->keys() ) );
	}

	/**
	 * A failed take-over is a database error, and the row stays the dead request's.
	 */
	public function test_a_failed_take_over_is_a_database_error(): void {
		$id = $this->existing( array( 'locked_until' => null ) );
		$this->refuse( 'UPDATE', $this->table );
		$this->assertDatabaseError( $this->store->claim( 5, 'scope', 'key-1', 'fp' ) );
		$this->assertSame( 'old-token', $this->keys()[ $id ]['claim_token'] );
	}

	/**
	 * The database's message goes to the log, not the answer.
	 */
	public function test_the_database_message_goes_to_the_log_not_the_answer(): void {
		$this->break_table( $this->table );
		$answer = $this->store->claim( 5, 'scope', 'key-1', 'fp' );
		$this->assertDatabaseError( $answer );
		$this->assertStringNotContainsString( $this->table, $answer->get_error_message() );
		$this->assertMatchesRegularExpression( '/idempotency keys: claim a key failed: Table \'[^\']*' . $this->table . '\' doesn\'t exist/', (string) file_get_contents( SERVICE_INTEGRATION_TEST_LOG ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- reads the local test log, no URL
	}

	/**
	 * Complete keeps the answer and ends the claim of its token; the next request replays it.
	 */
	public function test_complete_keeps_the_answer_and_ends_the_claim_of_its_token(): void {
		$claim = $this->store->claim( 5, 'scope', 'key-1', 'fp' );
		$this->assertTrue( $this->store->complete( $claim['id'], $claim['token'], 201, array( 'id' => 7 ), array( 'headers' => array() ) ) );
		$row = $this->keys()[ $claim['id'] ];
		$this->assertSame( array( '201', '{"id":7}', '{"headers":[]}', '', null ), array( $row['response_status'], $row['response_data'], $row['response_meta'], $row['claim_token'], $row['locked_until'] ) );
		$this->assertSame( array( 'replay', 201, array( 'id' => 7 ) ), array_values( array_slice( $this->store->claim( 5, 'scope', 'key-1', 'fp' ), 0, 3 ) ) );
	}

	/**
	 * Complete after another request took the key over records nothing.
	 */
	public function test_complete_after_another_request_took_the_key_over_records_nothing(): void {
		$id = $this->existing( array( 'claim_token' => 'their-token' ) );
		$this->assertFalse( $this->store->complete( $id, 'old-token', 201, array(), array() ) );
		$this->assertNull( $this->keys()[ $id ]['response_status'] );
	}

	/**
	 * A failed complete is a database error.
	 */
	public function test_a_failed_complete_is_a_database_error(): void {
		$claim = $this->store->claim( 5, 'scope', 'key-1', 'fp' );
		$this->refuse( 'UPDATE', $this->table );
		$this->assertDatabaseError( $this->store->complete( $claim['id'], $claim['token'], 201, array(), array() ) );
		$this->assertNull( $this->keys()[ $claim['id'] ]['response_status'] );
	}

	/**
	 * Release deletes only its own unanswered claim; the key is then new again.
	 */
	public function test_release_deletes_only_its_own_unanswered_claim(): void {
		$theirs   = $this->existing( array( 'claim_token' => 'their-token' ) );
		$answered = $this->existing(
			array(
				'scope'           => 'answered',
				'claim_token'     => 'tok',
				'response_status' => '201',
			)
		);
		$this->assertTrue( $this->store->release( $theirs, 'old-token' ) );
		$this->assertTrue( $this->store->release( $answered, 'tok' ) );
		$this->assertSame( array( $theirs, $answered ), array_keys( $this->keys() ) );
		$claim = $this->store->claim( 5, 'other', 'key-1', 'fp' );
		$this->assertTrue( $this->store->release( $claim['id'], $claim['token'] ) );
		$this->assertSame( array( $theirs, $answered ), array_keys( $this->keys() ) );
		$this->assertSame( 'claimed', $this->store->claim( 5, 'other', 'key-1', 'another' )['state'] );
	}

	/**
	 * A failed release is a database error.
	 */
	public function test_a_failed_release_is_a_database_error(): void {
		$claim = $this->store->claim( 5, 'scope', 'key-1', 'fp' );
		$this->refuse( 'DELETE', $this->table );
		$this->assertDatabaseError( $this->store->release( $claim['id'], $claim['token'] ) );
		$this->assertCount( 1, $this->keys() );
	}

	/**
	 * The purge deletes the keys expired by the clock, and only they.
	 */
	public function test_the_purge_deletes_the_keys_expired_by_the_clock(): void {
		$this->existing(
			array(
				'scope'      => 'a',
				'expires_at' => '2025-12-31 00:00:00',
			)
		);
		$this->existing(
			array(
				'scope'      => 'b',
				'expires_at' => '2026-01-01 00:00:00',
			)
		);
		$live = $this->existing(
			array(
				'scope'      => 'c',
				'expires_at' => '2026-01-01 00:00:01',
			)
		);
		$this->assertSame( 2, $this->store->purge_expired() );
		$this->assertSame( array( $live ), array_keys( $this->keys() ) );
	}

	/**
	 * The purge with nothing expired deletes nothing.
	 */
	public function test_the_purge_with_nothing_expired_deletes_nothing(): void {
		$live = $this->existing();
		$this->assertSame( 0, $this->store->purge_expired() );
		$this->assertSame( array( $live ), array_keys( $this->keys() ) );
	}

	/**
	 * A failed purge read is a database error, not zero keys.
	 */
	public function test_a_failed_purge_read_is_a_database_error_not_zero_keys(): void {
		$this->existing( array( 'expires_at' => '2025-12-31 00:00:00' ) );
		$this->break_table( $this->table );
		$this->assertDatabaseError( $this->store->purge_expired() );
	}

	/**
	 * A failed purge delete is a database error, and the key stays.
	 */
	public function test_a_failed_purge_delete_is_a_database_error(): void {
		$id = $this->existing( array( 'expires_at' => '2025-12-31 00:00:00' ) );
		$this->refuse( 'DELETE', $this->table );
		$this->assertDatabaseError( $this->store->purge_expired() );
		$this->assertSame( array( $id ), array_keys( $this->keys() ) );
	}
}

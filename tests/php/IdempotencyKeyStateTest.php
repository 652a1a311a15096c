<?php
/**
 * What a request meets at its idempotency key's row, and how long a key and a claim hold.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Manufacturing\Idempotency_Key_State;

/**
 * Idempotency_Key_State: expiry and lease from a given time, the state of a row, the stored answer.
 */
final class IdempotencyKeyStateTest extends TestCase {

	/** 2026-01-01 00:00:00 UTC. */
	const NOW = 1767225600;

	/**
	 * A row claimed by a request with fingerprint "fp", live for a day, its lease 30 s ahead.
	 *
	 * @param array<string, mixed> $columns Columns over the defaults.
	 */
	private static function row( array $columns = array() ): object {
		return (object) array_merge(
			array(
				'fingerprint'     => 'fp',
				'response_status' => null,
				'response_data'   => null,
				'response_meta'   => null,
				'locked_until'    => '2026-01-01 00:00:30',
				'expires_at'      => '2026-01-02 00:00:00',
			),
			$columns
		);
	}

	/**
	 * A key answers as the first time for 24 hours from its claim.
	 */
	public function test_a_key_answers_as_the_first_time_for_24_hours_from_its_claim(): void {
		$this->assertSame( self::NOW + 86400, Idempotency_Key_State::expires_at( self::NOW ) );
	}

	/**
	 * A claim holds for its lease from now.
	 */
	public function test_a_claim_holds_for_its_lease_from_now(): void {
		$this->assertSame( self::NOW + 60, Idempotency_Key_State::locked_until( self::NOW ) );
	}

	/**
	 * A row held by another request is in progress with the lease left to wait.
	 */
	public function test_a_row_held_by_another_request_is_in_progress_with_the_lease_left_to_wait(): void {
		$this->assertSame(
			array(
				'state'       => Idempotency_Key_State::IN_PROGRESS,
				'retry_after' => 30,
			),
			Idempotency_Key_State::of( self::row(), 'fp', self::NOW )
		);
	}

	/**
	 * A row whose lease ends this second is abandoned.
	 */
	public function test_a_row_whose_lease_ends_this_second_is_abandoned(): void {
		$this->assertSame( array( 'state' => Idempotency_Key_State::ABANDONED ), Idempotency_Key_State::of( self::row(), 'fp', self::NOW + 30 ) );
	}

	/**
	 * An unanswered row without a lease is abandoned.
	 */
	public function test_an_unanswered_row_without_a_lease_is_abandoned(): void {
		$this->assertSame( Idempotency_Key_State::ABANDONED, Idempotency_Key_State::of( self::row( array( 'locked_until' => null ) ), 'fp', self::NOW )['state'] );
	}

	/**
	 * An answered row with the same request is a replay.
	 */
	public function test_an_answered_row_with_the_same_request_is_a_replay(): void {
		$row = self::row(
			array(
				'response_status' => '201',
				'locked_until'    => null,
			)
		);
		$this->assertSame( array( 'state' => Idempotency_Key_State::REPLAY ), Idempotency_Key_State::of( $row, 'fp', self::NOW ) );
	}

	/**
	 * Another request with the key is a mismatch whether answered or not.
	 */
	public function test_another_request_with_the_key_is_a_mismatch_whether_answered_or_not(): void {
		$this->assertSame( Idempotency_Key_State::MISMATCH, Idempotency_Key_State::of( self::row(), 'other', self::NOW )['state'] );
		$this->assertSame( Idempotency_Key_State::MISMATCH, Idempotency_Key_State::of( self::row( array( 'response_status' => '201' ) ), 'other', self::NOW )['state'] );
	}

	/**
	 * A row past its 24 hours is expired even for another request.
	 */
	public function test_a_row_past_its_24_hours_is_expired_even_for_another_request(): void {
		$this->assertSame( Idempotency_Key_State::EXPIRED, Idempotency_Key_State::of( self::row(), 'other', self::NOW + 86400 )['state'] );
		$this->assertSame( Idempotency_Key_State::EXPIRED, Idempotency_Key_State::of( self::row( array( 'response_status' => '201' ) ), 'fp', self::NOW + 86401 )['state'] );
	}

	/**
	 * A row one second before its expiry still answers.
	 */
	public function test_a_row_one_second_before_its_expiry_still_answers(): void {
		$row = self::row( array( 'response_status' => '201' ) );
		$this->assertSame( Idempotency_Key_State::REPLAY, Idempotency_Key_State::of( $row, 'fp', self::NOW + 86399 )['state'] );
	}

	/**
	 * A row without a readable expiry never holds the key.
	 */
	public function test_a_row_without_a_readable_expiry_never_holds_the_key(): void {
		$this->assertSame( Idempotency_Key_State::EXPIRED, Idempotency_Key_State::of( self::row( array( 'expires_at' => null ) ), 'fp', self::NOW )['state'] );
		$this->assertSame( Idempotency_Key_State::EXPIRED, Idempotency_Key_State::of( self::row( array( 'expires_at' => 'not a date' ) ), 'fp', self::NOW )['state'] );
	}

	/**
	 * The stored answer keeps objects inside the data and its headers and links.
	 */
	public function test_the_stored_answer_keeps_objects_inside_the_data_and_its_headers_and_links(): void {
		$answer = Idempotency_Key_State::answer(
			self::row(
				array(
					'response_status' => '201',
					'response_data'   => '{"id":7,"meta":{"source_order_id":42},"rows":[]}',
					'response_meta'   => '{"headers":{"Location":"/x/7"},"links":{"self":[{"href":"/x/7"}]}}',
				)
			)
		);
		$this->assertSame( 201, $answer['status'] );
		$this->assertSame( 7, $answer['data']['id'] );
		$this->assertEquals( (object) array( 'source_order_id' => 42 ), $answer['data']['meta'] );
		$this->assertSame( array(), $answer['data']['rows'] );
		$this->assertSame(
			array(
				'headers' => array( 'Location' => '/x/7' ),
				'links'   => array( 'self' => array( array( 'href' => '/x/7' ) ) ),
			),
			$answer['meta']
		);
	}

	/**
	 * A stored answer with an empty body is an empty array.
	 */
	public function test_a_stored_answer_with_an_empty_body_is_an_empty_array(): void {
		$answer = Idempotency_Key_State::answer( self::row( array( 'response_status' => 204 ) ) );
		$this->assertSame( 204, $answer['status'] );
		$this->assertSame( array(), $answer['data'] );
		$this->assertSame( array(), $answer['meta'] );
	}
}

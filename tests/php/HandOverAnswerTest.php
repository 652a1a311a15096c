<?php
/**
 * The sidecar's answer to a hand-over batch.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Outbound\Outbound_Rules;

/**
 * Outbound_Rules::hand_over_verdict(): handed over, parked, too large, or tried again later.
 */
final class HandOverAnswerTest extends TestCase {

	/**
	 * Accepted and duplicate events are handed over.
	 */
	public function test_accepted_and_duplicate_events_are_handed_over(): void {
		$this->assertSame(
			array(
				'acknowledged' => array( 'e1', 'e3', 'e2' ),
				'rejected'     => array(),
				'too_large'    => false,
				'error'        => null,
			),
			Outbound_Rules::hand_over_verdict(
				null,
				202,
				array(
					'accepted'   => array( 'e1', 'e3' ),
					'duplicates' => array( 'e2' ),
					'rejected'   => array(),
				),
				3
			)
		);
	}

	/**
	 * Rejected events are parked by index with their code and message.
	 */
	public function test_rejected_events_are_parked_by_index_with_their_code_and_message(): void {
		$verdict = Outbound_Rules::hand_over_verdict(
			null,
			202,
			array(
				'accepted' => array( 'e1' ),
				'rejected' => array(
					array(
						'index'   => 2,
						'code'    => 'invalid_event',
						'message' => 'type is not known',
					),
					array( 'index' => '1' ),
				),
			),
			3
		);
		$this->assertSame( array( 'e1' ), $verdict['acknowledged'] );
		$this->assertSame(
			array(
				array(
					'index'  => 2,
					'reason' => 'invalid_event: type is not known',
				),
				array(
					'index'  => 1,
					'reason' => 'rejected: ',
				),
			),
			$verdict['rejected']
		);
		$this->assertNull( $verdict['error'] );
	}

	/**
	 * Rejected items that name no row of the batch.
	 *
	 * @return array<string, array{0: mixed}>
	 */
	public static function stray_rejections(): array {
		return array(
			'past the batch'           => array( array( 'index' => 3 ) ),
			'negative'                 => array( array( 'index' => -1 ) ),
			'no index'                 => array( array( 'code' => 'invalid_event' ) ),
			'a null index'             => array( array( 'index' => null ) ),
			'an item that is text'     => array( 'invalid_event' ),
			'an item that is a number' => array( 0 ),
		);
	}

	/**
	 * Nothing is parked for them.
	 *
	 * @dataProvider stray_rejections
	 * @param mixed $item Rejected item.
	 */
	public function test_a_rejection_naming_no_row_of_the_batch_parks_nothing( $item ): void {
		$verdict = Outbound_Rules::hand_over_verdict( null, 202, array( 'rejected' => array( $item ) ), 3 );
		$this->assertSame( array(), $verdict['rejected'] );
		$this->assertNull( $verdict['error'] );
	}

	/**
	 * An accepted answer without lists hands nothing over and is no failure.
	 */
	public function test_an_accepted_answer_without_lists_hands_nothing_over_and_is_no_failure(): void {
		$this->assertSame(
			array(
				'acknowledged' => array(),
				'rejected'     => array(),
				'too_large'    => false,
				'error'        => null,
			),
			Outbound_Rules::hand_over_verdict( null, 202, array(), 2 )
		);
	}

	/**
	 * Event ids are text whatever the answer holds.
	 */
	public function test_event_ids_are_text_whatever_the_answer_holds(): void {
		$verdict = Outbound_Rules::hand_over_verdict( null, 202, array( 'accepted' => array( 17, 'e2' ) ), 2 );
		$this->assertSame( array( '17', 'e2' ), $verdict['acknowledged'] );
	}

	/**
	 * A 413 says the body was too large and nothing else.
	 */
	public function test_a_413_says_the_body_was_too_large_and_nothing_else(): void {
		$this->assertSame(
			array(
				'acknowledged' => array(),
				'rejected'     => array(),
				'too_large'    => true,
				'error'        => null,
			),
			Outbound_Rules::hand_over_verdict( null, 413, array( 'accepted' => array( 'e1' ) ), 1 )
		);
	}

	/**
	 * Answers that are nothing the events did, and the error recorded.
	 *
	 * @return array<string, array{0: string|null, 1: int, 2: string}>
	 */
	public static function failures(): array {
		return array(
			'no answer'         => array( 'http_request_failed', 0, 'http_request_failed' ),
			'not configured'    => array( 'sidecar_not_configured', 0, 'sidecar_not_configured' ),
			'a wrong key'       => array( null, 401, 'HTTP 401' ),
			'a failing sidecar' => array( null, 500, 'HTTP 500' ),
			'unavailable'       => array( null, 503, 'HTTP 503' ),
			'a plain 200'       => array( null, 200, 'HTTP 200' ),
			'a bad request'     => array( null, 400, 'HTTP 400' ),
		);
	}

	/**
	 * The batch is tried again later, whole.
	 *
	 * @dataProvider failures
	 * @param string|null $error_code Request error.
	 * @param int         $status     HTTP status.
	 * @param string      $error      Recorded error.
	 */
	public function test_any_other_answer_fails_the_batch_with_its_reason( ?string $error_code, int $status, string $error ): void {
		$verdict = Outbound_Rules::hand_over_verdict( $error_code, $status, array( 'accepted' => array( 'e1' ) ), 1 );
		$this->assertSame( $error, $verdict['error'] );
		$this->assertSame( array(), $verdict['acknowledged'] );
		$this->assertSame( array(), $verdict['rejected'] );
		$this->assertFalse( $verdict['too_large'] );
	}
}

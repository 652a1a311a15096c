<?php
/**
 * What the sidecar's answer to one hand-over batch means for its rows.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A valid batch is always answered 202 {accepted, duplicates, rejected}: the accepted and the
 * duplicate event ids are handed over, each rejected item (by its index in the batch) is parked
 * with its code and message. A 413 says the body was over the sidecar's limit. Anything else (no
 * answer, a wrong key, a failing sidecar) is nothing the events did: the whole batch is tried
 * again later. Hand_Over applies the verdict; this class only reads the answer (tested on its
 * own, tests/php/HandOverAnswerTest.php).
 */
final class Hand_Over_Answer {

	/**
	 * The verdict on a batch of $count rows.
	 *
	 * @param string|null $error_code The request's error code when it got no answer.
	 * @param int         $status     HTTP status (0 without an answer).
	 * @param array       $body       Decoded answer.
	 * @param int         $count      Rows sent.
	 * @return array{acknowledged: string[], rejected: array<int, array{index: int, reason: string}>, too_large: bool, error: string|null}
	 *               Event ids handed over; the rows to park, by batch index, and why; whether the
	 *               body was too large; why the batch failed.
	 */
	public static function read( ?string $error_code, int $status, array $body, int $count ): array {
		$verdict = array(
			'acknowledged' => array(),
			'rejected'     => array(),
			'too_large'    => false,
			'error'        => null,
		);
		if ( null === $error_code && 202 === $status ) {
			$verdict['acknowledged'] = array_map( 'strval', array_merge( (array) ( $body['accepted'] ?? array() ), (array) ( $body['duplicates'] ?? array() ) ) );
			foreach ( (array) ( $body['rejected'] ?? array() ) as $item ) {
				$index = is_array( $item ) && isset( $item['index'] ) ? (int) $item['index'] : -1;
				if ( $index >= 0 && $index < $count ) {
					$verdict['rejected'][] = array(
						'index'  => $index,
						'reason' => (string) ( $item['code'] ?? 'rejected' ) . ': ' . (string) ( $item['message'] ?? '' ),
					);
				}
			}
			return $verdict;
		}
		if ( null === $error_code && 413 === $status ) {
			$verdict['too_large'] = true;
			return $verdict;
		}
		$verdict['error'] = $error_code ?? 'HTTP ' . $status;
		return $verdict;
	}
}

<?php
/**
 * Packs encoded outbox events into one hand-over request (pure: no WordPress, no I/O).
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The sidecar takes `{"events":[...]}` up to its body limit. Events are taken oldest first
 * while the body stays within the byte cap; an event that could never fit, even alone, is
 * set apart to be parked, so it never blocks the rows behind it. When the sidecar still
 * answers 413 (its limit is lower than the cap), the run goes on one row per batch, and a
 * single row it refuses that way is parked.
 */
final class Batch_Packer {

	/** The request body around the events. */
	const ENVELOPE = '{"events":[]}';

	/** Rows per batch after a 413: each event alone, so only the one too large is parked. */
	const ONE_AT_A_TIME = 1;

	/**
	 * Takes events, in order, into one batch.
	 *
	 * @param array<int, string> $encoded   Each row's event JSON, by row position, oldest first.
	 * @param int                $max_bytes The byte cap of one request body.
	 * @return array{batch: int[], too_large: int[], left: bool} The positions sent in this batch;
	 *         those over the cap on their own (to park); whether rows remain for the next batch.
	 */
	public static function pack( array $encoded, int $max_bytes ): array {
		$batch     = array();
		$too_large = array();
		$bytes     = strlen( self::ENVELOPE );
		foreach ( $encoded as $position => $json ) {
			$size = strlen( $json ) + 1; // With its comma.
			if ( strlen( self::ENVELOPE ) + $size > $max_bytes ) {
				$too_large[] = $position;
				continue;
			}
			if ( $bytes + $size > $max_bytes ) {
				return array(
					'batch'     => $batch,
					'too_large' => $too_large,
					'left'      => true,
				);
			}
			$batch[] = $position;
			$bytes  += $size;
		}
		return array(
			'batch'     => $batch,
			'too_large' => $too_large,
			'left'      => false,
		);
	}

	/**
	 * The request body of a batch.
	 *
	 * @param string[] $events Event JSON, in batch order.
	 */
	public static function body( array $events ): string {
		return '{"events":[' . implode( ',', $events ) . ']}';
	}

	/**
	 * What a 413 from the sidecar means for a batch of this many rows: one row alone is
	 * parked (it can never go); a larger batch is sent again one row at a time.
	 *
	 * @param int $rows_sent Rows in the refused batch.
	 * @return array{park: bool, rows_per_batch: int}
	 */
	public static function after_too_large( int $rows_sent ): array {
		return array(
			'park'           => 1 === $rows_sent,
			'rows_per_batch' => self::ONE_AT_A_TIME,
		);
	}

	/**
	 * Whether another batch should be read after this one.
	 *
	 * @param int  $rows_read      Rows read from the outbox for this batch.
	 * @param int  $rows_per_batch Rows asked for.
	 * @param bool $left           Rows of this read were left for the next batch (byte cap or a 413).
	 */
	public static function more_to_read( int $rows_read, int $rows_per_batch, bool $left ): bool {
		return $left || $rows_read >= $rows_per_batch;
	}
}

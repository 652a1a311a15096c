<?php
/**
 * Batch packing of the outbox hand-over.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Outbound\Batch_Packer;

/**
 * Batch_Packer: byte cap, events too large on their own, and the fallback after a 413.
 */
final class BatchPackerTest extends TestCase {

	/**
	 * An event's JSON of exactly $bytes bytes.
	 *
	 * @param int $bytes Size.
	 */
	private static function event( int $bytes ): string {
		$json = '{"id":"x"}';
		return substr( $json, 0, -1 ) . ',"p":"' . str_repeat( 'a', $bytes - strlen( $json ) - 7 ) . '"}';
	}

	/**
	 * Takes every event that fits.
	 */
	public function test_takes_every_event_that_fits(): void {
		$encoded = array( self::event( 100 ), self::event( 100 ), self::event( 100 ) );
		$this->assertSame(
			array(
				'batch'     => array( 0, 1, 2 ),
				'too_large' => array(),
				'left'      => false,
			),
			Batch_Packer::pack( $encoded, 1024 )
		);
	}

	/**
	 * Stops at the byte cap and says rows are left.
	 */
	public function test_stops_at_the_byte_cap_and_says_rows_are_left(): void {
		// Envelope 13 bytes + (100 + 1) per event: two fit in 250 bytes, the third does not.
		$packed = Batch_Packer::pack( array( self::event( 100 ), self::event( 100 ), self::event( 100 ) ), 250 );
		$this->assertSame( array( 0, 1 ), $packed['batch'] );
		$this->assertTrue( $packed['left'] );
		$this->assertSame( array(), $packed['too_large'] );
	}

	/**
	 * The cap counts the envelope and the commas exactly.
	 */
	public function test_the_cap_counts_the_envelope_and_the_commas_exactly(): void {
		$two_events = strlen( Batch_Packer::ENVELOPE ) + 2 * 101;
		$this->assertSame( array( 0, 1 ), Batch_Packer::pack( array( self::event( 100 ), self::event( 100 ) ), $two_events )['batch'] );
		$this->assertSame( array( 0 ), Batch_Packer::pack( array( self::event( 100 ), self::event( 100 ) ), $two_events - 1 )['batch'] );
	}

	/**
	 * Sets apart an event too large alone without blocking the next.
	 */
	public function test_sets_apart_an_event_too_large_alone_without_blocking_the_next(): void {
		$packed = Batch_Packer::pack(
			array(
				3 => self::event( 100 ),
				4 => self::event( 5000 ),
				5 => self::event( 100 ),
			),
			1024
		);
		$this->assertSame( array( 3, 5 ), $packed['batch'] );
		$this->assertSame( array( 4 ), $packed['too_large'] );
		$this->assertFalse( $packed['left'] );
	}

	/**
	 * A large event that fits alone waits for the next batch.
	 */
	public function test_a_large_event_that_fits_alone_waits_for_the_next_batch(): void {
		$packed = Batch_Packer::pack( array( self::event( 600 ), self::event( 600 ) ), 1024 );
		$this->assertSame( array( 0 ), $packed['batch'] );
		$this->assertTrue( $packed['left'] );
	}

	/**
	 * Nothing to pack.
	 */
	public function test_nothing_to_pack(): void {
		$this->assertSame(
			array(
				'batch'     => array(),
				'too_large' => array(),
				'left'      => false,
			),
			Batch_Packer::pack( array(), 1024 )
		);
	}

	/**
	 * The body is the events in order.
	 */
	public function test_the_body_is_the_events_in_order(): void {
		$this->assertSame( '{"events":[{"a":1},{"b":2}]}', Batch_Packer::body( array( '{"a":1}', '{"b":2}' ) ) );
		$this->assertSame( Batch_Packer::ENVELOPE, Batch_Packer::body( array() ) );
		$this->assertSame( array( 'events' => array( array( 'a' => 1 ) ) ), json_decode( Batch_Packer::body( array( '{"a":1}' ) ), true ) );
	}

	/**
	 * After a 413 a batch is sent again one row at a time.
	 */
	public function test_after_a_413_a_batch_is_sent_again_one_row_at_a_time(): void {
		$this->assertSame(
			array(
				'park'           => false,
				'rows_per_batch' => 1,
			),
			Batch_Packer::after_too_large( 40 )
		);
	}

	/**
	 * After a 413 a single row is parked.
	 */
	public function test_after_a_413_a_single_row_is_parked(): void {
		$this->assertSame(
			array(
				'park'           => true,
				'rows_per_batch' => 1,
			),
			Batch_Packer::after_too_large( 1 )
		);
	}

	/**
	 * Reads on while rows were left or the read was full.
	 */
	public function test_reads_on_while_rows_were_left_or_the_read_was_full(): void {
		$this->assertTrue( Batch_Packer::more_to_read( 100, 100, false ) );
		$this->assertTrue( Batch_Packer::more_to_read( 30, 100, true ) );
		$this->assertTrue( Batch_Packer::more_to_read( 1, 1, false ) );
		$this->assertFalse( Batch_Packer::more_to_read( 30, 100, false ) );
		$this->assertFalse( Batch_Packer::more_to_read( 0, 100, false ) );
	}
}

<?php
/**
 * The paid moment of an order.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Commerce\Paid_Moment;

/**
 * Paid_Moment: recorded once at the first entry into a paid status, never moved; date_paid for
 * orders paid before moments were recorded.
 */
final class PaidMomentTest extends TestCase {

	const SINCE = 1700000000;

	/**
	 * Reads a recorded moment from its meta value.
	 */
	public function test_reads_a_recorded_moment_from_its_meta_value(): void {
		$this->assertSame( 1752000000, Paid_Moment::parse( '1752000000' ) );
		$this->assertSame( 1752000000, Paid_Moment::parse( 1752000000 ) );
		foreach ( array( '', '0', 0, -5, '-5', '17.5', ' 1752000000', 'abc', null, false, array( 1 ) ) as $junk ) {
			$this->assertNull( Paid_Moment::parse( $junk ), var_export( $junk, true ) ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_var_export -- names the failing value in the assertion message
		}
	}

	/**
	 * The moment is the recorded one else date paid else none.
	 */
	public function test_the_moment_is_the_recorded_one_else_date_paid_else_none(): void {
		$this->assertSame( 1752000100, Paid_Moment::of( 1752000100, 1752900000 ) );
		$this->assertSame( 1752900000, Paid_Moment::of( null, 1752900000 ) );
		$this->assertSame( 0, Paid_Moment::of( null, null ) );
	}

	/**
	 * Cash on delivery is paid when it enters processing without a date paid.
	 */
	public function test_cash_on_delivery_is_paid_when_it_enters_processing_without_a_date_paid(): void {
		$this->assertSame(
			array(
				'at'       => 1752000100,
				'announce' => true,
			),
			Paid_Moment::on_entry( null, null, self::SINCE, 1752000100 )
		);
	}

	/**
	 * A payment that stamped date paid is paid at that date.
	 */
	public function test_a_payment_that_stamped_date_paid_is_paid_at_that_date(): void {
		// payment_complete(), or bank transfer and cheque marked processing: date_paid set by the move.
		$this->assertSame(
			array(
				'at'       => 1752000090,
				'announce' => true,
			),
			Paid_Moment::on_entry( null, 1752000090, self::SINCE, 1752000100 )
		);
	}

	/**
	 * A date paid from earlier in the recording era is still this first entry.
	 */
	public function test_a_date_paid_from_earlier_in_the_recording_era_is_still_this_first_entry(): void {
		// Paid through payment_complete() into a status a site does not count as paid, entering one later.
		$this->assertSame(
			array(
				'at'       => 1751000000,
				'announce' => true,
			),
			Paid_Moment::on_entry( null, 1751000000, self::SINCE, 1752000100 )
		);
	}

	/**
	 * An order paid before moments were recorded keeps its date paid and is not announced again.
	 */
	public function test_an_order_paid_before_moments_were_recorded_keeps_its_date_paid_and_is_not_announced_again(): void {
		$this->assertSame(
			array(
				'at'       => 1600000000,
				'announce' => false,
			),
			Paid_Moment::on_entry( null, 1600000000, self::SINCE, 1752000100 )
		);
	}

	/**
	 * A recorded moment never moves.
	 */
	public function test_a_recorded_moment_never_moves(): void {
		// Completed (date_paid stamped later), refunded, on-hold and back to processing: nothing recorded again.
		$this->assertNull( Paid_Moment::on_entry( 1752000100, null, self::SINCE, 1752999999 ) );
		$this->assertNull( Paid_Moment::on_entry( 1752000100, 1752500000, self::SINCE, 1752999999 ) );
	}

	/**
	 * One order through its life is announced once at one moment.
	 */
	public function test_one_order_through_its_life_is_announced_once_at_one_moment(): void {
		$recorded = null;
		$moments  = array();
		$announce = 0;
		// Cash on delivery: processing at 100 (no date_paid), on-hold, processing again at 200,
		// completed at 300 (date_paid stamped), on-hold, processing at 400.
		foreach ( array( array( null, 1752000100 ), array( null, 1752000200 ), array( 1752000300, 1752000400 ) ) as list( $date_paid, $now ) ) {
			$entry = Paid_Moment::on_entry( $recorded, $date_paid, self::SINCE, $now );
			if ( null !== $entry ) {
				$recorded  = $entry['at'];
				$announce += $entry['announce'] ? 1 : 0;
			}
			$moments[] = Paid_Moment::of( $recorded, $date_paid );
		}
		$this->assertSame( 1, $announce );
		$this->assertSame( array( 1752000100, 1752000100, 1752000100 ), $moments );
	}
}

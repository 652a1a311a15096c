<?php
/**
 * When a failed inbound event is tried again.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Inbound\Inbound_Processor;
use ServiceIntegration\Inbound\Inbound_Rules;

/**
 * Inbound_Rules, the retries: at most MAX_ATTEMPTS attempts, back-off 1 min, 5 min, 30 min,
 * 2 h, and what the filters may change.
 */
final class InboundRetryPolicyTest extends TestCase {

	const NOW = 1752000000;

	/**
	 * Attempts made and the default wait after them.
	 *
	 * @return array<string, array{0: int, 1: int}>
	 */
	public static function delays(): array {
		return array(
			'after the first'          => array( 1, 60 ),
			'after the second'         => array( 2, 300 ),
			'after the third'          => array( 3, 1800 ),
			'after the fourth'         => array( 4, 7200 ),
			'after a fifth (filter)'   => array( 5, 7200 ),
			'after many more (filter)' => array( 40, 7200 ),
			'with no attempt counted'  => array( 0, 60 ),
			'with a negative count'    => array( -3, 60 ),
		);
	}

	/**
	 * The back-off steps, the last one held.
	 *
	 * @dataProvider delays
	 * @param int $attempts Attempts made.
	 * @param int $seconds  Wait.
	 */
	public function test_the_wait_grows_by_step_and_stays_at_the_last( int $attempts, int $seconds ): void {
		$this->assertSame( $seconds, Inbound_Rules::default_delay( $attempts, Inbound_Processor::BACKOFF ) );
	}

	/**
	 * A single step back off is that step every time.
	 */
	public function test_a_single_step_back_off_is_that_step_every_time(): void {
		foreach ( array( 1, 2, 9 ) as $attempts ) {
			$this->assertSame( 15, Inbound_Rules::default_delay( $attempts, array( 15 ) ) );
		}
	}

	/**
	 * Attempts made, attempts in all, and whether the event is given up.
	 *
	 * @return array<string, array{0: int, 1: int, 2: bool}>
	 */
	public static function endings(): array {
		return array(
			'first of five'      => array( 1, 5, false ),
			'fourth of five'     => array( 4, 5, false ),
			'fifth of five'      => array( 5, 5, true ),
			'past the last'      => array( 6, 5, true ),
			'one in all'         => array( 1, 1, true ),
			'lowered below made' => array( 3, 2, true ),
			'raised above made'  => array( 5, 10, false ),
		);
	}

	/**
	 * Given up on the last attempt, not before.
	 *
	 * @dataProvider endings
	 * @param int  $attempts Attempts made.
	 * @param int  $max      Attempts in all.
	 * @param bool $gives_up Whether it is given up.
	 */
	public function test_an_event_is_given_up_after_its_last_attempt( int $attempts, int $max, bool $gives_up ): void {
		$this->assertSame( $gives_up, Inbound_Rules::gives_up( $attempts, $max ) );
	}

	/**
	 * What a max-attempts filter may answer, and the count used.
	 *
	 * @return array<string, array{0: mixed, 1: int}>
	 */
	public static function maxima(): array {
		return array(
			'the default'      => array( Inbound_Processor::MAX_ATTEMPTS, 5 ),
			'raised'           => array( 8, 8 ),
			'one'              => array( 1, 1 ),
			'zero'             => array( 0, 1 ),
			'negative'         => array( -4, 1 ),
			'a numeric string' => array( '3', 3 ),
			'text'             => array( 'many', 1 ),
			'null'             => array( null, 1 ),
			'a float'          => array( 2.9, 2 ),
			'true'             => array( true, 1 ),
		);
	}

	/**
	 * At least one attempt, whatever the filter says.
	 *
	 * @dataProvider maxima
	 * @param mixed $filtered Filter's answer.
	 * @param int   $max      Attempts in all.
	 */
	public function test_the_max_attempts_filter_cannot_go_below_one( $filtered, int $max ): void {
		$this->assertSame( $max, Inbound_Rules::max_attempts( $filtered ) );
	}

	/**
	 * What a retry-delay filter may answer, and when the next attempt is due.
	 *
	 * @return array<string, array{0: mixed, 1: int}>
	 */
	public static function retries(): array {
		return array(
			'the default step' => array( 60, self::NOW + 60 ),
			'at once'          => array( 0, self::NOW ),
			'negative'         => array( -600, self::NOW ),
			'a numeric string' => array( '90', self::NOW + 90 ),
			'text'             => array( 'soon', self::NOW ),
			'null'             => array( null, self::NOW ),
			'a float'          => array( 30.7, self::NOW + 30 ),
		);
	}

	/**
	 * Never due before now.
	 *
	 * @dataProvider retries
	 * @param mixed $filtered Filter's answer.
	 * @param int   $due      When the next attempt is due.
	 */
	public function test_the_next_attempt_is_due_after_the_filtered_wait_never_before_now( $filtered, int $due ): void {
		$this->assertSame( $due, Inbound_Rules::due_after( self::NOW, $filtered ) );
	}

	/**
	 * An event failing every time is tried five times over about two and a half hours.
	 */
	public function test_an_event_failing_every_time_is_tried_five_times_over_about_two_and_a_half_hours(): void {
		$now      = self::NOW;
		$attempts = 0;
		$max      = Inbound_Rules::max_attempts( Inbound_Processor::MAX_ATTEMPTS );
		$dues     = array();
		do {
			++$attempts;
			if ( Inbound_Rules::gives_up( $attempts, $max ) ) {
				break;
			}
			$now    = Inbound_Rules::due_after( $now, Inbound_Rules::default_delay( $attempts, Inbound_Processor::BACKOFF ) );
			$dues[] = $now - self::NOW;
		} while ( true );
		$this->assertSame( 5, $attempts );
		$this->assertSame( array( 60, 360, 2160, 9360 ), $dues );
	}
}

<?php
/**
 * When the cron run that processes inbound events is asked for.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Inbound\Inbound_Processor;
use ServiceIntegration\Inbound\Inbound_Rules;

/**
 * Inbound_Rules::kick_action(): one run for a burst, moved earlier when asked for sooner.
 */
final class InboundKickPlanTest extends TestCase {

	const NOW = 1752000000;

	/**
	 * Runs wanted, runs queued, and what is written.
	 *
	 * @return array<string, array{0: int, 1: int|false, 2: string}>
	 */
	public static function kicks(): array {
		return array(
			'none queued'                       => array( self::NOW + 10, false, Inbound_Rules::KICK_SCHEDULE ),
			'none queued, at once'              => array( self::NOW, false, Inbound_Rules::KICK_SCHEDULE ),
			'one queued at the same time'       => array( self::NOW + 10, self::NOW + 10, Inbound_Rules::KICK_KEEP ),
			'one queued sooner'                 => array( self::NOW + 10, self::NOW + 3, Inbound_Rules::KICK_KEEP ),
			'one queued in the past (overdue)'  => array( self::NOW + 10, self::NOW - 60, Inbound_Rules::KICK_KEEP ),
			'one queued later: moved earlier'   => array( self::NOW + 10, self::NOW + 300, Inbound_Rules::KICK_MOVE ),
			'one queued a second later'         => array( self::NOW + 10, self::NOW + 11, Inbound_Rules::KICK_MOVE ),
			'a retry later than the queued run' => array( self::NOW + 1800, self::NOW + 10, Inbound_Rules::KICK_KEEP ),
			'a retry sooner than the sweep'     => array( self::NOW + 60, self::NOW + 300, Inbound_Rules::KICK_MOVE ),
		);
	}

	/**
	 * Only a run sooner than the queued one is written.
	 *
	 * @dataProvider kicks
	 * @param int       $at     Wanted.
	 * @param int|false $next   Queued.
	 * @param string    $action What is done.
	 */
	public function test_a_run_is_queued_only_when_none_comes_as_soon( int $at, $next, string $action ): void {
		$this->assertSame( $action, Inbound_Rules::kick_action( $at, $next ) );
	}

	/**
	 * A burst of events writes the cron once.
	 */
	public function test_a_burst_of_events_writes_the_cron_once(): void {
		$queued = false;
		$writes = 0;
		for ( $second = 0; $second < 8; $second++ ) {
			$at = Inbound_Rules::due_after( self::NOW + $second, Inbound_Processor::KICK_DELAY );
			if ( Inbound_Rules::KICK_KEEP !== Inbound_Rules::kick_action( $at, $queued ) ) {
				$queued = $at;
				++$writes;
			}
		}
		$this->assertSame( 1, $writes );
		$this->assertSame( self::NOW + Inbound_Processor::KICK_DELAY, $queued );
	}
}

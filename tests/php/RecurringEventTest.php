<?php
/**
 * A recurring cron event kept at exactly one.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Support\Recurring_Event;

/**
 * Recurring_Event: a missing event is scheduled, one is left alone, duplicates (a cron array
 * saved from a stale copy) collapse into the earliest run; events of other hooks, and of the
 * same hook with arguments, are not touched.
 */
final class RecurringEventTest extends TestCase {

	const HOOK = 'service_integration_outbox_flush';

	/**
	 * Prepares the state every test starts from.
	 */
	protected function setUp(): void {
		$GLOBALS['service_integration_test_wp'] = array();
	}

	/**
	 * This test's cron array.
	 *
	 * @return array<int, array<string, array<string, array<string, mixed>>>>
	 */
	private static function crons(): array {
		return $GLOBALS['service_integration_test_wp']['crons'] ?? array();
	}

	/**
	 * An event as core stores it.
	 *
	 * @param array $args Arguments.
	 */
	private static function event( array $args = array() ): array {
		return array(
			md5( serialize( $args ) ) => array( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize -- core's own key.
				'schedule' => 'service_integration_every_minute',
				'args'     => $args,
			),
		);
	}

	/**
	 * The runs of a hook are read from every time slot.
	 */
	public function test_the_runs_of_a_hook_are_read_from_every_time_slot(): void {
		$crons = array(
			100       => array( self::HOOK => self::event() ),
			160       => array( 'other_hook' => self::event() ),
			220       => array(
				self::HOOK   => self::event(),
				'other_hook' => self::event(),
			),
			280       => array( self::HOOK => self::event( array( 42 ) ) ),
			'version' => 2,
		);
		$this->assertSame( array( 100, 220 ), Recurring_Event::runs( $crons, self::HOOK ) );
		$this->assertSame( array(), Recurring_Event::runs( $crons, 'absent_hook' ) );
	}

	/**
	 * A missing event is scheduled at its first run.
	 */
	public function test_a_missing_event_is_scheduled_at_its_first_run(): void {
		Recurring_Event::ensure( self::HOOK, 'service_integration_every_minute', 500 );
		$this->assertSame( array( 500 ), Recurring_Event::runs( self::crons(), self::HOOK ) );
		$this->assertSame( 'service_integration_every_minute', current( self::crons()[500][ self::HOOK ] )['schedule'] );
	}

	/**
	 * An event there once is left as it is.
	 */
	public function test_an_event_there_once_is_left_as_it_is(): void {
		$GLOBALS['service_integration_test_wp']['crons'] = array( 300 => array( self::HOOK => self::event() ) );
		Recurring_Event::ensure( self::HOOK, 'service_integration_every_minute', 500 );
		$this->assertSame( array( 300 => array( self::HOOK => self::event() ) ), self::crons() );
	}

	/**
	 * Duplicates collapse into the earliest run and other events stay.
	 */
	public function test_duplicates_collapse_into_the_earliest_run_and_other_events_stay(): void {
		$GLOBALS['service_integration_test_wp']['crons'] = array(
			240 => array(
				self::HOOK   => self::event(),
				'other_hook' => self::event(),
			),
			300 => array( self::HOOK => self::event() ),
		);
		Recurring_Event::ensure( self::HOOK, 'service_integration_every_minute', 500 );
		$this->assertSame( array( 240 ), Recurring_Event::runs( self::crons(), self::HOOK ) );
		$this->assertSame( array( 240 ), Recurring_Event::runs( self::crons(), 'other_hook' ) );
		$this->assertSame( array( 240 ), array_keys( self::crons() ) );
	}
}

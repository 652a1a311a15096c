<?php
/**
 * The paid-orders index's state and its transitions.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Commerce\Paid_Order_Index_State;

/**
 * What a stored state reads as, what starting and finishing a walk make of it, and when the
 * index serves.
 */
final class PaidOrderIndexStateTest extends TestCase {

	const STATUSES = array( 'completed', 'processing' );
	const SOURCE   = array( 'storage' => 'hpos' );

	/**
	 * A ready state, walked for STATUSES from SOURCE.
	 *
	 * @param array<string, mixed> $fields Fields over it.
	 */
	private static function ready( array $fields = array() ): array {
		return Paid_Order_Index_State::of(
			$fields + array(
				'ready'      => true,
				'walk'       => null,
				'generation' => 3,
				'walked_at'  => 1700000000,
				'statuses'   => self::STATUSES,
				'source'     => self::SOURCE,
			)
		);
	}

	/**
	 * Options that hold no state.
	 *
	 * @return array<string, array{0: mixed}>
	 */
	public static function no_state(): array {
		return array(
			'never saved' => array( false ),
			'a string'    => array( 'ready' ),
			'null'        => array( null ),
			'empty'       => array( array() ),
		);
	}

	/**
	 * An option that holds no state is a fresh index.
	 *
	 * @dataProvider no_state
	 * @param mixed $stored The option's value.
	 */
	public function test_an_option_without_a_state_reads_as_a_fresh_index( $stored ): void {
		$this->assertSame(
			array(
				'ready'      => false,
				'walk'       => null,
				'generation' => 0,
				'walked_at'  => 0,
				'started_at' => 0.0,
				'statuses'   => array(),
				'source'     => array(),
			),
			Paid_Order_Index_State::of( $stored )
		);
	}

	/**
	 * Stored values are read with their types.
	 */
	public function test_stored_values_are_read_with_their_types(): void {
		$state = Paid_Order_Index_State::of(
			array(
				'ready'      => '1',
				'walk'       => '400',
				'generation' => '2',
				'walked_at'  => '1700000000',
				'statuses'   => array( 3 => 'processing' ),
				'source'     => array( 'storage' => 'posts' ),
			)
		);
		$this->assertSame( array( true, 400, 2, 1700000000, array( 'processing' ) ), array( $state['ready'], $state['walk'], $state['generation'], $state['walked_at'], $state['statuses'] ) );
	}

	/**
	 * A sweeping walk keeps its negative position.
	 */
	public function test_a_sweeping_walk_keeps_its_negative_position(): void {
		$this->assertSame( -1, Paid_Order_Index_State::of( array( 'walk' => -1 ) )['walk'] );
	}

	/**
	 * A started walk is a new generation from offset zero.
	 */
	public function test_a_started_walk_is_a_new_generation_from_offset_zero(): void {
		$started = Paid_Order_Index_State::started( self::ready(), false, array( 'completed' ), array( 'storage' => 'posts' ), 1767225600.25 );
		$this->assertSame(
			array(
				'ready'      => false,
				'walk'       => 0,
				'generation' => 4,
				'walked_at'  => 1700000000,
				'started_at' => 1767225600.25,
				'statuses'   => array( 'completed' ),
				'source'     => array( 'storage' => 'posts' ),
			),
			$started
		);
	}

	/**
	 * A walk may keep the index serving.
	 */
	public function test_a_walk_may_keep_the_index_serving(): void {
		$this->assertTrue( Paid_Order_Index_State::started( self::ready(), true, self::STATUSES, self::SOURCE, 1767225600.0 )['ready'] );
	}

	/**
	 * Only a request that began after a walk started may start another in its place: one that
	 * began before may run without a plugin activated since.
	 */
	public function test_only_a_request_begun_after_a_walk_started_may_replace_it(): void {
		$walking = Paid_Order_Index_State::started( self::ready(), false, self::STATUSES, self::SOURCE, 1767225600.5 );
		$this->assertFalse( Paid_Order_Index_State::replaceable_by( $walking, 1767225600.4 ) );
		$this->assertFalse( Paid_Order_Index_State::replaceable_by( $walking, 1767225600.5 ) );
		$this->assertTrue( Paid_Order_Index_State::replaceable_by( $walking, 1767225600.6 ) );
		// A state stored before walks recorded their start: any request may replace it.
		$this->assertTrue( Paid_Order_Index_State::replaceable_by( Paid_Order_Index_State::of( array( 'walk' => 0 ) ), 1767225600.0 ) );
		// Finishing keeps the moment the walk started.
		$this->assertSame( 1767225600.5, Paid_Order_Index_State::finished( $walking, 1767225700 )['started_at'] );
	}

	/**
	 * A finished walk serves from now in the same generation.
	 */
	public function test_a_finished_walk_serves_from_now_in_the_same_generation(): void {
		$walking  = self::ready(
			array(
				'ready' => false,
				'walk'  => -1,
			)
		);
		$finished = Paid_Order_Index_State::finished( $walking, 1767225600 );
		$this->assertSame( array( true, null, 3, 1767225600 ), array( $finished['ready'], $finished['walk'], $finished['generation'], $finished['walked_at'] ) );
		$this->assertSame( array( self::STATUSES, self::SOURCE ), array( $finished['statuses'], $finished['source'] ) );
	}

	/**
	 * A ready index serves for its statuses and source.
	 */
	public function test_a_ready_index_serves_for_its_statuses_and_source(): void {
		$this->assertTrue( Paid_Order_Index_State::serves( self::ready(), self::STATUSES, self::SOURCE ) );
		$this->assertFalse( Paid_Order_Index_State::outdated( self::ready(), self::STATUSES, self::SOURCE ) );
	}

	/**
	 * A walk for todays statuses does not serve and is not outdated.
	 */
	public function test_a_walk_for_todays_statuses_does_not_serve_and_is_not_outdated(): void {
		$walking = self::ready(
			array(
				'ready' => false,
				'walk'  => 200,
			)
		);
		$this->assertFalse( Paid_Order_Index_State::serves( $walking, self::STATUSES, self::SOURCE ) );
		$this->assertFalse( Paid_Order_Index_State::outdated( $walking, self::STATUSES, self::SOURCE ) );
	}

	/**
	 * A walk for other statuses or another source is outdated.
	 */
	public function test_a_walk_for_other_statuses_or_another_source_is_outdated(): void {
		$walking = self::ready(
			array(
				'ready' => false,
				'walk'  => 200,
			)
		);
		$this->assertTrue( Paid_Order_Index_State::outdated( $walking, array( 'completed', 'on-hold', 'processing' ), self::SOURCE ) );
		$this->assertTrue( Paid_Order_Index_State::outdated( $walking, self::STATUSES, array( 'storage' => 'posts' ) ) );
		$sweeping = self::ready(
			array(
				'ready' => true,
				'walk'  => -1,
			)
		);
		$this->assertTrue( Paid_Order_Index_State::outdated( $sweeping, array( 'completed' ), self::SOURCE ) );
	}

	/**
	 * A walk started without woocommerce is not outdated.
	 */
	public function test_a_walk_started_without_woocommerce_is_not_outdated(): void {
		// Its next step records today's statuses and source (Walk_Steps::started_blind()).
		$blind = self::ready(
			array(
				'ready'    => false,
				'walk'     => 0,
				'statuses' => array(),
				'source'   => array(),
			)
		);
		$this->assertFalse( Paid_Order_Index_State::outdated( $blind, self::STATUSES, self::SOURCE ) );
	}

	/**
	 * An index never walked is not outdated.
	 */
	public function test_an_index_never_walked_is_not_outdated(): void {
		$fresh = Paid_Order_Index_State::of( false );
		$this->assertFalse( Paid_Order_Index_State::serves( $fresh, self::STATUSES, self::SOURCE ) );
		$this->assertFalse( Paid_Order_Index_State::outdated( $fresh, self::STATUSES, self::SOURCE ) );
	}

	/**
	 * A paid status added since the walk outdates the index.
	 */
	public function test_a_paid_status_added_since_the_walk_outdates_the_index(): void {
		$statuses = array( 'completed', 'processing', 'shipped' );
		$this->assertFalse( Paid_Order_Index_State::serves( self::ready(), $statuses, self::SOURCE ) );
		$this->assertTrue( Paid_Order_Index_State::outdated( self::ready(), $statuses, self::SOURCE ) );
	}

	/**
	 * Another order storage outdates the index.
	 */
	public function test_another_order_storage_outdates_the_index(): void {
		$source = array( 'storage' => 'posts' );
		$this->assertFalse( Paid_Order_Index_State::serves( self::ready(), self::STATUSES, $source ) );
		$this->assertTrue( Paid_Order_Index_State::outdated( self::ready(), self::STATUSES, $source ) );
	}
}

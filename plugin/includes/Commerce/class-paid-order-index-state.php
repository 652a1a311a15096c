<?php
/**
 * The paid-orders index's state and its transitions, as values.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The state Paid_Order_Index stores in an option ({ready, walk, generation, walked_at,
 * statuses, source}, see Paid_Order_Index::STATE_OPTION): read with defaults from whatever the
 * option holds, and what starting or finishing a walk makes of it. Pure, so what makes the
 * index serve is decided in one place and unit-tested.
 */
final class Paid_Order_Index_State {

	/**
	 * The state, with defaults, from the stored option (anything else than an array: a fresh
	 * index that is not ready).
	 *
	 * @param mixed $stored The option's value.
	 * @return array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>}
	 */
	public static function of( $stored ): array {
		$state = is_array( $stored ) ? $stored : array();
		return array(
			'ready'      => ! empty( $state['ready'] ),
			'walk'       => isset( $state['walk'] ) ? (int) $state['walk'] : null,
			'generation' => (int) ( $state['generation'] ?? 0 ),
			'walked_at'  => (int) ( $state['walked_at'] ?? 0 ),
			'started_at' => (float) ( $state['started_at'] ?? 0 ),
			'statuses'   => array_values( array_map( 'strval', (array) ( $state['statuses'] ?? array() ) ) ),
			'source'     => array_map( 'strval', (array) ( $state['source'] ?? array() ) ),
		);
	}

	/**
	 * A walk from the first order: a new generation, for the statuses and order source it
	 * reads (none while WooCommerce is not loaded: Walk_Steps::started_blind()).
	 *
	 * @param array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} $state    The state now.
	 * @param bool                                                                                                                                      $ready    Whether the index serves meanwhile.
	 * @param string[]                                                                                                                                  $statuses The paid statuses the walk indexes.
	 * @param array<string, string>                                                                                                                     $source   The order source it reads them from.
	 * @param float                                                                                                                                     $at       When it starts (Unix time, with microseconds).
	 * @return array{ready: bool, walk: int, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>}
	 */
	public static function started( array $state, bool $ready, array $statuses, array $source, float $at ): array {
		return array(
			'ready'      => $ready,
			'walk'       => 0,
			'generation' => $state['generation'] + 1,
			'walked_at'  => $state['walked_at'],
			'started_at' => $at,
			'statuses'   => $statuses,
			'source'     => $source,
		);
	}

	/**
	 * The walk done at $now: the index holds every paid order, for the statuses and source the
	 * walk read.
	 *
	 * @param array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} $state The state now.
	 * @param int                                                                                                                                       $now   Unix time.
	 * @return array{ready: bool, walk: null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>}
	 */
	public static function finished( array $state, int $now ): array {
		return array(
			'ready'      => true,
			'walk'       => null,
			'generation' => $state['generation'],
			'walked_at'  => $now,
			'started_at' => $state['started_at'],
			'statuses'   => $state['statuses'],
			'source'     => $state['source'],
		);
	}

	/**
	 * Whether the index holds every paid order of today's statuses and order source: a walk
	 * finished (or it was declared ready), for exactly these statuses, from exactly this source.
	 *
	 * @param array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} $state    The state.
	 * @param string[]                                                                                                                                  $statuses WooCommerce's paid statuses now (sorted).
	 * @param array<string, string>                                                                                                                     $source   Paid_Orders::order_source().
	 */
	public static function serves( array $state, array $statuses, array $source ): bool {
		return $state['ready'] && $statuses === $state['statuses'] && $source === $state['source'];
	}

	/**
	 * Whether the index, or the walk that fills it, is for other statuses or another order
	 * source than today's: its rows are not (or will not be) today's paid orders, so a new walk
	 * must start. A walk started while WooCommerce was not loaded (Walk_Steps::started_blind())
	 * records today's on its next step, and an index never walked has nothing to restart.
	 *
	 * @param array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} $state    The state.
	 * @param string[]                                                                                                                                  $statuses WooCommerce's paid statuses now (sorted).
	 * @param array<string, string>                                                                                                                     $source   Paid_Orders::order_source().
	 */
	public static function outdated( array $state, array $statuses, array $source ): bool {
		if ( Walk_Steps::started_blind( $state ) || ( ! $state['ready'] && null === $state['walk'] ) ) {
			return false;
		}
		return $statuses !== $state['statuses'] || $source !== $state['source'];
	}

	/**
	 * Whether a request that began at $began may start a walk in place of this one. Only if it
	 * began after this walk started: a request that began before may run without a plugin
	 * activated since (its filters were not loaded), so its view of the paid statuses is not to
	 * replace the one of the request that started the walk.
	 *
	 * @param array{ready: bool, walk: int|null, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} $state The state.
	 * @param float                                                                                                                                     $began When the request began (Unix time, with microseconds).
	 */
	public static function replaceable_by( array $state, float $began ): bool {
		return $state['started_at'] < $began;
	}
}

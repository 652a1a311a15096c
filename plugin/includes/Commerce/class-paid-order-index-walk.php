<?php
/**
 * Fills the paid-orders index from the orders that exist, and checks it daily.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A walk reads every paid order through wc_get_orders(), in id order, a batch at a time, and
 * writes its row. It runs as Action Scheduler actions (shipped with WooCommerce, so present
 * whenever there are orders to read), each working for at most RUN_SECONDS, then handing over to
 * the next, so no request or cron run holds it long.
 *
 * - After install (a new table) or activation, or once the paid statuses or the order source
 *   (Order_Source: WooCommerce, its order storage) differ from the ones the index was walked for:
 *   the index is not ready, and the paid-orders route reads its pages from WooCommerce's own
 *   queries until the walk has finished.
 * - Daily, the consistency check: the same walk while the index serves. It writes every paid
 *   order's row again, so orders that changed without WooCommerce's save hooks (an import
 *   writing its tables directly) are served as the store has them from then on. Then it sweeps
 *   the rows the walk did not write: each such order is loaded again and its row written or
 *   removed, so a row is never dropped for an order the walk merely missed.
 *
 * Offsets, not ids, mark its progress (wc_get_orders() cannot ask for ids above a value on both
 * storages): each batch starts OVERLAP orders before the previous one ended, so orders deleted
 * meanwhile shift nothing past it. New orders get higher ids and the save hooks index them.
 */
final class Paid_Order_Index_Walk {

	const HOOK        = 'service_integration_paid_index_walk';
	const CHECK_HOOK  = 'service_integration_paid_index_check';
	const GROUP       = 'service-integration';
	const BATCH       = 200;
	const OVERLAP     = 20;
	const RUN_SECONDS = 20;

	/**
	 * The walk's position once every paid order has been walked: the sweep of the rows it did
	 * not write.
	 */
	const SWEEPING = -1;

	/**
	 * Registers the actions' handlers.
	 */
	public static function register(): void {
		add_action( self::HOOK, array( self::class, 'run' ) );
		add_action( self::CHECK_HOOK, array( self::class, 'check' ) );
	}

	/**
	 * Starts a walk from the first order.
	 *
	 * @param bool $ready Whether the index serves meanwhile (it holds every paid order already,
	 *                    or there are none).
	 */
	public static function start( bool $ready ): void {
		$available = Paid_Orders::is_available();
		$state     = Paid_Order_Index::state();
		Paid_Order_Index::save_state(
			array(
				'ready'      => $ready,
				'walk'       => 0,
				'generation' => $state['generation'] + 1,
				'walked_at'  => $state['walked_at'],
				'statuses'   => $available ? Paid_Orders::paid_statuses() : array(),
				'source'     => $available ? Order_Source::current() : array(),
			)
		);
		self::schedule();
	}

	/**
	 * Ends the walk: the index holds every paid order. The daily check is queued if it is not
	 * yet (WooCommerce may have been activated after the plugin).
	 */
	public static function finish(): void {
		$state = Paid_Order_Index::state();
		Paid_Order_Index::save_state(
			array(
				'ready'      => true,
				'walk'       => null,
				'generation' => $state['generation'],
				'walked_at'  => time(),
				'statuses'   => $state['statuses'],
				'source'     => $state['source'],
			)
		);
		self::schedule();
	}

	/**
	 * Ends the walk at once when the store has no paid order: the rows written before it began
	 * are orders the store does not have (or no longer counts as paid), so they go, as the sweep
	 * would remove them one by one; rows the hooks wrote since it began stay.
	 *
	 * @throws Order_Query_Error On a database error.
	 */
	public static function finish_empty(): void {
		Paid_Order_Index::remove_written_before( Paid_Order_Index::state()['generation'] );
		self::finish();
	}

	/**
	 * The daily consistency check: a walk while the index keeps serving.
	 */
	public static function check(): void {
		$state = Paid_Order_Index::state();
		if ( null === $state['walk'] ) {
			self::start( $state['ready'] );
		}
	}

	/**
	 * Queues the walk's next run, and the daily check, when Action Scheduler is there and they
	 * are not queued yet. Without WooCommerce (and its Action Scheduler) there is nothing to
	 * walk; the paid-orders route calls this again once it is back.
	 */
	public static function schedule(): void {
		if ( ! function_exists( 'as_enqueue_async_action' ) || ! function_exists( 'as_has_scheduled_action' ) ) {
			return;
		}
		if ( null !== Paid_Order_Index::state()['walk'] && ! as_has_scheduled_action( self::HOOK, null, self::GROUP ) ) {
			as_enqueue_async_action( self::HOOK, array(), self::GROUP );
		}
		if ( function_exists( 'as_schedule_recurring_action' ) && ! as_has_scheduled_action( self::CHECK_HOOK, null, self::GROUP ) ) {
			as_schedule_recurring_action( time() + DAY_IN_SECONDS, DAY_IN_SECONDS, self::CHECK_HOOK, array(), self::GROUP );
		}
	}

	/**
	 * Walks batches, then sweeps, for up to RUN_SECONDS, then queues the next run, or marks the
	 * index ready.
	 */
	public static function run(): void {
		if ( ! Paid_Orders::is_available() ) {
			return;
		}
		$state = Paid_Order_Index::state();
		if ( Walk_Steps::started_blind( $state ) ) {
			// Started while WooCommerce was not loaded (activated before it): no batch has run
			// since, so this walk is the one for today's statuses and order source.
			$state['statuses'] = Paid_Orders::paid_statuses();
			$state['source']   = Order_Source::current();
			Paid_Order_Index::save_state( $state );
		}
		$started = microtime( true );
		do {
			$state = Paid_Order_Index::state();
			if ( null === $state['walk'] ) {
				return;
			}
			if ( self::SWEEPING === $state['walk'] ) {
				if ( self::sweep( $state['generation'] ) ) {
					self::finish();
					return;
				}
				continue; // To the time and memory checks.
			}
			$state['walk'] = self::batch( $state['walk'] ) ?? self::SWEEPING;
			Paid_Order_Index::save_state( $state );
		} while ( microtime( true ) - $started < self::RUN_SECONDS && self::memory_left() );
		as_enqueue_async_action( self::HOOK, array(), self::GROUP );
	}

	/**
	 * Whether the run may take another batch. Each batch leaves its orders, items and meta in
	 * WordPress's in-memory cache, so the caches are emptied between batches, as Action
	 * Scheduler does between actions (ActionScheduler_Abstract_QueueRunner::clear_caches()); and
	 * where that cannot empty them (an object cache without runtime flushes), the run hands over
	 * to the next one once half the memory limit is used.
	 */
	private static function memory_left(): bool {
		if ( function_exists( 'wp_cache_flush_runtime' ) ) {
			wp_cache_flush_runtime();
		}
		$limit = function_exists( 'wp_convert_hr_to_bytes' ) ? wp_convert_hr_to_bytes( (string) ini_get( 'memory_limit' ) ) : -1;
		return $limit <= 0 || memory_get_usage() < $limit / 2;
	}

	/**
	 * Indexes one batch from offset $offset.
	 *
	 * @param int $offset Paid orders already walked, in id order.
	 * @return int|null Where the next batch starts, or null when this was the last.
	 * @throws Order_Query_Error On a database error (the action fails; Action Scheduler logs it
	 *                           and the route's next call queues the walk again).
	 */
	private static function batch( int $offset ): ?int {
		$window = Walk_Steps::window( $offset, self::BATCH, self::OVERLAP );
		$orders = Paid_Orders::batch_in_id_order( $window['from'], $window['limit'] );
		Line_Items::prime( $orders );
		foreach ( $orders as $order ) {
			Paid_Order_Index_Hooks::sync( $order );
		}
		return Walk_Steps::next( $window['from'], $window['limit'], count( $orders ) );
	}

	/**
	 * Brings one batch of the rows neither the walk nor the hooks wrote since it started in step
	 * with the store: rewritten for orders still paid, removed for the others. Each is written
	 * with this generation or removed, so the sweep ends.
	 *
	 * @param int $generation The walk's generation.
	 * @return bool Whether no such row is left.
	 * @throws Order_Query_Error On a database error.
	 */
	private static function sweep( int $generation ): bool {
		$ids = Paid_Order_Index::written_before( $generation, self::BATCH );
		if ( ! $ids ) {
			return true;
		}
		$paid = array();
		foreach ( Paid_Orders::paid_among( $ids ) as $order ) {
			$paid[ $order->get_id() ] = $order;
		}
		foreach ( Walk_Steps::sweep( $ids, array_keys( $paid ) ) as $id => $action ) {
			if ( 'sync' === $action ) {
				Paid_Order_Index_Hooks::sync( $paid[ $id ] );
			} else {
				Paid_Order_Index::remove( $id );
			}
		}
		return Walk_Steps::swept( count( $ids ), self::BATCH );
	}

	/**
	 * Removes the queued actions (uninstall).
	 */
	public static function unschedule(): void {
		if ( function_exists( 'as_unschedule_all_actions' ) ) {
			as_unschedule_all_actions( self::HOOK, array(), self::GROUP );
			as_unschedule_all_actions( self::CHECK_HOOK, array(), self::GROUP );
		}
	}
}

<?php
/**
 * Fills the paid-orders index from the orders that exist, and checks it daily.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

use const ServiceIntegration\PLUGIN_FILE;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A walk reads every paid order through wc_get_orders(), in id order, a batch at a time, and
 * writes its row. It runs as Action Scheduler actions (shipped with WooCommerce, so present
 * whenever there are orders to read), each working for at most RUN_SECONDS, then handing over to
 * the next, so no request or cron run holds it long.
 *
 * - After install (a new table) or activation (install()), and a rebuild (restart()).
 * - Once the paid statuses or the order source (Paid_Orders::order_source(): WooCommerce, its
 *   order storage) differ from the ones the index was walked for: the index stops serving at
 *   once (Paid_Order_Index::is_ready() compares them on every read, and only reads), and
 *   reconcile() starts the walk for today's where such a change is made: when a plugin is
 *   activated (its filters are loaded in that request) or deactivated, or the order storage
 *   option changes, both then and in a WP-Cron run just after (a deactivated plugin's filters
 *   still run in the request that deactivates it), and in the daily check. Until the walk has
 *   finished the paid-orders route reads its pages from WooCommerce's own queries.
 * - Daily, the consistency check: the same walk while the index serves. It writes every paid
 *   order's row again, so orders that changed without WooCommerce's save hooks (an import
 *   writing its tables directly) are served as the store has them from then on. Then it sweeps
 *   the rows the walk did not write: each such order is loaded again and its row written or
 *   removed, so a row is never dropped for an order the walk merely missed.
 *
 * Ids mark its progress: each batch reads the paid orders among a window of WINDOW ids
 * (wc_get_orders() with post__in, on both storages), so a batch costs the same on a million-order
 * store at its first order as at its last, where an offset into the paid orders (LIMIT n, 200)
 * would make the database step over every order before it. The walk ends past the highest id of a
 * paid order; orders paid later get higher ids and the save hooks index them.
 */
final class Paid_Order_Index_Walk {

	const HOOK       = 'service_integration_paid_index_walk';
	const CHECK_HOOK = 'service_integration_paid_index_check';

	/**
	 * The WP-Cron event that reconciles the index in a request of its own after the site's code
	 * or order storage changed (reconcile_soon()).
	 */
	const RECONCILE_HOOK = 'service_integration_paid_index_reconcile';
	const GROUP          = 'service-integration';
	const BATCH          = 200;
	const WINDOW         = 500;
	const RUN_SECONDS    = 20;

	/**
	 * The walk's position once every paid order has been walked: the sweep of the rows it did
	 * not write.
	 */
	const SWEEPING = -1;

	/**
	 * The highest id of a paid order, read once per run (the walk's end; null: not read yet).
	 *
	 * @var int|null
	 */
	private ?int $last_paid = null;

	/**
	 * The walk of an index, loading orders through the adapter and writing their rows through
	 * the index's hooks.
	 *
	 * @param Paid_Order_Index       $index  The index (its rows and state).
	 * @param Paid_Orders            $orders Loads the paid orders.
	 * @param Paid_Order_Index_Hooks $hooks  Writes or removes an order's row.
	 */
	public function __construct( private Paid_Order_Index $index, private Paid_Orders $orders, private Paid_Order_Index_Hooks $hooks ) {
	}

	/**
	 * Registers the actions' handlers, and the changes that may leave the index for other paid
	 * statuses or another order source: a plugin activated or deactivated (a site's filters of
	 * the paid statuses or of the order data store come in plugins), the order storage option
	 * changed (WooCommerce's settings).
	 */
	public function register(): void {
		add_action( self::HOOK, array( $this, 'run' ) );
		add_action( self::CHECK_HOOK, array( $this, 'check' ) );
		add_action( self::RECONCILE_HOOK, array( $this, 'reconcile' ) );
		add_action( 'activated_plugin', array( $this, 'reconcile_soon' ) );
		add_action( 'deactivated_plugin', array( $this, 'reconcile_soon' ) );
		add_action( 'update_option_woocommerce_custom_orders_table_enabled', array( $this, 'reconcile_soon' ) );
	}

	/**
	 * Creates or updates the index's table and, when it is new or $rebuild asks, starts a walk
	 * of the orders (ready at once when there is no paid order to walk). Activation and upgrade
	 * (Lifecycle).
	 *
	 * @param bool $rebuild Whether to walk the orders again even if the layout did not change.
	 */
	public function install( bool $rebuild ): void {
		if ( $this->index->install( $rebuild ) ) {
			$this->start( $this->orders->nothing_to_walk() );
		}
	}

	/**
	 * A rebuild asked for (the index's REST route, WP-CLI): a walk of every order, the index
	 * serving meanwhile if asked and it serves now.
	 *
	 * @param bool $keep_serving Whether the index keeps serving during the walk.
	 */
	public function restart( bool $keep_serving ): void {
		$this->start( $keep_serving && $this->index->is_ready( Paid_Orders::paid_statuses(), Paid_Orders::order_source() ) );
	}

	/**
	 * The daily consistency check: a walk while the index keeps serving, unless one runs; one
	 * that does not serve when the index is for other statuses or another order source.
	 */
	public function check(): void {
		if ( $this->reconcile() ) {
			return;
		}
		$state = $this->index->state();
		if ( null === $state['walk'] ) {
			$this->restart( true );
		}
	}

	/**
	 * Reconciles now, and once more in a WP-Cron run of its own: the request that deactivates
	 * a plugin still runs its filters. Not for this plugin's own (de)activation: its activation
	 * installs and starts the walk, and its deactivation clears every job, which a reconcile
	 * queued after it would outlive.
	 *
	 * @param mixed $plugin The plugin (de)activated (activated_plugin, deactivated_plugin), or the
	 *                      order storage option's old value.
	 */
	public function reconcile_soon( $plugin = '' ): void {
		if ( plugin_basename( PLUGIN_FILE ) === $plugin ) {
			return;
		}
		$this->reconcile();
		if ( ! wp_next_scheduled( self::RECONCILE_HOOK ) ) {
			wp_schedule_single_event( time(), self::RECONCILE_HOOK );
		}
	}

	/**
	 * Starts a walk that does not serve when the index, or the walk under way, is for other paid
	 * statuses or another order source than this request's; else queues the walk under way if its
	 * next run is not queued (WooCommerce, and its Action Scheduler, may have been away). Not when
	 * the walk started after this request began: the request that started it may have activated
	 * a plugin this one runs without (a WP-Cron run already under way).
	 *
	 * @return bool Whether the index is for other statuses or another order source than this
	 *              request's (a walk started, or one started since this request began).
	 */
	public function reconcile(): bool {
		if ( ! Paid_Orders::is_available() ) {
			return false;
		}
		$state = $this->index->state();
		if ( Paid_Order_Index_State::outdated( $state, Paid_Orders::paid_statuses(), Paid_Orders::order_source() ) ) {
			if ( Paid_Order_Index_State::replaceable_by( $state, self::request_began() ) ) {
				$this->start( false );
			}
			return true;
		}
		$this->schedule();
		return false;
	}

	/**
	 * When this request began (PHP's REQUEST_TIME_FLOAT, set for web requests and WP-CLI alike).
	 */
	private static function request_began(): float {
		return isset( $_SERVER['REQUEST_TIME_FLOAT'] ) ? (float) $_SERVER['REQUEST_TIME_FLOAT'] : microtime( true );
	}

	/**
	 * Starts a walk from the first order, for the statuses and order source read now (none
	 * while WooCommerce is not loaded: Walk_Steps::started_blind()), and queues it.
	 *
	 * @param bool $ready Whether the index serves meanwhile (it holds every paid order already,
	 *                    or there are none).
	 */
	private function start( bool $ready ): void {
		$available = Paid_Orders::is_available();
		$this->index->start_walk( $ready, $available ? Paid_Orders::paid_statuses() : array(), $available ? Paid_Orders::order_source() : array() );
		$this->schedule();
	}

	/**
	 * Queues the walk's next run, and the daily check, when Action Scheduler is there and they
	 * are not queued yet. Without WooCommerce (and its Action Scheduler) there is nothing to
	 * walk; reconcile() queues it once WooCommerce is back (its activation, the daily check).
	 */
	public function schedule(): void {
		if ( ! function_exists( 'as_enqueue_async_action' ) || ! function_exists( 'as_has_scheduled_action' ) ) {
			return;
		}
		if ( null !== $this->index->state()['walk'] && ! as_has_scheduled_action( self::HOOK, null, self::GROUP ) ) {
			as_enqueue_async_action( self::HOOK, array(), self::GROUP );
		}
		if ( function_exists( 'as_schedule_recurring_action' ) && ! as_has_scheduled_action( self::CHECK_HOOK, null, self::GROUP ) ) {
			as_schedule_recurring_action( time() + DAY_IN_SECONDS, DAY_IN_SECONDS, self::CHECK_HOOK, array(), self::GROUP );
		}
	}

	/**
	 * Walks batches, then sweeps, for up to RUN_SECONDS, then queues the next run, or marks the
	 * index ready.
	 *
	 * A run steps only a walk for the paid statuses and order source its own request sees.
	 *
	 * Each step starts from the state as stored and is saved only if that state is still the
	 * stored one (Paid_Order_Index::advance()): a request that restarted the walk meanwhile, or
	 * another run of this walk (a second queue runner, the action run by hand) that moved it on
	 * or finished it, keeps its state, and this run goes on from there.
	 *
	 * A walk over a store without paid orders ends at its first step: the rows written before it
	 * began are orders the store does not have, and go at once (Paid_Order_Index::finish_empty()).
	 *
	 * @throws Order_Query_Error On a database error (the action fails, Action Scheduler logs it,
	 *                           and the walk's next run is queued a minute later).
	 */
	public function run(): void {
		if ( ! Paid_Orders::is_available() ) {
			return;
		}
		$started         = microtime( true );
		$this->last_paid = null;
		$statuses        = Paid_Orders::paid_statuses();
		$source          = Paid_Orders::order_source();
		try {
			do {
				$state = $this->index->state();
				if ( null === $state['walk'] ) {
					return;
				}
				if ( Paid_Order_Index_State::outdated( $state, $statuses, $source ) ) {
					// This request sees other paid statuses or another order source than the walk
					// is for: it was loaded before a plugin changed them (a queue runner already
					// running when the plugin was activated), or the walk is the outdated one (the
					// reconcile queued where the change was made restarts it). Its batches would
					// index the wrong orders, and finish the walk without the right ones.
					self::run_again_later();
					return;
				}
				if ( 0 === $state['walk'] && ! Walk_Steps::started_blind( $state ) && $this->orders->nothing_to_walk() ) {
					self::check_written( $this->index->finish_empty() );
					$this->schedule();
					continue;
				}
				$next = $this->step( $state );
				if ( null === $next ) {
					if ( $this->index->finish_walk( $state ) ) {
						$this->schedule(); // The daily check, if it is not queued yet.
					}
				} elseif ( $next !== $state ) {
					$this->index->advance( $state, $next );
				}
			} while ( microtime( true ) - $started < self::RUN_SECONDS && self::memory_left() );
		} catch ( Order_Query_Error $e ) {
			self::run_again_later();
			throw $e;
		}
		if ( null !== $this->index->state()['walk'] ) {
			as_enqueue_async_action( self::HOOK, array(), self::GROUP );
		}
	}

	/**
	 * Queues the walk's next run a minute from now, for a run that could not step it.
	 */
	private static function run_again_later(): void {
		if ( function_exists( 'as_schedule_single_action' ) ) {
			as_schedule_single_action( time() + MINUTE_IN_SECONDS, self::HOOK, array(), self::GROUP );
		}
	}

	/**
	 * The state after the walk's next step from $state: one batch, or one batch of the sweep.
	 *
	 * @param array{ready: bool, walk: int, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>} $state The state, during a walk.
	 * @return array{ready: bool, walk: int, generation: int, walked_at: int, started_at: float, statuses: string[], source: array<string, string>}|null
	 *         Null once the sweep has left no row behind: the walk is done.
	 * @throws Order_Query_Error On a database error.
	 */
	private function step( array $state ): ?array {
		if ( Walk_Steps::started_blind( $state ) ) {
			// Started while WooCommerce was not loaded (activated before it): no batch has run
			// since, so this walk is the one for today's statuses and order source.
			return array_merge(
				$state,
				array(
					'statuses' => Paid_Orders::paid_statuses(),
					'source'   => Paid_Orders::order_source(),
				)
			);
		}
		if ( self::SWEEPING !== $state['walk'] ) {
			return array_merge( $state, array( 'walk' => $this->batch( $state['walk'] ) ?? self::SWEEPING ) );
		}
		return $this->sweep( $state['generation'] ) ? null : $state;
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
	 * Indexes the paid orders among the window of ids from $from_id.
	 *
	 * @param int $from_id First id of the window (a walk starts at 0).
	 * @return int|null Where the next window starts, or null when this was the last.
	 * @throws Order_Query_Error On a database error (run() queues the next run a minute later).
	 */
	private function batch( int $from_id ): ?int {
		$orders = $this->orders->paid_among( Walk_Steps::window( $from_id, self::WINDOW ) );
		Line_Items::prime( $orders );
		foreach ( $orders as $order ) {
			self::check_written( $this->hooks->sync( $order ) );
		}
		$this->last_paid ??= $this->orders->last_paid_id();
		return Walk_Steps::next( $from_id, self::WINDOW, $this->last_paid );
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
	private function sweep( int $generation ): bool {
		$ids = $this->index->written_before( $generation, self::BATCH );
		self::check_written( $ids );
		if ( ! $ids ) {
			return true;
		}
		$paid = array();
		foreach ( $this->orders->paid_among( $ids ) as $order ) {
			$paid[ $order->get_id() ] = $order;
		}
		foreach ( Walk_Steps::sweep( $ids, array_keys( $paid ) ) as $id => $action ) {
			self::check_written( 'sync' === $action ? $this->hooks->sync( $paid[ $id ] ) : $this->index->remove( $id ) );
		}
		return Walk_Steps::swept( count( $ids ), self::BATCH );
	}

	/**
	 * Fails the run on the index's database error: the action fails, Action Scheduler logs it,
	 * and the walk resumes from its saved position at the next run.
	 *
	 * @param mixed $result What the index answered.
	 * @throws Order_Query_Error When it is a WP_Error.
	 */
	private static function check_written( $result ): void {
		if ( $result instanceof \WP_Error ) {
			throw new Order_Query_Error( esc_html( 'the paid-orders index could not be read or written: ' . $result->get_error_message() ) );
		}
	}

	/**
	 * Removes the queued actions (uninstall).
	 */
	public static function unschedule(): void {
		wp_clear_scheduled_hook( self::RECONCILE_HOOK );
		if ( function_exists( 'as_unschedule_all_actions' ) ) {
			as_unschedule_all_actions( self::HOOK, array(), self::GROUP );
			as_unschedule_all_actions( self::CHECK_HOOK, array(), self::GROUP );
		}
	}
}

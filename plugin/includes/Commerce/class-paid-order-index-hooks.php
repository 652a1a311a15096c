<?php
/**
 * Keeps the paid-orders index in step with WooCommerce's order writes.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

use ServiceIntegration\Support\Logger;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Every order save ends with `woocommerce_after_order_object_save` on both storages
 * (WC_Abstract_Order::save(), includes/abstracts/abstract-wc-order.php, after the data store's
 * create() or update() and the items): the order's status, payment date and modification date are
 * then the ones stored, and a status change's own follow-up saves (payment_complete(), a note)
 * come through it again. Trash and delete are data-store operations with hooks of their own
 * (HPOS: OrdersTableDataStore::delete(); legacy: Abstract_WC_Order_Data_Store_CPT::delete()),
 * and restoring from the trash fires `woocommerce_untrash_order` on HPOS and only core's
 * `untrashed_post` on legacy storage.
 *
 * A save only notes the order; its row is written once, at the end of the request (`shutdown`,
 * before Order_Events writes the outbox rows, and before the response is handed back when the
 * hand-over finishes it early), from the order as WooCommerce loads it then. A paid checkout
 * saves its order seven times on HPOS (its creation, its totals and status, then each flag
 * WooCommerce sets once it is paid: stock reduced, sales and coupon usage recorded, download
 * permissions granted, OrdersTableDataStore::set_*() each calling save()), and loading it and
 * writing its row at each save was most of what the plugin added to a checkout (bench/README.md).
 * The row holds the order's last save either way. Shutdown runs after a fatal error too; a request
 * killed before it (Order_Events writes the order's events at the same point) leaves the row to
 * the walk below. The row is taken from the order loaded again, not from the object saved: the legacy store writes post_modified = now without updating the object's
 * modification date (Abstract_WC_Order_Data_Store_CPT::update()), so the object can say another
 * time than the store will.
 *
 * A write this misses (an import that writes WooCommerce's tables directly, a failed query) is
 * caught by the daily walk (Paid_Order_Index_Walk), which writes every paid order's row again and
 * removes the others. Nothing here may break an order's save: failures are logged, and the index
 * stops serving until a walk has run.
 */
final class Paid_Order_Index_Hooks {

	/**
	 * The hooks of an index.
	 *
	 * @param Paid_Order_Index $index The index they keep in step.
	 */
	public function __construct( private Paid_Order_Index $index ) {
	}

	/**
	 * Orders saved in this request whose row is not written yet, by id.
	 *
	 * @var array<int, true>
	 */
	private array $saved = array();

	/**
	 * Registers the hooks.
	 */
	public function register(): void {
		add_action( 'woocommerce_after_order_object_save', array( $this, 'on_saved' ), 10, 1 );
		add_action( 'woocommerce_trash_order', array( $this, 'on_removed' ), 10, 1 );
		add_action( 'woocommerce_delete_order', array( $this, 'on_removed' ), 10, 1 );
		add_action( 'woocommerce_untrash_order', array( $this, 'on_restored' ), 10, 1 );
		add_action( 'untrashed_post', array( $this, 'on_restored' ), 10, 1 );
		// Before Order_Events' outbox rows (priority 5) and Hand_Over's flush (100).
		add_action( 'shutdown', array( $this, 'sync_saved' ), 4 );
	}

	/**
	 * An order was saved: its row is written at the end of the request, or now when the request
	 * is ending already (another shutdown callback saved it, maybe after sync_saved() has run).
	 *
	 * @param mixed $order The order (WC_Order for shop orders; refunds are WC_Order_Refund).
	 */
	public function on_saved( $order ): void {
		if ( ! $order instanceof \WC_Order || ! $order->get_id() ) {
			return;
		}
		$id = (int) $order->get_id();
		if ( doing_action( 'shutdown' ) ) {
			$this->guarded( fn() => $this->sync_stored( $id ) );
			return;
		}
		$this->saved[ $id ] = true;
	}

	/**
	 * End of request: writes or removes the row of each order saved in it, once.
	 */
	public function sync_saved(): void {
		$ids         = array_keys( $this->saved );
		$this->saved = array();
		foreach ( $ids as $id ) {
			$this->guarded( fn() => $this->sync_stored( $id ) );
		}
	}

	/**
	 * An order was trashed or deleted.
	 *
	 * @param mixed $order_id Order id.
	 */
	public function on_removed( $order_id ): void {
		$this->guarded( fn() => $this->index->remove( (int) $order_id ) );
	}

	/**
	 * An order (or, through untrashed_post, any post) came back from the trash.
	 *
	 * @param mixed $id Order or post id.
	 */
	public function on_restored( $id ): void {
		if ( Paid_Orders::is_available() ) {
			$this->guarded( fn() => $this->sync_stored( (int) $id ) );
		}
	}

	/**
	 * Writes or removes the row of an order (nothing for any other post) from what WooCommerce
	 * loads for it now.
	 *
	 * @param int $id Order (or any post) id.
	 * @return \WP_Error|null The error when the database refuses the write.
	 */
	private function sync_stored( int $id ): ?\WP_Error {
		$order = wc_get_order( $id );
		if ( $order instanceof \WC_Order && $order->get_id() === $id ) {
			// Its lines and their meta in two queries, not two a line (Line_Items).
			Line_Items::prime( array( $order ) );
			return $this->sync( $order );
		}
		return null;
	}

	/**
	 * Writes or removes the order's row from what the order says: a row for an order in a paid
	 * status, with or without a paid moment (the plain listing shows both; the sync order only
	 * those with one).
	 *
	 * @param \WC_Order $order Order, as loaded from the store.
	 * @return \WP_Error|null The error when the database refuses the write.
	 */
	public function sync( \WC_Order $order ): ?\WP_Error {
		if ( ! $order->get_id() ) {
			return null;
		}
		if ( Paid_Orders::ORDER_TYPE === $order->get_type() && $order->has_status( Paid_Orders::paid_statuses() ) ) {
			$created = $order->get_date_created();
			return $this->index->put(
				$order->get_id(),
				Paid_Orders::paid_moment( $order ),
				$created ? (int) $created->getTimestamp() : 0,
				Paid_Orders::modified_timestamp( $order ),
				Paid_Order_Snapshot::of( $order )
			);
		}
		return $this->index->remove( $order->get_id() );
	}

	/**
	 * Runs a write; on failure logs it and takes the index out of service until a walk has
	 * brought it back in step (reads fall back to WooCommerce's own queries meanwhile).
	 *
	 * @param callable $write The write: null, or the WP_Error of a refused query.
	 */
	private function guarded( callable $write ): void {
		try {
			$fault = $write();
			$error = $fault instanceof \WP_Error ? $fault->get_error_message() : null;
		} catch ( \Throwable $e ) {
			$error = $e->getMessage();
		}
		if ( null !== $error ) {
			Logger::error( // An operator must see why the index is rebuilt.
				sprintf( 'Service Integration: the paid-orders index could not be updated (%s); the sync order is read from WooCommerce until it is rebuilt.', substr( trim( (string) preg_replace( '/\s+/', ' ', wp_strip_all_tags( $error ) ) ), 0, 500 ) )
			);
			try {
				$this->index->start_walk( false, Paid_Orders::paid_statuses(), Paid_Orders::order_source() );
				// Queued by the walk's reconcile in a WP-Cron run (the walk writes through these hooks).
				wp_schedule_single_event( time(), Paid_Order_Index_Walk::RECONCILE_HOOK );
			} catch ( \Throwable $ignored ) {
				// The database is down: the next read that finds the index ready still corrects it row by row.
				unset( $ignored );
			}
		}
	}
}

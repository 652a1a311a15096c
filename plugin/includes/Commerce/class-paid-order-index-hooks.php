<?php
/**
 * Keeps the paid-orders index in step with WooCommerce's order writes.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

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
 * A write this misses (an import that writes WooCommerce's tables directly, a failed query) is
 * caught on read: Paid_Orders::by_date_paid() checks every row it serves against the order
 * WooCommerce loads and corrects the row; and the daily walk (Paid_Order_Index_Walk) adds orders
 * that never reached it. Nothing here may break an order's save: failures are logged, and the
 * index stops serving until a walk has run.
 */
final class Paid_Order_Index_Hooks {

	/**
	 * Registers the hooks.
	 */
	public static function register(): void {
		add_action( 'woocommerce_after_order_object_save', array( self::class, 'on_saved' ), 10, 1 );
		add_action( 'woocommerce_trash_order', array( self::class, 'on_removed' ), 10, 1 );
		add_action( 'woocommerce_delete_order', array( self::class, 'on_removed' ), 10, 1 );
		add_action( 'woocommerce_untrash_order', array( self::class, 'on_restored' ), 10, 1 );
		add_action( 'untrashed_post', array( self::class, 'on_restored' ), 10, 1 );
	}

	/**
	 * An order was saved.
	 *
	 * @param mixed $order The order (WC_Order for shop orders; refunds are WC_Order_Refund).
	 */
	public static function on_saved( $order ): void {
		if ( $order instanceof \WC_Order ) {
			// The save's own time, not $order->get_date_modified(): the legacy store writes
			// post_modified = now without updating the object's prop
			// (Abstract_WC_Order_Data_Store_CPT::update()), so the object can hold an older time
			// than the stored one, and a row too old would keep the order out of a
			// modified_after read that should see it. Too new is safe: the read checks the
			// order WooCommerce loads and corrects the row.
			self::guarded( static fn() => self::sync( $order, time() ) );
		}
	}

	/**
	 * An order was trashed or deleted.
	 *
	 * @param mixed $order_id Order id.
	 */
	public static function on_removed( $order_id ): void {
		self::guarded( static fn() => Paid_Order_Index::remove( (int) $order_id ) );
	}

	/**
	 * An order (or, through untrashed_post, any post) came back from the trash.
	 *
	 * @param mixed $id Order or post id.
	 */
	public static function on_restored( $id ): void {
		if ( ! Paid_Orders::is_available() ) {
			return;
		}
		self::guarded(
			static function () use ( $id ): void {
				$order = wc_get_order( (int) $id );
				if ( $order instanceof \WC_Order ) {
					self::sync( $order );
				}
			}
		);
	}

	/**
	 * Writes or removes the order's row from what the order says now.
	 *
	 * @param \WC_Order $order       Order.
	 * @param int|null  $modified_at Its last modification (UTC timestamp); by default the order's
	 *                               own, right for an order just loaded from the database.
	 * @throws Order_Query_Error When the database refuses the write.
	 */
	public static function sync( \WC_Order $order, ?int $modified_at = null ): void {
		if ( ! $order->get_id() ) {
			return;
		}
		$paid_at = Paid_Orders::paid_timestamp( $order );
		if ( Paid_Orders::ORDER_TYPE === $order->get_type() && $paid_at > 0 && $order->has_status( Paid_Orders::paid_statuses() ) ) {
			Paid_Order_Index::put( $order->get_id(), $paid_at, $modified_at ?? Paid_Orders::modified_timestamp( $order ) );
		} else {
			Paid_Order_Index::remove( $order->get_id() );
		}
	}

	/**
	 * Runs a write; on failure logs it and takes the index out of service until a walk has
	 * brought it back in step (reads fall back to WooCommerce's own queries meanwhile).
	 *
	 * @param callable $write The write.
	 */
	private static function guarded( callable $write ): void {
		try {
			$write();
		} catch ( \Throwable $e ) {
			error_log( // An operator must see why the index is rebuilt.
				sprintf( 'Service Integration: the paid-orders index could not be updated (%s); the sync order is read from WooCommerce until it is rebuilt.', substr( trim( (string) preg_replace( '/\s+/', ' ', wp_strip_all_tags( $e->getMessage() ) ) ), 0, 500 ) )
			);
			try {
				Paid_Order_Index_Walk::start( false );
			} catch ( \Throwable $ignored ) {
				// The database is down: the next read that finds the index ready still corrects it row by row.
				unset( $ignored );
			}
		}
	}
}

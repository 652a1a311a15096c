<?php
/**
 * Reads a page of paid orders from the index, or from WooCommerce while the index does not serve.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

use WP_Error;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What the paid-orders route reads through: one Paid_Order_Query in, the page's snapshots
 * (Paid_Order_Snapshot), its total and whether orders follow out.
 *
 * The plugin's own index (Paid_Order_Index::page()) answers once it holds every paid order of
 * today's statuses and order source, and the site filters none of the getters a snapshot
 * records (Paid_Order_Snapshot::stored_ones_hold()): two queries on one table, whatever the
 * store's size. Otherwise WooCommerce does (Paid_Orders::page()). Deciding that only reads: a
 * walk that brings the index in step is started where the change is made
 * (Paid_Order_Index_Walk), never here.
 */
final class Paid_Order_Reader {

	/**
	 * A reader over the index and WooCommerce.
	 *
	 * @param Paid_Order_Index $index  The plugin's index of paid orders.
	 * @param Paid_Orders      $orders WooCommerce's paid orders.
	 */
	public function __construct( private Paid_Order_Index $index, private Paid_Orders $orders ) {
	}

	/**
	 * The query's page: no order when WooCommerce counts no status as paid or the sync order's
	 * window is empty (its bound not after its cursor), else from the index when it serves,
	 * else from WooCommerce.
	 *
	 * @param Paid_Order_Query $query The page.
	 * @return array{orders: array<int, array<string, mixed>>, total: int|null, more: bool}|WP_Error The index's database error.
	 * @throws Order_Query_Error On a database error in WooCommerce's queries.
	 */
	public function page( Paid_Order_Query $query ) {
		$page = $this->read( $query );
		if ( is_array( $page ) && ! $query->with_total ) {
			// Not counted, whichever read the page: the same answer while the index is walked.
			$page['total'] = null;
		}
		return $page;
	}

	/**
	 * The query's page, from whichever holds it.
	 *
	 * @param Paid_Order_Query $query The page.
	 * @return array{orders: array<int, array<string, mixed>>, total: int|null, more: bool}|WP_Error The index's database error.
	 * @throws Order_Query_Error On a database error in WooCommerce's queries.
	 */
	private function read( Paid_Order_Query $query ) {
		$statuses = Paid_Orders::paid_statuses();
		if ( ! $statuses || ( $query->is_sync() && $query->paid_before <= $query->cursor_at ) ) {
			return array(
				'orders' => array(),
				'total'  => 0,
				'more'   => false,
			);
		}
		if ( $this->index->is_ready( $statuses, Paid_Orders::order_source() ) && Paid_Order_Snapshot::stored_ones_hold() ) {
			return $this->index->page( $query );
		}
		return $this->orders->page( $query );
	}
}

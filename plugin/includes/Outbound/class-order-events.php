<?php
/**
 * Turns WooCommerce order hooks into outbox events.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Outbound;

use ServiceIntegration\Commerce\Paid_Order_Snapshot;
use ServiceIntegration\Commerce\Paid_Orders;
use ServiceIntegration\Support\Logger;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Records order.created, order.paid and order.refunded (partial and full).
 *
 * WooCommerce fires its hooks in the middle of its own work, so each event is taken at the
 * point where WooCommerce has finished the step it reports:
 * - order.created: `woocommerce_new_order` fires on the order's first save, before the REST
 *   API computes its totals and sets the requested status (WC_REST_Orders_Controller::save_object:
 *   save(), calculate_totals(), set_status(), save()). The event is therefore built at the end of
 *   the request, from the order as WooCommerce then holds it (totals, line items, customer), with
 *   the status and payment date it had when it was created, so it never shows the order paid.
 *   WooCommerce's own webhooks wait for the end of the request the same way
 *   (wc_webhook_process_delivery() queues, wc_webhook_execute_queue() on shutdown).
 * - order.paid: once per order, when it is paid: Commerce\Paid_Moment_Recorder fires
 *   `service_integration_order_paid` when the order first enters a status WooCommerce counts as
 *   paid (whatever the gateway: payment_complete(), cash on delivery's processing, bank transfer
 *   or cheque marked processing by the owner), never again when it leaves and comes back. Built
 *   at the end of the request, like order.created, from the order as WooCommerce then has it.
 * - order.refunded: `woocommerce_order_fully_refunded` fires before wc_create_refund() sets the
 *   order to refunded, so the event is taken on `woocommerce_order_refunded`, which
 *   wc_create_refund() fires last, once the refund and the order's new status are saved; the
 *   partial/full hooks only say which kind it was.
 *
 * Events are written to the outbox at the end of the request, in the order they happened, so an
 * order's created event always precedes its paid event. Ids are derived from the business event
 * (the paid event's from the order's paid moment, which never moves), so the same event written
 * twice is one row.
 * Nothing here may break the order flow: every failure is caught and logged.
 */
final class Order_Events {

	/**
	 * Events of this request not yet written: each {type, order_id, occurrence, order?, data?,
	 * at_creation?, extra?}; one without data is built at the end of the request.
	 *
	 * @var array<int, array<string, mixed>>
	 */
	private array $pending = array();

	/**
	 * Whether each refund of this request was full, by refund id (from WooCommerce's
	 * partially/fully refunded hooks, which fire before woocommerce_order_refunded).
	 *
	 * @var array<int, bool>
	 */
	private array $refund_is_full = array();

	/**
	 * Constructor.
	 *
	 * @param Hand_Over $hand_over Asked for a hand-over at the end of a request that wrote events.
	 * @param Outbox    $outbox    Where the events are written.
	 */
	public function __construct( private Hand_Over $hand_over, private Outbox $outbox ) {
	}

	/**
	 * Registers the WooCommerce hooks (public API only, HPOS on or off).
	 */
	public function register(): void {
		add_action( 'woocommerce_new_order', array( $this, 'on_created' ), 20, 2 );
		add_action( 'service_integration_order_paid', array( $this, 'on_paid' ), 20, 2 );
		add_action( 'woocommerce_order_partially_refunded', array( $this, 'on_partial_refund' ), 20, 2 );
		add_action( 'woocommerce_order_fully_refunded', array( $this, 'on_full_refund' ), 20, 2 );
		add_action( 'woocommerce_order_refunded', array( $this, 'on_refunded' ), 20, 2 );
		// Before Hand_Over's end-of-request flush (priority 100), so these rows go with it.
		add_action( 'shutdown', array( $this, 'write_pending' ), 5 );
	}

	/**
	 * New order: remembered now, built at the end of the request.
	 *
	 * @param int            $order_id Order id.
	 * @param \WC_Order|null $order    Order (older data stores pass only the id).
	 */
	public function on_created( $order_id, $order = null ): void {
		try {
			$order = $order instanceof \WC_Order ? $order : wc_get_order( (int) $order_id );
			if ( ! $order instanceof \WC_Order ) {
				return;
			}
			$this->pending[] = array(
				'type'        => 'order.created',
				'order_id'    => (int) $order_id,
				'occurrence'  => 'created',
				'order'       => $order,
				// What the created event keeps from the moment of creation.
				'at_creation' => array(
					'status'    => $order->get_status(),
					'date_paid' => Paid_Order_Snapshot::iso8601( $order->get_date_paid() ),
					'paid_at'   => Paid_Order_Snapshot::iso8601_of( Paid_Orders::paid_moment( $order ) ),
				),
			);
		} catch ( \Throwable $error ) {
			$this->log_failure( 'order.created', (int) $order_id, $error );
		}
	}

	/**
	 * The order is paid (its paid moment was just recorded): remembered now, built at the end of
	 * the request. One payment, one event: the id is keyed on the paid moment.
	 *
	 * @param int $order_id Order id.
	 * @param int $paid_at  The paid moment (UTC timestamp).
	 */
	public function on_paid( $order_id, $paid_at ): void {
		$this->pending[] = array(
			'type'       => 'order.paid',
			'order_id'   => (int) $order_id,
			'occurrence' => 'paid-' . (int) $paid_at,
		);
	}

	/**
	 * Partial refund: only notes the kind; the event waits for woocommerce_order_refunded.
	 *
	 * @param int $order_id  Order id.
	 * @param int $refund_id Refund id.
	 */
	public function on_partial_refund( $order_id, $refund_id ): void {
		$this->refund_is_full[ (int) $refund_id ] = false;
	}

	/**
	 * Full refund: only notes the kind; the order is not yet set to refunded here.
	 *
	 * @param int $order_id  Order id.
	 * @param int $refund_id Refund id.
	 */
	public function on_full_refund( $order_id, $refund_id ): void {
		$this->refund_is_full[ (int) $refund_id ] = true;
	}

	/**
	 * The refund is complete: refund saved, order status updated and saved.
	 *
	 * @param int $order_id  Order id.
	 * @param int $refund_id Refund id.
	 */
	public function on_refunded( $order_id, $refund_id ): void {
		$order_id  = (int) $order_id;
		$refund_id = (int) $refund_id;
		try {
			$order = wc_get_order( $order_id );
			if ( ! $order instanceof \WC_Order ) {
				return;
			}
			$refund = wc_get_order( $refund_id );
			$full   = $this->refund_is_full[ $refund_id ] ?? ( 'refunded' === $order->get_status() );
			unset( $this->refund_is_full[ $refund_id ] );
			$this->pending[] = array(
				'type'       => 'order.refunded',
				'order_id'   => $order_id,
				'occurrence' => 'refund-' . $refund_id,
				'order'      => $order,
				'data'       => Paid_Order_Snapshot::view_of( $order ),
				'extra'      => array(
					'refund' => array(
						'id'     => $refund_id,
						// A decimal string with the store's decimals, as the order's total.
						'amount' => $refund instanceof \WC_Order_Refund ? wc_format_decimal( $refund->get_amount(), wc_get_price_decimals() ) : null,
						'reason' => $refund instanceof \WC_Order_Refund ? (string) $refund->get_reason() : '',
						'full'   => $full,
					),
				),
			);
		} catch ( \Throwable $error ) {
			$this->log_failure( 'order.refunded', $order_id, $error );
		}
	}

	/**
	 * End of request: writes this request's events to the outbox, in the order they happened, in
	 * one statement, and asks for a hand-over.
	 */
	public function write_pending(): void {
		$events        = $this->pending;
		$this->pending = array();
		// Each order loaded and described once, however many of its events wait (a checkout's
		// created and paid events describe the same order).
		$described = array();
		$rows      = array();
		foreach ( $events as $event ) {
			try {
				if ( ! isset( $event['data'] ) ) {
					$event = $this->complete( $event, $described );
				}
				if ( $event ) {
					$rows[] = $this->row( $event );
				}
			} catch ( \Throwable $error ) {
				$this->log_failure( (string) $event['type'], (int) $event['order_id'], $error );
			}
		}
		try {
			if ( $this->outbox->add_all( $rows ) > 0 ) {
				$this->hand_over->schedule_at_shutdown();
			}
		} catch ( \Throwable $error ) {
			Logger::error( 'service-integration: could not write ' . count( $rows ) . ' events to the outbox: ' . $error->getMessage() );
		}
	}

	/**
	 * An event built at the end of the request from the order as WooCommerce holds it now (the
	 * instance the hook passed if the order can no longer be read); a created event keeps the
	 * status and payment dates it had at creation.
	 *
	 * @param array<string, mixed> $event     Pending event.
	 * @param array<int, array>    $described The orders this request's end has loaded so far, by
	 *                                        id: [order, Paid_Order_Snapshot::view_of()], or [null, null] when it could
	 *                                        not be read.
	 * @return array<string, mixed>|null Null when there is no order to describe.
	 */
	private function complete( array $event, array &$described ): ?array {
		$id = (int) $event['order_id'];
		if ( ! isset( $described[ $id ] ) ) {
			$current          = wc_get_order( $id );
			$described[ $id ] = $current instanceof \WC_Order ? array( $current, Paid_Order_Snapshot::view_of( $current ) ) : array( null, null );
		}
		list( $order, $data ) = $described[ $id ];
		if ( ! $order instanceof \WC_Order ) {
			$order = $event['order'] ?? null;
			if ( ! $order instanceof \WC_Order ) {
				return null;
			}
			$data = Paid_Order_Snapshot::view_of( $order );
		}
		$event['order'] = $order;
		$event['data']  = array_merge( $data, $event['at_creation'] ?? array() );
		return $event;
	}

	/**
	 * The outbox row of one event (Outbox::add_all()).
	 *
	 * @param array<string, mixed> $event Event with its order data.
	 * @return array{event_id: string, type: string, ordering_key: string, payload: array}
	 * @throws \UnexpectedValueException When a payload filter returns no array (the event is logged and skipped).
	 */
	private function row( array $event ): array {
		$type     = (string) $event['type'];
		$order_id = (int) $event['order_id'];
		$event_id = 'evt_' . substr( hash( 'sha256', home_url() . '|' . $order_id . '|' . $type . '|' . $event['occurrence'] ), 0, 32 );
		$payload  = array(
			'type'      => $type,
			'timestamp' => gmdate( 'Y-m-d\TH:i:s\Z' ),
			'data'      => array_merge( array( 'order' => $event['data'] ), $event['extra'] ?? array() ),
		);
		/**
		 * Filters an outbound event's payload before it is stored.
		 *
		 * @since 0.1.0
		 *
		 * @param array     $payload {type, timestamp, data}.
		 * @param \WC_Order $order   Order.
		 */
		$payload = apply_filters( 'service_integration_outbound_payload', $payload, $event['order'] );
		if ( ! is_array( $payload ) ) {
			throw new \UnexpectedValueException( 'the service_integration_outbound_payload filter returned no array' );
		}
		return array(
			'event_id'     => $event_id,
			'type'         => $type,
			'ordering_key' => 'order:' . $order_id,
			'payload'      => $payload,
		);
	}

	/**
	 * Logs an event that could not be recorded.
	 *
	 * @param string     $type     Event type.
	 * @param int        $order_id Order id.
	 * @param \Throwable $error    What went wrong.
	 */
	private function log_failure( string $type, int $order_id, \Throwable $error ): void {
		Logger::error( 'service-integration: could not record ' . $type . ' for order ' . $order_id . ': ' . $error->getMessage() );
	}
}

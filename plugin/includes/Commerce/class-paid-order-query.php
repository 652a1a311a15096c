<?php
/**
 * One page of paid orders, as asked for: the paid-orders route's parameters as typed values.
 *
 * @package ServiceIntegration
 */

namespace ServiceIntegration\Commerce;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What a page of paid orders is, built once from the route's validated parameters
 * (from_request()) and read by whichever reader serves it: the plugin's index
 * (Paid_Order_Index::page()) or WooCommerce (Paid_Orders::page()). Every bound is a UTC timestamp
 * in whole seconds; none is encoded in a string.
 *
 * Two orders:
 * - plain (orderby date, id or modified): offset paging, optionally paid (the paid moment,
 *   Paid_Moment) and last modified within inclusive bounds;
 * - sync (orderby paid_at): (paid moment ASC, id ASC) strictly after the cursor
 *   (cursor_at, cursor_id), paid before paid_before (exclusive, never later than the settle
 *   bound), optionally last modified within inclusive bounds.
 */
final class Paid_Order_Query {

	/**
	 * A query.
	 *
	 * @param int                      $page            Page, from 1.
	 * @param int                      $per_page        Page size.
	 * @param string                   $orderby         date|id|modified|paid_at.
	 * @param string                   $order           asc|desc (paid_at: asc).
	 * @param int|null                 $paid_from       Plain order: paid at or after this second, if set.
	 * @param int|null                 $paid_to         Plain order: paid at or before this second, if set.
	 * @param int                      $cursor_at       Sync order: the cursor's second (0: from the start).
	 * @param int                      $cursor_id       Sync order: in the cursor's second, only ids above this one (0: the whole second).
	 * @param int|null                 $paid_before     Sync order: paid before this second (exclusive); null in a plain order.
	 * @param int|null                 $modified_from   Last modified at or after this second, if set.
	 * @param int|null                 $modified_to     Last modified at or before this second, if set.
	 * @param bool                     $with_total      Whether the matching orders are counted.
	 * @param array<string, bool>|null $fields          Field => whether the answer includes it (null: all).
	 * @param bool                     $matches_nothing Whether a date range given is empty, so no order can match.
	 */
	public function __construct(
		public readonly int $page,
		public readonly int $per_page,
		public readonly string $orderby,
		public readonly string $order,
		public readonly ?int $paid_from = null,
		public readonly ?int $paid_to = null,
		public readonly int $cursor_at = 0,
		public readonly int $cursor_id = 0,
		public readonly ?int $paid_before = null,
		public readonly ?int $modified_from = null,
		public readonly ?int $modified_to = null,
		public readonly bool $with_total = true,
		public readonly ?array $fields = null,
		public readonly bool $matches_nothing = false
	) {
	}

	/**
	 * The query of the paid-orders route's parameters, as WordPress validated them against the
	 * route's schema (Rest\Paid_Orders_Controller::get_collection_params()).
	 *
	 * @param \ArrayAccess<string, mixed>|array<string, mixed> $args    page, per_page, orderby (date|id|modified|paid_at|date_paid), order, paid_after, paid_before, modified_after, modified_before (ISO 8601), after_id, with_total.
	 * @param int                                              $settled The sync order's bound: orders paid before this second have settled.
	 * @param array<string, bool>|null                         $fields  Field => whether the answer includes it (null: all).
	 */
	public static function from_request( $args, int $settled, ?array $fields = null ): self {
		$sync                                = in_array( $args['orderby'], array( 'paid_at', 'date_paid' ), true );
		$modified                            = self::bounds( $args['modified_after'], $args['modified_before'] );
		$paid                                = $sync ? array( null, null ) : self::bounds( $args['paid_after'], $args['paid_before'] );
		$nothing                             = false === $modified || false === $paid;
		list( $modified_from, $modified_to ) = false === $modified ? array( null, null ) : $modified;
		list( $paid_from, $paid_to )         = false === $paid ? array( null, null ) : $paid;
		$paid_before                         = null;
		if ( $sync ) {
			$paid_before = null !== $args['paid_before'] ? min( $settled, self::seconds( (string) $args['paid_before'] ) ) : $settled;
		}
		return new self(
			(int) $args['page'],
			(int) $args['per_page'],
			$sync ? 'paid_at' : (string) $args['orderby'],
			$args['order'] ? (string) $args['order'] : ( $sync ? 'asc' : 'desc' ),
			$paid_from,
			$paid_to,
			// paid_after alone is inclusive: the cursor (paid_after, 0) keeps its whole second.
			$sync && null !== $args['paid_after'] ? self::seconds( (string) $args['paid_after'] ) : 0,
			$sync ? (int) $args['after_id'] : 0,
			$paid_before,
			$modified_from,
			$modified_to,
			false !== $args['with_total'],
			$fields,
			$nothing
		);
	}

	/**
	 * Whether this is the sync order (paid moment, id).
	 */
	public function is_sync(): bool {
		return null !== $this->paid_before;
	}

	/**
	 * Rank of the page's first order.
	 */
	public function offset(): int {
		return ( $this->page - 1 ) * $this->per_page;
	}

	/**
	 * Whether the answer includes a field (id, date_paid and paid_at are always read: the cursor
	 * needs them).
	 *
	 * @param string $field Field name (Paid_Order_Snapshot::FIELDS).
	 */
	public function wants( string $field ): bool {
		return null === $this->fields || ! empty( $this->fields[ $field ] );
	}

	/**
	 * The inclusive bounds in seconds of [after, before), clamped to ten-digit timestamps
	 * (Paid_Orders::FIRST_SECOND to LAST_SECOND): the legacy storage compares the payment time as
	 * text, which orders only those correctly (and no order falls outside them). [null, null]
	 * without bounds, false for a range nothing can be in.
	 *
	 * @param mixed $after  Inclusive lower bound (ISO 8601) or null.
	 * @param mixed $before Exclusive upper bound (ISO 8601) or null.
	 * @return array{0: int|null, 1: int|null}|false
	 */
	private static function bounds( $after, $before ) {
		$from = null !== $after ? max( self::seconds( (string) $after ), Paid_Orders::FIRST_SECOND ) : null;
		$to   = null !== $before ? min( self::seconds( (string) $before ), Paid_Orders::LAST_SECOND + 1 ) : null;
		if ( null !== $from && $from > Paid_Orders::LAST_SECOND ) {
			return false;
		}
		if ( null !== $from && null !== $to ) {
			return $to - 1 < $from ? false : array( $from, $to - 1 );
		}
		if ( null !== $from || null === $to ) {
			return array( $from, null );
		}
		// An upper bound alone starts at FIRST_SECOND: on legacy storage the meta is compared as
		// text, where an order without the date ('') sorts before any bound; a range excludes it,
		// as HPOS does (NULL).
		return $to - 1 < Paid_Orders::FIRST_SECOND ? false : array( Paid_Orders::FIRST_SECOND, $to - 1 );
	}

	/**
	 * A bound as whole seconds: a fractional time rounds up (paid at or after 10.5 = at or
	 * after 11; before 10.5 = before 11, since WooCommerce stores whole seconds).
	 *
	 * @param string $value ISO 8601 (validated).
	 */
	private static function seconds( string $value ): int {
		$timestamp = (int) rest_parse_date( $value );
		if ( preg_match( '/[T ]\d{2}:\d{2}:\d{2}\.(\d+)/', $value, $m ) && (int) $m[1] > 0 ) {
			++$timestamp;
		}
		return $timestamp;
	}
}

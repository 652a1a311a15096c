<?php
/**
 * The paid-order snapshot's fields, read through the order port.
 *
 * @package ServiceIntegration
 */

use PHPUnit\Framework\TestCase;
use ServiceIntegration\Commerce\Paid_Moment;
use ServiceIntegration\Commerce\Paid_Order_Snapshot;
use ServiceIntegration\Tests\In_Memory_Order;

/**
 * Paid_Order_Snapshot::of_order() and present(): the fields an order determines, in UTC, only
 * those asked for, in their order.
 */
final class PaidOrderSnapshotTest extends TestCase {

	const LINES = array(
		array(
			'product_id'   => 7,
			'variation_id' => 0,
			'name'         => 'Mug',
			'quantity'     => 2,
		),
	);

	/**
	 * A date in Paris time (as WC_DateTime carries the site's zone).
	 *
	 * @param string $local Local time.
	 */
	private static function paris( string $local ): DateTimeImmutable {
		return new DateTimeImmutable( $local, new DateTimeZone( 'Europe/Paris' ) );
	}

	/**
	 * Every field of an order in utc.
	 */
	public function test_every_field_of_an_order_in_utc(): void {
		$order = new In_Memory_Order(
			array(
				'id'            => 55,
				'number'        => 'FR-55',
				'date_paid'     => self::paris( '2026-07-08 14:00:00' ),
				'date_modified' => self::paris( '2026-07-09 09:30:15' ),
				'meta'          => array( Paid_Moment::META_KEY => '1783512000' ),
				'lines'         => self::LINES,
			)
		);
		$this->assertSame(
			array(
				'id'            => 55,
				'date_paid'     => '2026-07-08T12:00:00Z',
				'paid_at'       => '2026-07-08T12:00:00Z',
				'number'        => 'FR-55',
				'status'        => 'processing',
				'date_modified' => '2026-07-09T07:30:15Z',
				'currency'      => 'EUR',
				'total'         => '42.50',
				'customer'      => array(
					'first_name' => 'Ada',
					'last_name'  => 'Lovelace',
					'email'      => 'ada@example.com',
				),
				'line_items'    => self::LINES,
			),
			Paid_Order_Snapshot::of_order( $order )
		);
	}

	/**
	 * Recorded moments, date_paid and the paid_at they give.
	 *
	 * @return array<string, array{0: mixed, 1: DateTimeImmutable|null, 2: string|null}>
	 */
	public static function moments(): array {
		$paid = new DateTimeImmutable( '2026-01-02T03:04:05Z' );
		return array(
			'recorded, before date_paid'   => array( '1767000000', $paid, '2025-12-29T09:20:00Z' ),
			'recorded, without date_paid'  => array( '1767000000', null, '2025-12-29T09:20:00Z' ),
			'recorded as an integer'       => array( 1767000000, null, '2025-12-29T09:20:00Z' ),
			'none recorded: date_paid'     => array( '', $paid, '2026-01-02T03:04:05Z' ),
			'junk recorded: date_paid'     => array( 'yesterday', $paid, '2026-01-02T03:04:05Z' ),
			'zero recorded: date_paid'     => array( '0', $paid, '2026-01-02T03:04:05Z' ),
			'negative recorded: date_paid' => array( '-5', $paid, '2026-01-02T03:04:05Z' ),
			'neither'                      => array( '', null, null ),
			'junk and no date_paid'        => array( array( 1 ), null, null ),
		);
	}

	/**
	 * The paid moment (paid_at) is: the recorded one, else date_paid, else none.
	 *
	 * @dataProvider moments
	 * @param mixed                  $meta      Recorded meta value.
	 * @param DateTimeImmutable|null $date_paid date_paid.
	 * @param string|null            $paid_at   Expected paid_at.
	 */
	public function test_paid_at_is_the_recorded_moment_else_date_paid( $meta, ?DateTimeImmutable $date_paid, ?string $paid_at ): void {
		$order    = new In_Memory_Order(
			array(
				'date_paid' => $date_paid,
				'meta'      => array( Paid_Moment::META_KEY => $meta ),
			)
		);
		$snapshot = Paid_Order_Snapshot::of_order( $order, array() );
		$this->assertSame( $paid_at, $snapshot['paid_at'] );
		$this->assertSame( $date_paid ? gmdate( 'Y-m-d\TH:i:s\Z', $date_paid->getTimestamp() ) : null, $snapshot['date_paid'] );
	}

	/**
	 * Fields asked for and the snapshot's keys.
	 *
	 * @return array<string, array{0: array<string, bool>|null, 1: string[]}>
	 */
	public static function includes(): array {
		$always = array( 'id', 'date_paid', 'paid_at' );
		return array(
			'all'                       => array( null, array_merge( $always, array( 'number', 'status', 'date_modified', 'currency', 'total', 'customer', 'line_items' ) ) ),
			'none: the cursor\'s three' => array( array(), $always ),
			'the number only'           => array( array( 'number' => true ), array_merge( $always, array( 'number' ) ) ),
			'customer and lines'        => array(
				array(
					'customer'   => true,
					'line_items' => true,
				),
				array_merge( $always, array( 'customer', 'line_items' ) ),
			),
			'a field set false'         => array(
				array(
					'total'  => false,
					'status' => true,
				),
				array_merge( $always, array( 'status' ) ),
			),
			'an unknown field'          => array( array( 'secret' => true ), $always ),
			'the cursor\'s own, false'  => array( array( 'id' => false ), $always ),
		);
	}

	/**
	 * The fields id, date_paid and paid_at always; the others only when asked for.
	 *
	 * @dataProvider includes
	 * @param array<string, bool>|null $fields  Fields wanted.
	 * @param string[]                 $keys    Keys of the snapshot.
	 */
	public function test_a_snapshot_holds_the_cursor_fields_and_those_asked_for( ?array $fields, array $keys ): void {
		$this->assertSame( $keys, array_keys( Paid_Order_Snapshot::of_order( new In_Memory_Order( array( 'lines' => self::LINES ) ), $fields ) ) );
	}

	/**
	 * A number and a total are text whatever the getters return.
	 */
	public function test_a_number_and_a_total_are_text_whatever_the_getters_return(): void {
		$snapshot = Paid_Order_Snapshot::of_order(
			new In_Memory_Order(
				array(
					'number' => 98,
					'total'  => 12.5,
				)
			)
		);
		$this->assertSame( '98', $snapshot['number'] );
		$this->assertSame( '12.5', $snapshot['total'] );
	}

	/**
	 * An order without customer names keeps them empty.
	 */
	public function test_an_order_without_customer_names_keeps_them_empty(): void {
		$snapshot = Paid_Order_Snapshot::of_order(
			new In_Memory_Order(
				array(
					'first_name' => '',
					'last_name'  => '',
					'email'      => '',
				)
			),
			array( 'customer' => true )
		);
		$this->assertSame(
			array(
				'first_name' => '',
				'last_name'  => '',
				'email'      => '',
			),
			$snapshot['customer']
		);
	}

	/**
	 * Dates and their ISO 8601 form.
	 *
	 * @return array<string, array{0: mixed, 1: string|null}>
	 */
	public static function dates(): array {
		return array(
			'UTC'                  => array( new DateTimeImmutable( '2026-03-29T00:59:59Z' ), '2026-03-29T00:59:59Z' ),
			'Paris, winter'        => array( self::paris( '2026-01-15 10:00:00' ), '2026-01-15T09:00:00Z' ),
			'Paris, summer'        => array( self::paris( '2026-07-15 10:00:00' ), '2026-07-15T08:00:00Z' ),
			'a day earlier in UTC' => array( new DateTimeImmutable( '2026-01-01 01:00:00', new DateTimeZone( 'Asia/Tokyo' ) ), '2025-12-31T16:00:00Z' ),
			'a mutable date'       => array( new DateTime( '2026-05-05T05:05:05Z' ), '2026-05-05T05:05:05Z' ),
			'none'                 => array( null, null ),
			'a string'             => array( '2026-05-05T05:05:05Z', null ),
			'a timestamp'          => array( 1767000000, null ),
			'the epoch'            => array( new DateTimeImmutable( '@0' ), null ),
		);
	}

	/**
	 * UTC with Z, or null.
	 *
	 * @dataProvider dates
	 * @param mixed       $date     Date.
	 * @param string|null $expected ISO 8601.
	 */
	public function test_dates_are_given_in_utc_with_z( $date, ?string $expected ): void {
		$this->assertSame( $expected, Paid_Order_Snapshot::iso8601( $date ) );
	}

	/**
	 * A timestamp of zero or below is no date.
	 */
	public function test_a_timestamp_of_zero_or_below_is_no_date(): void {
		$this->assertNull( Paid_Order_Snapshot::iso8601_of( 0 ) );
		$this->assertNull( Paid_Order_Snapshot::iso8601_of( -1 ) );
		$this->assertSame( '1970-01-01T00:00:01Z', Paid_Order_Snapshot::iso8601_of( 1 ) );
	}

	/**
	 * Presented fields come in their order only those asked for and held.
	 */
	public function test_presented_fields_come_in_their_order_only_those_asked_for_and_held(): void {
		$snapshot = array(
			'currency'  => 'EUR',
			'status'    => 'completed',
			'paid_at'   => '2026-01-02T03:04:05Z',
			'id'        => 9,
			'date_paid' => null,
		);
		$include  = array(
			'id'       => true,
			'status'   => true,
			'currency' => true,
			'paid_at'  => true,
			'number'   => true,
		);
		$this->assertSame(
			array(
				array(
					'id'       => 9,
					'status'   => 'completed',
					'paid_at'  => '2026-01-02T03:04:05Z',
					'currency' => 'EUR',
				),
				array( 'id' => 10 ),
			),
			Paid_Order_Snapshot::present( array( $snapshot, array( 'id' => 10 ) ), $include )
		);
		$this->assertSame( array(), Paid_Order_Snapshot::present( array(), $include ) );
	}
}

import { spawnSync } from 'child_process';
import { productionLayout } from '../../scripts/production/layout';

/**
 * Seeding a large shop for bench/paid-orders.ts: a few template orders are created through
 * WooCommerce's own API (bench/support/wc-seed, as every order was before), then each copy is
 * written in SQL, INSERT … SELECT from the templates joined with MariaDB's sequence engine
 * (seq_<from>_to_<to>), a batch of copies at a time, into exactly the rows WooCommerce wrote
 * for its template:
 *
 *   HPOS    the id's placeholder post (wp_posts, shop_order_placehold), wc_orders,
 *           wc_order_addresses, wc_order_operational_data, wc_orders_meta
 *   legacy  wp_posts (shop_order) and wp_postmeta
 *   both    woocommerce_order_items and woocommerce_order_itemmeta, and the plugin's paid-orders
 *           index row (its snapshot JSON_SET from the template's) for a paid template
 *
 * Copy number i (the seeding index: the templates are indexes 0 to T-1) takes template i % T
 * (T is a multiple of 36, so its status and its "paid in the same second as the next order"
 * tie are those bench/paid-orders.ts' seedOrder() gives index i) and changes what makes it
 * another order: its id (and so its number) and items' ids, its creation date
 * (createdAt(i) of seedOrder), payment date (paidAt(i)), completion and modification dates
 * shifted with them, paid moment (_service_integration_paid_at), customer (first and last name,
 * email: CUSTOMER_FIRST_NAMES/CUSTOMER_LAST_NAMES/index as seedOrder), order key, transaction id and Stripe customer.
 * Everything else (lines, products, quantities, taxes, totals, addresses, shipping, payment
 * method, attribution meta) is the template's. Ids come after the highest id in the table when
 * the batch starts, so nothing WordPress wrote meanwhile collides; InnoDB moves each
 * AUTO_INCREMENT past the ids written. WooCommerce's caches hold nothing of orders that did not
 * exist (the object cache is per request on this site), and the order count transients are
 * removed at the end.
 */

/** Templates created through WooCommerce's API: a multiple of 36 (seedOrder's cycles of 9 statuses and 36 for ties). */
export const TEMPLATE_ORDERS = 360;

/** Copies written per INSERT … SELECT. */
const BATCH = 25_000;

/** Items a template order may have at most (product lines, shipping, tax): the stride of a copy's item ids. */
const ITEM_STRIDE = 8;

/** A seeded order's customer: first name by index mod 12, last name by index / 12 (seedOrder() and the SQL copies alike). */
export const CUSTOMER_FIRST_NAMES = [
	'Ada',
	'Grace',
	'Alan',
	'Margaret',
	'Linus',
	'Hedy',
	'Tim',
	'Barbara',
	'Dennis',
	'Frances',
	'Ken',
	'Radia',
];
export const CUSTOMER_LAST_NAMES = [
	'Lovelace',
	'Hopper',
	'Turing',
	'Hamilton',
	'Torvalds',
	'Lamarr',
	'Berners-Lee',
	'Liskov',
	'Ritchie',
	'Allen',
	'Thompson',
	'Perlman',
];

export interface MultiplyOptions {
	envName: string;
	orderStorage: 'hpos' | 'legacy';
	/** Seeding indexes to write: [from, to), from >= TEMPLATE_ORDERS. */
	from: number;
	to: number;
	/** seedOrder's spread and clock (ms), which fix every index's dates. */
	spread: number;
	now: number;
	onBatch?: ( done: number ) => void;
}

function sql( envName: string, script: string ): string {
	const result = spawnSync(
		'mariadb',
		[
			`--defaults-file=${ productionLayout( envName ).mariadb.config }`,
			'-uroot',
			'--batch',
			'--skip-column-names',
			'wordpress',
		],
		{ input: script, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }
	);
	if ( result.status !== 0 ) {
		throw new Error( `MariaDB refused the multiplication SQL: ${ result.stderr.trim().slice( 0, 1500 ) }` );
	}
	return result.stdout;
}

const quoteList = ( names: string[] ): string => names.map( ( n ) => `'${ n.replace( /'/g, "''" ) }'` ).join( ', ' );

/**
 * SQL expressions of copy `s.seq` (the sequence's column): its template rank, dates (Unix
 * seconds, as seedOrder computes them) and customer.
 */
interface CopyExpressions {
	t: string;
	created: string;
	paid: string;
	first: string;
	last: string;
	email: string;
}

function copyExpressions( spread: number, now: number ): CopyExpressions {
	const nowS = Math.floor( now / 1000 );
	const created = ( i: string ): string =>
		`(${ nowS - 400 * 86400 } + FLOOR( ${ i } * ${ 399 * 86400 } / ${ spread } ))`;
	const own = ( i: string ): string => `(${ created( i ) } + 60 + MOD( ${ i }, 540 ))`;
	const first = `ELT( MOD( s.seq, 12 ) + 1, ${ quoteList( CUSTOMER_FIRST_NAMES ) } )`;
	const last = `ELT( MOD( FLOOR( s.seq / 12 ), 12 ) + 1, ${ quoteList( CUSTOMER_LAST_NAMES ) } )`;
	return {
		t: `MOD( s.seq, ${ TEMPLATE_ORDERS } )`,
		created: created( 's.seq' ),
		paid: `IF( MOD( s.seq, 36 ) = 0, ${ own( '(s.seq + 1)' ) }, ${ own( 's.seq' ) } )`,
		first,
		last,
		email: `CONCAT( LOWER( ${ first } ), '.', LOWER( ${ last } ), '.', s.seq, '@example.com' )`,
	};
}

/**
 * Writes copies [from, to) of the templates, a batch at a time, in the storage the site uses.
 */
export function multiplyOrders( options: MultiplyOptions ): void {
	if ( options.from < TEMPLATE_ORDERS ) {
		throw new Error( `Copies start after the ${ TEMPLATE_ORDERS } templates` );
	}
	const [ templates, maxItems ] = sql( options.envName, templatesTable( options.orderStorage ) )
		.trim()
		.split( '\t' )
		.map( Number );
	if ( templates !== TEMPLATE_ORDERS || ! maxItems || ( maxItems as number ) > ITEM_STRIDE ) {
		throw new Error(
			`The site holds ${ templates } template orders with up to ${ maxItems } items (need ${ TEMPLATE_ORDERS }, at most ${ ITEM_STRIDE } items)`
		);
	}
	for ( let from = options.from; from < options.to; from += BATCH ) {
		const to = Math.min( options.to, from + BATCH );
		sql( options.envName, batchSql( options, from, to ) );
		options.onBatch?.( to );
	}
	// WooCommerce's cached order counts per status (wc_orders_count / the admin menu's).
	sql(
		options.envName,
		"DELETE FROM wp_options WHERE option_name LIKE '\\_transient\\_%wc\\_order\\_count%' OR option_name LIKE '\\_transient\\_timeout\\_%wc\\_order\\_count%' OR option_name LIKE '\\_transient\\_wc\\_count\\_comments' OR option_name LIKE '\\_transient\\_timeout\\_wc\\_count\\_comments';"
	);
}

/**
 * si_bench_templates(t, order_id, created, paid, completed, updated, snapshot): the templates,
 * rank t by id, with their dates as Unix seconds (GMT) and, for a paid one, its index row's
 * snapshot; si_bench_template_items(order_id, item_id, rank): their items.
 */
function templatesTable( storage: 'hpos' | 'legacy' ): string {
	const source =
		storage === 'hpos'
			? `SELECT o.id AS order_id,
				UNIX_TIMESTAMP( CONVERT_TZ( o.date_created_gmt, '+00:00', @@session.time_zone ) ) AS created,
				UNIX_TIMESTAMP( CONVERT_TZ( d.date_paid_gmt, '+00:00', @@session.time_zone ) ) AS paid,
				UNIX_TIMESTAMP( CONVERT_TZ( d.date_completed_gmt, '+00:00', @@session.time_zone ) ) AS completed,
				UNIX_TIMESTAMP( CONVERT_TZ( o.date_updated_gmt, '+00:00', @@session.time_zone ) ) AS updated
			FROM wp_wc_orders o JOIN wp_wc_order_operational_data d ON d.order_id = o.id
			WHERE o.type = 'shop_order' ORDER BY o.id LIMIT ${ TEMPLATE_ORDERS }`
			: `SELECT p.ID AS order_id,
				UNIX_TIMESTAMP( CONVERT_TZ( p.post_date_gmt, '+00:00', @@session.time_zone ) ) AS created,
				( SELECT CAST( meta_value AS SIGNED ) FROM wp_postmeta WHERE post_id = p.ID AND meta_key = '_date_paid' AND meta_value <> '' ) AS paid,
				( SELECT CAST( meta_value AS SIGNED ) FROM wp_postmeta WHERE post_id = p.ID AND meta_key = '_date_completed' AND meta_value <> '' ) AS completed,
				UNIX_TIMESTAMP( CONVERT_TZ( p.post_modified_gmt, '+00:00', @@session.time_zone ) ) AS updated
			FROM wp_posts p WHERE p.post_type = 'shop_order' ORDER BY p.ID LIMIT ${ TEMPLATE_ORDERS }`;
	return `
SET SESSION time_zone = '+00:00';
DROP TABLE IF EXISTS si_bench_templates, si_bench_template_items;
CREATE TABLE si_bench_templates ( t INT PRIMARY KEY, order_id BIGINT UNSIGNED NOT NULL, created BIGINT, paid BIGINT NULL,
	completed BIGINT NULL, updated BIGINT, snapshot LONGTEXT NULL, KEY ( order_id ) ) ENGINE=InnoDB;
SET @t := -1;
INSERT INTO si_bench_templates ( t, order_id, created, paid, completed, updated )
	SELECT ( @t := @t + 1 ), x.order_id, x.created, x.paid, x.completed, x.updated FROM ( ${ source } ) x ORDER BY x.order_id;
UPDATE si_bench_templates tp JOIN wp_si_paid_orders r ON r.order_id = tp.order_id SET tp.snapshot = r.snapshot;
CREATE TABLE si_bench_template_items ( order_id BIGINT UNSIGNED NOT NULL, item_id BIGINT UNSIGNED NOT NULL, rank_in_order INT NOT NULL,
	PRIMARY KEY ( order_id, rank_in_order ), KEY ( item_id ) ) ENGINE=InnoDB;
INSERT INTO si_bench_template_items
	SELECT i.order_id, i.order_item_id, ROW_NUMBER() OVER ( PARTITION BY i.order_id ORDER BY i.order_item_id ) - 1
	FROM wp_woocommerce_order_items i JOIN si_bench_templates tp ON tp.order_id = i.order_id;
SELECT ( SELECT COUNT(*) FROM si_bench_templates ), ( SELECT MAX( rank_in_order ) + 1 FROM si_bench_template_items );
`;
}

/** One batch: copies [from, to). */
function batchSql( options: MultiplyOptions, from: number, to: number ): string {
	const e = copyExpressions( options.spread, options.now );
	const seq = `seq_${ from }_to_${ to - 1 } s JOIN si_bench_templates tp ON tp.t = ${ e.t }`;
	// The copy's shift from its template's payment, for its completion two days later.
	const paidShift = `( ${ e.paid } - tp.paid )`;
	const id = `CAST( @order_base + s.seq - ${ from } AS UNSIGNED )`;
	const dt = ( unix: string ): string => `FROM_UNIXTIME( ${ unix } )`;
	const iso = ( unix: string ): string => `DATE_FORMAT( FROM_UNIXTIME( ${ unix } ), '%Y-%m-%dT%H:%i:%sZ' )`;
	const updated = `( tp.updated + FLOOR( s.seq / ${ TEMPLATE_ORDERS } ) )`;
	const orderKey = `CONCAT( 'wc_order_', SUBSTR( MD5( CONCAT( 'si-bench-', s.seq ) ), 1, 13 ) )`;
	const transaction = `CONCAT( 'pi_3P', LPAD( LOWER( CONV( s.seq, 10, 36 ) ), 8, '0' ), 'QZ' )`;
	const common = `
SET SESSION time_zone = '+00:00', unique_checks = 0, foreign_key_checks = 0;
START TRANSACTION;
SET @order_base = ( SELECT COALESCE( MAX( ID ), 0 ) + 1 FROM wp_posts );
SET @item_base = ( SELECT COALESCE( MAX( order_item_id ), 0 ) + 1 FROM wp_woocommerce_order_items );
`;
	const items = `
INSERT INTO wp_woocommerce_order_items ( order_item_id, order_item_name, order_item_type, order_id )
	SELECT @item_base + ( s.seq - ${ from } ) * ${ ITEM_STRIDE } + ti.rank_in_order, i.order_item_name, i.order_item_type, ${ id }
	FROM ${ seq } JOIN si_bench_template_items ti ON ti.order_id = tp.order_id
	JOIN wp_woocommerce_order_items i ON i.order_item_id = ti.item_id;
INSERT INTO wp_woocommerce_order_itemmeta ( order_item_id, meta_key, meta_value )
	SELECT @item_base + ( s.seq - ${ from } ) * ${ ITEM_STRIDE } + ti.rank_in_order, m.meta_key, m.meta_value
	FROM ${ seq } JOIN si_bench_template_items ti ON ti.order_id = tp.order_id
	JOIN wp_woocommerce_order_itemmeta m ON m.order_item_id = ti.item_id ORDER BY s.seq, ti.rank_in_order, m.meta_id;
INSERT INTO wp_si_paid_orders ( order_id, paid_at, created_at, modified_at, generation, snapshot )
	SELECT ${ id }, ${ e.paid }, ${ e.created }, ${ updated }, r.generation,
		JSON_SET( tp.snapshot, '$.id', ${ id }, '$.number', CAST( ${ id } AS CHAR ),
			'$.date_paid', ${ iso( e.paid ) }, '$.paid_at', ${ iso( e.paid ) }, '$.date_modified', ${ iso( updated ) },
			'$.customer.first_name', ${ e.first }, '$.customer.last_name', ${ e.last }, '$.customer.email', ${ e.email } )
	FROM ${ seq } JOIN wp_si_paid_orders r ON r.order_id = tp.order_id;
COMMIT;
`;
	// Meta whose value is the copy's own; every other meta row is the template's.
	const metaValue = ( key: string, value: string ): string =>
		`CASE ${ key } WHEN '_service_integration_paid_at' THEN CAST( ${ e.paid } AS CHAR )
			WHEN '_stripe_customer_id' THEN CONCAT( 'cus_', LOWER( CONV( s.seq, 10, 36 ) ) ) ELSE ${ value } END`;
	if ( options.orderStorage === 'hpos' ) {
		return `${ common }
INSERT INTO wp_posts ( ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status,
	comment_status, ping_status, post_password, post_name, to_ping, pinged, post_modified, post_modified_gmt,
	post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count )
	SELECT ${ id }, p.post_author, p.post_date, p.post_date_gmt, p.post_content, p.post_title, p.post_excerpt, p.post_status,
		p.comment_status, p.ping_status, p.post_password, p.post_name, p.to_ping, p.pinged, p.post_modified, p.post_modified_gmt,
		p.post_content_filtered, p.post_parent, '', p.menu_order, p.post_type, p.post_mime_type, 0
	FROM ${ seq } JOIN wp_posts p ON p.ID = tp.order_id;
INSERT INTO wp_wc_orders ( id, status, currency, type, tax_amount, total_amount, customer_id, billing_email, date_created_gmt,
	date_updated_gmt, parent_order_id, payment_method, payment_method_title, transaction_id, ip_address, user_agent, customer_note )
	SELECT ${ id }, o.status, o.currency, o.type, o.tax_amount, o.total_amount, o.customer_id, ${ e.email }, ${ dt( e.created ) },
		${ dt( updated ) }, o.parent_order_id, o.payment_method, o.payment_method_title,
		IF( o.transaction_id = '', '', ${ transaction } ), o.ip_address, o.user_agent, o.customer_note
	FROM ${ seq } JOIN wp_wc_orders o ON o.id = tp.order_id;
INSERT INTO wp_wc_order_addresses ( order_id, address_type, first_name, last_name, company, address_1, address_2, city, state,
	postcode, country, email, phone )
	SELECT ${ id }, a.address_type, ${ e.first }, ${ e.last }, a.company, a.address_1, a.address_2, a.city, a.state, a.postcode,
		a.country, IF( a.address_type = 'billing', ${ e.email }, a.email ), a.phone
	FROM ${ seq } JOIN wp_wc_order_addresses a ON a.order_id = tp.order_id ORDER BY s.seq, a.id;
INSERT INTO wp_wc_order_operational_data ( order_id, created_via, woocommerce_version, prices_include_tax,
	coupon_usages_are_counted, download_permission_granted, cart_hash, new_order_email_sent, order_key, order_stock_reduced,
	date_paid_gmt, date_completed_gmt, shipping_tax_amount, shipping_total_amount, discount_tax_amount, discount_total_amount,
	recorded_sales )
	SELECT ${ id }, d.created_via, d.woocommerce_version, d.prices_include_tax, d.coupon_usages_are_counted,
		d.download_permission_granted, d.cart_hash, d.new_order_email_sent, ${ orderKey }, d.order_stock_reduced,
		IF( d.date_paid_gmt IS NULL, NULL, ${ dt( e.paid ) } ),
		IF( d.date_completed_gmt IS NULL, NULL, ${ dt( `tp.completed + ${ paidShift }` ) } ),
		d.shipping_tax_amount, d.shipping_total_amount, d.discount_tax_amount, d.discount_total_amount, d.recorded_sales
	FROM ${ seq } JOIN wp_wc_order_operational_data d ON d.order_id = tp.order_id;
INSERT INTO wp_wc_orders_meta ( order_id, meta_key, meta_value )
	SELECT ${ id }, m.meta_key, ${ metaValue( 'm.meta_key', 'm.meta_value' ) }
	FROM ${ seq } JOIN wp_wc_orders_meta m ON m.order_id = tp.order_id ORDER BY s.seq, m.id;
${ items }`;
	}
	const legacyMeta: Record< string, string > = {
		_billing_first_name: e.first,
		_billing_last_name: e.last,
		_shipping_first_name: e.first,
		_shipping_last_name: e.last,
		_billing_email: e.email,
		_order_key: orderKey,
		_transaction_id: `IF( m.meta_value = '', '', ${ transaction } )`,
		_date_paid: `IF( m.meta_value = '', '', CAST( ${ e.paid } AS CHAR ) )`,
		_paid_date: `IF( m.meta_value = '', '', DATE_FORMAT( FROM_UNIXTIME( ${ e.paid } ), '%Y-%m-%d %H:%i:%s' ) )`,
		_date_completed: `IF( m.meta_value = '', '', CAST( tp.completed + ${ paidShift } AS CHAR ) )`,
		_completed_date: `IF( m.meta_value = '', '', DATE_FORMAT( FROM_UNIXTIME( tp.completed + ${ paidShift } ), '%Y-%m-%d %H:%i:%s' ) )`,
		// implode( ' ', get_address() ): the billing one ends with the email and phone.
		_billing_address_index: `REPLACE( REPLACE( REPLACE( m.meta_value, tb.email, ${ e.email } ), tb.first, ${ e.first } ), tb.last, ${ e.last } )`,
		_shipping_address_index: `REPLACE( REPLACE( m.meta_value, tb.first, ${ e.first } ), tb.last, ${ e.last } )`,
	};
	const legacyValue = `CASE m.meta_key ${ Object.entries( legacyMeta )
		.map( ( [ key, value ] ) => `WHEN '${ key }' THEN ${ value }` )
		.join( ' ' ) } ELSE ${ metaValue( 'm.meta_key', 'm.meta_value' ) } END`;
	// The post's local dates are its GMT ones in the site's zone (UTC on the bench's sites).
	return `${ common }
INSERT INTO wp_posts ( ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status,
	comment_status, ping_status, post_password, post_name, to_ping, pinged, post_modified, post_modified_gmt,
	post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count )
	SELECT ${ id }, p.post_author, ${ dt( e.created ) }, ${ dt( e.created ) }, p.post_content, p.post_title, p.post_excerpt,
		p.post_status, p.comment_status, p.ping_status, ${ orderKey }, p.post_name, p.to_ping, p.pinged,
		${ dt( updated ) }, ${ dt( updated ) }, p.post_content_filtered, p.post_parent, '', p.menu_order, p.post_type,
		p.post_mime_type, 0
	FROM ${ seq } JOIN wp_posts p ON p.ID = tp.order_id;
INSERT INTO wp_postmeta ( post_id, meta_key, meta_value )
	SELECT ${ id }, m.meta_key, ${ legacyValue }
	FROM ${ seq } JOIN wp_postmeta m ON m.post_id = tp.order_id
	JOIN ( SELECT post_id, MAX( IF( meta_key = '_billing_first_name', meta_value, NULL ) ) AS first,
		MAX( IF( meta_key = '_billing_last_name', meta_value, NULL ) ) AS last,
		MAX( IF( meta_key = '_billing_email', meta_value, NULL ) ) AS email FROM wp_postmeta
		WHERE post_id IN ( SELECT order_id FROM si_bench_templates ) GROUP BY post_id ) tb ON tb.post_id = tp.order_id
	ORDER BY s.seq, m.meta_id;
${ items }`;
}

/** The copies are joined with MariaDB's sequence engine (seq_ tables; Debian's server has it built in). */
export function assertSequenceEngine( envName: string ): void {
	const answer = sql( envName, 'SELECT COUNT(*) FROM seq_1_to_3;' ).trim();
	if ( answer !== '3' ) {
		throw new Error( `MariaDB's sequence engine answered ${ answer } rows for seq_1_to_3` );
	}
}

/**
 * Before `npm start` restarts a kept site: a switch of WooCommerce's order storage
 * (WOOCOMMERCE_HPOS) that would hide the site's orders, or that WooCommerce refuses, is refused
 * here with what to do instead, by reading the site's SQLite database (read-only).
 */
import Database from 'better-sqlite3';
import fs from 'fs';
import path from 'path';
import type { OrderStorage } from './site-choice';

/** The Playground site's SQLite database (the SQLite integration's file under wp-content). */
export function siteDatabaseFile( wordpressDir: string ): string {
	return path.join( wordpressDir, 'wp-content', 'database', '.ht.sqlite' );
}

/** What the database says: the storage WooCommerce runs and how many orders each place holds. */
export interface StoredOrders {
	storage: OrderStorage;
	inHpos: number;
	inPosts: number;
}

export function readStoredOrders( file: string, prefix = 'wp_' ): StoredOrders | undefined {
	if ( ! fs.existsSync( file ) ) {
		return undefined;
	}
	const db = new Database( file, { readonly: true, fileMustExist: true } );
	try {
		const tables = new Set(
			(
				db.prepare( "SELECT name FROM sqlite_master WHERE type = 'table'" ).all() as Array< { name: string } >
			 ).map( ( row ) => row.name )
		);
		if ( ! tables.has( `${ prefix }options` ) || ! tables.has( `${ prefix }posts` ) ) {
			return undefined;
		}
		const option = db
			.prepare( `SELECT option_value FROM ${ prefix }options WHERE option_name = ?` )
			.get( 'woocommerce_custom_orders_table_enabled' ) as { option_value: string } | undefined;
		const count = ( sql: string ) => ( db.prepare( sql ).get() as { n: number } ).n;
		return {
			storage: option?.option_value === 'yes' ? 'hpos' : 'legacy',
			inHpos: tables.has( `${ prefix }wc_orders` )
				? count( `SELECT COUNT(*) AS n FROM ${ prefix }wc_orders WHERE type = 'shop_order'` )
				: 0,
			inPosts: count( `SELECT COUNT(*) AS n FROM ${ prefix }posts WHERE post_type = 'shop_order'` ),
		};
	} finally {
		db.close();
	}
}

function orders( n: number ): string {
	return n === 1 ? '1 order' : `${ n } orders`;
}

/**
 * Undefined when the site may start with the storage `wanted`; else why not and what to do,
 * naming the commands for this environment (`start`: how it is started, `fresh`: with --fresh).
 */
export function orderStorageConflict(
	stored: StoredOrders | undefined,
	wanted: OrderStorage,
	commands: { start: string; fresh: string }
): string | undefined {
	if ( ! stored || stored.storage === wanted ) {
		return undefined;
	}
	const newSite = `(it empties this site and its sidecar's data)`;
	if ( wanted === 'legacy' && stored.inHpos > 0 ) {
		return (
			`WOOCOMMERCE_HPOS=off would hide this site's ${ orders( stored.inHpos ) }: they are in WooCommerce's HPOS tables, and on ` +
			`legacy storage WooCommerce reads orders from posts only. Keep HPOS: ${ commands.start } without WOOCOMMERCE_HPOS=off. ` +
			`Or start a new, empty site on legacy storage: WOOCOMMERCE_HPOS=off ${ commands.fresh } ${ newSite }.`
		);
	}
	if ( wanted === 'hpos' && stored.inPosts > 0 ) {
		return (
			`This site keeps its ${ orders( stored.inPosts ) } in posts (legacy storage), and WooCommerce does not switch ` +
			`to HPOS (WOOCOMMERCE_HPOS=on, the default) while they are not synchronised to its tables. Keep legacy storage: ` +
			`WOOCOMMERCE_HPOS=off ${ commands.start }. Or start a new, empty site on HPOS: ${ commands.fresh } ${ newSite }.`
		);
	}
	return undefined;
}

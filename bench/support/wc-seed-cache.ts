import { spawn, spawnSync, type ChildProcess } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { productionLayout } from '../../scripts/production/layout';
import { mariadbSql } from '../../scripts/production/services';

/**
 * Seeding real WooCommerce for bench/paid-orders.ts on the production runtime:
 *   - in ONE php-cli process (bench/support/wc-seed/seed-cli.php, WooCommerce's own API), the
 *     specs streamed to it as JSON lines, its progress read back;
 *   - then the whole WordPress database dumped with mariadb-dump into a cache keyed by
 *     (WooCommerce version, order storage, scale, seed version, spread), and restored from
 *     there by later runs, so a scale is seeded once per machine.
 */

/**
 * Where the dumps go by default: the user's cache folder ($XDG_CACHE_HOME, else ~/.cache), not the
 * checkout's .cache/, so that a fresh clone on the same machine restores a 50,000-order site
 * (hours of seeding) instead of seeding it again.
 */
export function defaultSeedCache(): string {
	const cacheHome = process.env.XDG_CACHE_HOME || path.join( os.homedir(), '.cache' );
	return path.join( cacheHome, 'service-integration', 'wc-seed' );
}

/** Bump when the seeded orders change shape (bench/paid-orders.ts seedOrder, the seeding plugin). */
export const SEED_VERSION = 3;

export interface SeedCacheKey {
	woocommerceVersion: string;
	/** 'hpos' or 'legacy'. */
	orderStorage: string;
	orders: number;
	/** How many orders the 400 days of creation dates are spread over (fixes every order's dates). */
	spread: number;
}

export interface SeedDump {
	file: string;
	/** The clock the orders' dates were computed from (ms): later seeding on top must reuse it. */
	now: number;
	orders: number;
}

const keyName = ( key: SeedCacheKey ): string =>
	`wc-${ key.woocommerceVersion }-${ key.orderStorage }-${ key.orders }-seed${ SEED_VERSION }-spread${ key.spread }`;

/**
 * The dump with the most orders, from `above` (exclusive) to `key.orders` (inclusive), for the same
 * WooCommerce version, storage, seed version and spread: a scale's own dump, or a checkpoint an
 * interrupted seeding left on the way to it.
 */
export function findSeedDump( cacheDir: string, key: SeedCacheKey, above = 0 ): SeedDump | undefined {
	if ( ! fs.existsSync( cacheDir ) ) {
		return undefined;
	}
	let best: SeedDump | undefined;
	for ( const name of fs.readdirSync( cacheDir ) ) {
		const match = /^(.*)\.json$/.exec( name );
		if ( ! match ) {
			continue;
		}
		const meta = JSON.parse( fs.readFileSync( path.join( cacheDir, name ), 'utf8' ) ) as {
			now: number;
			orders: number;
		};
		const file = path.join( cacheDir, `${ match[ 1 ] }.sql.gz` );
		if (
			match[ 1 ] !== keyName( { ...key, orders: meta.orders } ) ||
			meta.orders <= above ||
			meta.orders > key.orders ||
			! fs.existsSync( file )
		) {
			continue;
		}
		if ( ! best || meta.orders > best.orders ) {
			best = { file, now: meta.now, orders: meta.orders };
		}
	}
	return best;
}

function mariadbArgs( envName: string ): string[] {
	return [ `--defaults-file=${ productionLayout( envName ).mariadb.config }`, '-uroot' ];
}

/** Runs a shell pipeline (fixed strings only: paths this module builds), failing on any stage's error. */
function pipeline( script: string, args: string[] ): void {
	const result = spawnSync( 'bash', [ '-o', 'pipefail', '-c', script, 'pipeline', ...args ], {
		encoding: 'utf8',
		maxBuffer: 16 * 1024 * 1024,
	} );
	if ( result.status !== 0 ) {
		throw new Error(
			`${ script.split( ' ' )[ 0 ] } failed (exit ${ result.status }): ${ result.stderr.trim().slice( 0, 500 ) }`
		);
	}
}

/** Dumps the site's database (a consistent snapshot, gzip -1) into the cache, written under a temporary name and renamed. */
export function saveSeedDump( cacheDir: string, envName: string, key: SeedCacheKey, now: number ): SeedDump {
	fs.mkdirSync( cacheDir, { recursive: true } );
	const file = path.join( cacheDir, `${ keyName( key ) }.sql.gz` );
	const tmp = `${ file }.tmp`;
	pipeline( 'mariadb-dump "$1" "$2" --single-transaction --quick --hex-blob wordpress | gzip -1 > "$3"', [
		...mariadbArgs( envName ),
		tmp,
	] );
	fs.renameSync( tmp, file );
	fs.writeFileSync(
		path.join( cacheDir, `${ keyName( key ) }.json` ),
		JSON.stringify(
			{ ...key, seedVersion: SEED_VERSION, now, orders: key.orders, dumpedAt: new Date().toISOString() },
			null,
			2
		) + '\n'
	);
	return { file, now, orders: key.orders };
}

/**
 * Replaces the site's database with a dump, then points it at this run's address (the dump's
 * siteurl/home may name another port). Users, application passwords and the service account come
 * from the dump: the caller sets up its identities again afterwards.
 */
export function restoreSeedDump( envName: string, dump: SeedDump, siteUrl: string ): void {
	const layout = productionLayout( envName );
	mariadbSql(
		layout,
		'DROP DATABASE IF EXISTS `wordpress`; CREATE DATABASE `wordpress` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci'
	);
	pipeline( 'gunzip -c "$3" | mariadb "$1" "$2" wordpress', [ ...mariadbArgs( envName ), dump.file ] );
	const url = siteUrl.replace( /'/g, '' );
	mariadbSql(
		layout,
		`UPDATE \`wordpress\`.\`wp_options\` SET option_value = '${ url }' WHERE option_name IN ('siteurl', 'home')`
	);
}

/** While seeding, MariaDB syncs its log about once a second instead of at every commit (the bench's own server; set back after). */
export function relaxedDurability( envName: string, relaxed: boolean ): void {
	mariadbSql( productionLayout( envName ), `SET GLOBAL innodb_flush_log_at_trx_commit = ${ relaxed ? 2 : 1 }` );
}

/** The php-cli seeders running now, so an interrupted bench stops them before its stack. */
const runningSeeders = new Set< ChildProcess >();

/** Stops every seeder still running (SIGTERM) and waits for it to exit. */
export async function stopSeeders(): Promise< void > {
	await Promise.all(
		[ ...runningSeeders ].map(
			( child ) =>
				new Promise< void >( ( resolve ) => {
					child.once( 'close', () => resolve() );
					child.kill( 'SIGTERM' );
				} )
		)
	);
}

/**
 * Seeds the specs through seed-cli.php in one php-cli process against the site's docroot,
 * writing them as JSON lines (waiting when the pipe is full) and reporting its progress.
 */
export async function seedWithPhpCli(
	envName: string,
	specs: Iterable< Record< string, unknown > >,
	onProgress: ( created: number ) => void
): Promise< { created: number; ms: number } > {
	const docroot = productionLayout( envName ).wordpress;
	const script = path.join( __dirname, 'wc-seed', 'seed-cli.php' );
	const child = spawn( 'php', [ '-d', 'memory_limit=1024M', script, docroot ], {
		stdio: [ 'pipe', 'pipe', 'pipe' ],
	} );
	runningSeeders.add( child );
	child.once( 'close', () => runningSeeders.delete( child ) );
	let stderr = '';
	let done: { created: number; ms: number } | undefined;
	let buffered = '';
	child.stderr.on( 'data', ( chunk: Buffer ) => {
		stderr = ( stderr + chunk.toString( 'utf8' ) ).slice( -4000 );
	} );
	child.stdout.on( 'data', ( chunk: Buffer ) => {
		buffered += chunk.toString( 'utf8' );
		let newline: number;
		while ( ( newline = buffered.indexOf( '\n' ) ) >= 0 ) {
			const line = buffered.slice( 0, newline ).trim();
			buffered = buffered.slice( newline + 1 );
			const created = /^created (\d+)$/.exec( line );
			const finished = /^done (\d+) (\d+)$/.exec( line );
			if ( created ) {
				onProgress( Number( created[ 1 ] ) );
			} else if ( finished ) {
				done = { created: Number( finished[ 1 ] ), ms: Number( finished[ 2 ] ) };
			} else if ( line ) {
				stderr = ( stderr + line + '\n' ).slice( -4000 );
			}
		}
	} );
	const exited = new Promise< string >( ( resolve ) =>
		child.on( 'close', ( code, signal ) => resolve( signal ? `stopped by ${ signal }` : `exit ${ code }` ) )
	);
	let broken = false;
	child.stdin.on( 'error', () => {
		broken = true;
	} );
	for ( const spec of specs ) {
		if ( broken ) {
			break;
		}
		if ( ! child.stdin.write( JSON.stringify( spec ) + '\n' ) ) {
			await new Promise< void >( ( resolve ) => {
				const resume = (): void => {
					child.stdin.off( 'drain', resume );
					child.off( 'close', resume );
					resolve();
				};
				child.stdin.once( 'drain', resume );
				child.once( 'close', resume );
			} );
		}
	}
	child.stdin.end();
	const ended = await exited;
	if ( ended !== 'exit 0' || ! done ) {
		throw new Error( `seed-cli.php failed (${ ended }): ${ stderr.trim().slice( -1500 ) }` );
	}
	return done;
}

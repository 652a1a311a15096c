import { spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { CACHE_DIR, ROOT } from './paths';

/**
 * The real WordPress, WooCommerce, WP-CLI and Plugin Check release builds that every machine of this project
 * (CI's included) has beside the checkout, in ../shared/builds with their SHA256SUMS. They are test
 * material, never part of the product: each archive is checked against SHA256SUMS and unpacked
 * once under .cache/builds (git-ignored), then read in place.
 */
export const BUILDS_DIR = path.resolve(
	process.env.SERVICE_INTEGRATION_BUILDS_DIR || path.join( ROOT, '..', 'shared', 'builds' )
);
const UNPACKED_DIR = path.join( CACHE_DIR, 'builds' );
/** Written last into an unpacked tree: its archive's size, so a replaced archive is unpacked again. */
const MARKER = '.service-integration-unpacked';

/** The WooCommerce versions the plugin supports and has builds of: the newest first, then the oldest supported. */
export const WOOCOMMERCE_BUILDS = [ '10.0.2', '9.4.3' ] as const;
export type WooCommerceBuild = ( typeof WOOCOMMERCE_BUILDS )[ number ];
/** The WordPress release build (the oldest supported, 6.5.5, comes from the npm registry: wordpress-core.ts). */
export const WORDPRESS_BUILD = '7.1';
const WP_CLI_BUILD = 'wp-cli-2.10.0.phar';
/** WordPress.org's Plugin Check, with its Composer vendor/ (PHP_CodeSniffer, the WordPress Coding Standards). */
export const PLUGIN_CHECK_BUILD = '1.2.0';
/** WordPress's MCP Adapter (abilities as MCP tools; WordPress 6.9+), a test plugin of the e2e suite. */
export const MCP_ADAPTER_ARCHIVE = 'mcp-adapter-0.4.1.tar.xz';

function archive( name: string ): string {
	return path.join( BUILDS_DIR, name );
}

export function hasBuild( name: string ): boolean {
	return fs.existsSync( archive( name ) );
}

export function woocommerceArchive( version: WooCommerceBuild ): string {
	return `woocommerce-${ version }.tar.xz`;
}

export function wordpressArchive(): string {
	return `wordpress-${ WORDPRESS_BUILD }.tar.xz`;
}

/** Checks an archive against SHA256SUMS beside it (when that file lists it), so a damaged copy never runs. */
function verifyChecksum( name: string ): void {
	const sums = path.join( BUILDS_DIR, 'SHA256SUMS' );
	if ( ! fs.existsSync( sums ) ) {
		return;
	}
	const line = fs
		.readFileSync( sums, 'utf8' )
		.split( '\n' )
		.find( ( entry ) => entry.trim().endsWith( ` ${ name }` ) || entry.trim().endsWith( `*${ name }` ) );
	if ( ! line ) {
		return;
	}
	const expected = line.trim().split( /\s+/ )[ 0 ];
	const actual = crypto
		.createHash( 'sha256' )
		.update( fs.readFileSync( archive( name ) ) )
		.digest( 'hex' );
	if ( actual !== expected ) {
		throw new Error( `${ archive( name ) } does not match its SHA256SUMS entry (${ actual } != ${ expected })` );
	}
}

/**
 * Unpacks a build's archive once (tar with xz) and returns the path of its top folder; a later call
 * finds the marker file and returns at once. Nothing writes into the unpacked tree: sites copy or
 * link it. The archive is unpacked into a folder of its own and renamed into place, so test runs
 * side by side (npm test's two lanes) that unpack the same build never see half a tree: the first
 * rename wins and the others use its tree.
 */
function unpacked( name: string, topFolder: string ): string {
	const source = archive( name );
	if ( ! fs.existsSync( source ) ) {
		throw new Error(
			`No build ${ name } in ${ BUILDS_DIR } (set SERVICE_INTEGRATION_BUILDS_DIR to the folder that has it)`
		);
	}
	const target = path.join( UNPACKED_DIR, name.replace( /\.tar\.xz$/, '' ) );
	const stamp = String( fs.statSync( source ).size );
	const complete = () => {
		const marker = path.join( target, MARKER );
		return fs.existsSync( marker ) && fs.readFileSync( marker, 'utf8' ) === stamp;
	};
	if ( complete() ) {
		return path.join( target, topFolder );
	}
	verifyChecksum( name );
	fs.mkdirSync( UNPACKED_DIR, { recursive: true } );
	const staging = fs.mkdtempSync( `${ target }.unpacking-` );
	try {
		// mkdtemp makes it private (0700); the web server's user reads the tree.
		fs.chmodSync( staging, 0o755 );
		const tar = spawnSync( 'tar', [ '-xJf', source, '-C', staging ], { encoding: 'utf8' } );
		if ( tar.status !== 0 ) {
			throw new Error(
				`Unpacking ${ source } failed: ${ tar.error?.message ?? tar.stderr.trim() } (it needs tar and xz-utils)`
			);
		}
		if ( ! fs.existsSync( path.join( staging, topFolder ) ) ) {
			throw new Error( `${ source } has no ${ topFolder }/ folder at its top` );
		}
		fs.writeFileSync( path.join( staging, MARKER ), stamp );
		if ( ! complete() ) {
			// A tree of another size of the archive (the build was replaced): set aside, then replaced.
			if ( fs.existsSync( target ) ) {
				const stale = `${ target }.stale-${ process.pid }`;
				try {
					fs.renameSync( target, stale );
				} catch {
					// Another run set it aside first.
				}
				fs.rmSync( stale, { recursive: true, force: true } );
			}
			try {
				fs.renameSync( staging, target );
			} catch ( error ) {
				// Another run renamed its tree into place first: use that one.
				if ( ! complete() ) {
					throw error;
				}
			}
		}
	} finally {
		fs.rmSync( staging, { recursive: true, force: true } );
	}
	return path.join( target, topFolder );
}

/** The unpacked WooCommerce plugin folder of a build. */
export function woocommerceBuild( version: WooCommerceBuild ): string {
	return unpacked( woocommerceArchive( version ), 'woocommerce' );
}

/** The unpacked WordPress 7.1 core tree. */
export function wordpressBuild(): string {
	return unpacked( wordpressArchive(), 'wordpress' );
}

/** The Plugin Check build's archive name. */
export function pluginCheckArchive(): string {
	return `plugin-check-${ PLUGIN_CHECK_BUILD }.tar.xz`;
}

/**
 * The unpacked Plugin Check plugin folder (plugin.php, cli.php, vendor/). Read-only like every
 * build: a site copies it into its wp-content/plugins (Plugin Check writes an object-cache.php
 * drop-in beside it while its runtime checks run). Its vendor/bin/phpcs is PHP_CodeSniffer 3.13
 * with the WordPress Coding Standards 3.1, the VIP standards and Plugin Check's own sniffs: the
 * phpcs `npm test` runs with phpcs.xml.dist (`php <folder>/vendor/bin/phpcs`).
 */
export function pluginCheckBuild(): string {
	return unpacked( pluginCheckArchive(), 'plugin-check' );
}

/** The unpacked MCP Adapter plugin folder (its vendor/ included). */
export function mcpAdapterBuild(): string {
	return unpacked( MCP_ADAPTER_ARCHIVE, 'mcp-adapter' );
}

/** WP-CLI's phar, read in place (run it with `php <phar> --path=<wordpress>`). */
export function wpCliPhar(): string {
	const phar = archive( WP_CLI_BUILD );
	if ( ! fs.existsSync( phar ) ) {
		throw new Error(
			`No ${ WP_CLI_BUILD } in ${ BUILDS_DIR } (set SERVICE_INTEGRATION_BUILDS_DIR to the folder that has it)`
		);
	}
	return phar;
}

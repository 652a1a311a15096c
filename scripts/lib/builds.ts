import { spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { CACHE_DIR, ROOT } from './paths';

/**
 * The real WordPress, WooCommerce and WP-CLI release builds that every machine of this project
 * (CI's included) has beside the checkout, in ../shared/builds with their SHA256SUMS. They are test
 * material, never part of the product: each archive is checked against SHA256SUMS and unpacked
 * once under .cache/builds (git-ignored), then read in place.
 */
export const BUILDS_DIR = path.resolve(
	process.env.SERVICE_INTEGRATION_BUILDS_DIR || path.join( ROOT, '..', 'shared', 'builds' )
);
const UNPACKED_DIR = path.join( CACHE_DIR, 'builds' );

/** The WooCommerce versions the plugin supports and has builds of: the newest first, then the oldest supported. */
export const WOOCOMMERCE_BUILDS = [ '10.0.2', '9.4.3' ] as const;
export type WooCommerceBuild = ( typeof WOOCOMMERCE_BUILDS )[ number ];
/** The WordPress release build (the oldest supported, 6.5.5, comes from the npm registry: wordpress-core.ts). */
export const WORDPRESS_BUILD = '7.1';
const WP_CLI_BUILD = 'wp-cli-2.10.0.phar';

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
 * link it.
 */
function unpacked( name: string, topFolder: string ): string {
	const source = archive( name );
	if ( ! fs.existsSync( source ) ) {
		throw new Error(
			`No build ${ name } in ${ BUILDS_DIR } (set SERVICE_INTEGRATION_BUILDS_DIR to the folder that has it)`
		);
	}
	const target = path.join( UNPACKED_DIR, name.replace( /\.tar\.xz$/, '' ) );
	const marker = path.join( target, '.service-integration-unpacked' );
	const stamp = String( fs.statSync( source ).size );
	if ( fs.existsSync( marker ) && fs.readFileSync( marker, 'utf8' ) === stamp ) {
		return path.join( target, topFolder );
	}
	verifyChecksum( name );
	fs.rmSync( target, { recursive: true, force: true } );
	fs.mkdirSync( target, { recursive: true } );
	const tar = spawnSync( 'tar', [ '-xJf', source, '-C', target ], { encoding: 'utf8' } );
	if ( tar.status !== 0 ) {
		throw new Error(
			`Unpacking ${ source } failed: ${ tar.error?.message ?? tar.stderr.trim() } (it needs tar and xz-utils)`
		);
	}
	if ( ! fs.existsSync( path.join( target, topFolder ) ) ) {
		throw new Error( `${ source } has no ${ topFolder }/ folder at its top` );
	}
	fs.writeFileSync( marker, stamp );
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

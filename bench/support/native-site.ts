import AdmZip from 'adm-zip';
import { spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { CACHE_DIR, ROOT, environmentDir } from '../../scripts/lib/paths';
import { ensureWordPressCore } from '../../scripts/lib/wordpress-core';
import { environmentConstants, environmentMappings } from '../../scripts/lib/wp-env';
import { phpLiteral } from '../../scripts/lib/php-literal';

/**
 * The files of a WordPress site for PHP's own web server: a copy of the same core the
 * Playground runtime uses, the SQLite Database Integration's db.php drop-in (the one
 * Playground loads), a wp-config.php with the constants wp-env gives Playground, and
 * symlinks for the plugin, extra plugins and the must-use plugins. No shop: the benchmarks that
 * need one run on the production runtime (bench-stack.ts).
 */
export interface NativeSiteOptions {
	/** Environment name: the site lives in .cache/environments/<name>/native/. */
	name: string;
	port: number;
	sidecarUrl: string;
	sharedKey: string;
	extraPlugins?: Record< string, string >;
	/** Start from an empty database. */
	fresh: boolean;
}

export interface NativeSite {
	dir: string;
	docroot: string;
	siteUrl: string;
}

export const ADMIN_PASSWORD = 'password';

const SQLITE_ZIPS = [
	// What @wp-playground/cli (the Playground runtime) loads; the older build as a fallback.
	path.join( ROOT, 'node_modules', '@wp-playground', 'cli', 'sqlite-database-integration.zip' ),
	path.join(
		ROOT,
		'node_modules',
		'@wp-playground',
		'wordpress-builds',
		'src',
		'sqlite-database-integration',
		'sqlite-database-integration.zip'
	),
];

export function nativeSiteDir( name: string ): string {
	return path.join( environmentDir( name ), 'native' );
}

/** Unpacks the SQLite integration once per zip, outside any site (db.php points at it). */
function ensureSqliteIntegration(): string {
	const zip = SQLITE_ZIPS.find( ( file ) => fs.existsSync( file ) );
	if ( ! zip ) {
		throw new Error(
			`The SQLite Database Integration zip is missing (looked for ${ SQLITE_ZIPS.join( ', ' ) }): run npm install`
		);
	}
	const digest = crypto.createHash( 'sha256' ).update( fs.readFileSync( zip ) ).digest( 'hex' ).slice( 0, 12 );
	const target = path.join( CACHE_DIR, 'sqlite-database-integration', digest );
	const marker = path.join( target, '.complete' );
	if ( ! fs.existsSync( marker ) ) {
		fs.rmSync( target, { recursive: true, force: true } );
		new AdmZip( zip ).extractAllTo( target, true );
		fs.writeFileSync( marker, zip );
	}
	// The zip holds one top folder (plugin-sqlite-database-integration/ or sqlite-database-integration-main/).
	const top = fs.readdirSync( target, { withFileTypes: true } ).find( ( entry ) => entry.isDirectory() );
	if ( ! top || ! fs.existsSync( path.join( target, top.name, 'db.copy' ) ) ) {
		throw new Error( `${ zip } does not hold the SQLite integration's db.copy` );
	}
	return path.join( target, top.name );
}

/** Salts made once per site, so login cookies survive restarts like on a real site. */
function salts( dir: string ): Record< string, string > {
	const file = path.join( dir, 'salts.json' );
	if ( ! fs.existsSync( file ) ) {
		const names = [
			'AUTH_KEY',
			'SECURE_AUTH_KEY',
			'LOGGED_IN_KEY',
			'NONCE_KEY',
			'AUTH_SALT',
			'SECURE_AUTH_SALT',
			'LOGGED_IN_SALT',
			'NONCE_SALT',
		];
		fs.writeFileSync(
			file,
			JSON.stringify(
				Object.fromEntries( names.map( ( name ) => [ name, crypto.randomBytes( 48 ).toString( 'base64' ) ] ) )
			),
			{ mode: 0o600 }
		);
	}
	return JSON.parse( fs.readFileSync( file, 'utf8' ) ) as Record< string, string >;
}

function writeWpConfig( site: NativeSite, options: NativeSiteOptions ): void {
	const host = `localhost:${ options.port }`;
	// wp-env's own Playground defaults (see its playground-blueprint.json), then the project's.
	const constants: Record< string, unknown > = {
		FS_METHOD: 'direct',
		WP_DEBUG: true,
		SCRIPT_DEBUG: true,
		WP_ENVIRONMENT_TYPE: 'local',
		WP_PHP_BINARY: 'php',
		WP_TESTS_EMAIL: 'admin@example.org',
		WP_TESTS_TITLE: 'Test Blog',
		WP_TESTS_DOMAIN: host,
		WP_SITEURL: site.siteUrl,
		WP_HOME: site.siteUrl,
		...environmentConstants( options ),
		...salts( site.dir ),
		DB_NAME: 'wordpress',
		DB_USER: '',
		DB_PASSWORD: '',
		DB_HOST: 'localhost',
		DB_CHARSET: 'utf8',
		DB_COLLATE: '',
	};
	const lines = [
		'<?php',
		'// Written by bench/support/native-site.ts at every start of the native benchmark runtime: edits are lost.',
		...Object.entries( constants ).map( ( [ name, value ] ) => `define( '${ name }', ${ phpLiteral( value ) } );` ),
		"$table_prefix = 'wp_';",
		"if ( ! defined( 'ABSPATH' ) ) {",
		"\tdefine( 'ABSPATH', __DIR__ . '/' );",
		'}',
		"require_once ABSPATH . 'wp-settings.php';",
		'',
	];
	fs.writeFileSync( path.join( site.docroot, 'wp-config.php' ), lines.join( '\n' ), { mode: 0o600 } );
}

/** The drop-in as the integration's own activation writes it: its db.copy with the two paths filled in. */
function writeDbDropIn( docroot: string ): void {
	const implementation = ensureSqliteIntegration();
	const dropIn = fs
		.readFileSync( path.join( implementation, 'db.copy' ), 'utf8' )
		.replace( "'{SQLITE_IMPLEMENTATION_FOLDER_PATH}'", phpLiteral( implementation ) )
		.replaceAll( "'{SQLITE_PLUGIN}'", phpLiteral( 'sqlite-database-integration/load.php' ) );
	fs.writeFileSync( path.join( docroot, 'wp-content', 'db.php' ), dropIn );
}

function replaceSymlink( link: string, target: string ): void {
	fs.mkdirSync( path.dirname( link ), { recursive: true } );
	fs.rmSync( link, { recursive: true, force: true } );
	fs.symlinkSync( target, link, 'dir' );
}

function install( php: string, site: NativeSite ): void {
	// The must-use plugin activates plugins on every load, which needs the tables wp_install creates.
	fs.rmSync( path.join( site.docroot, 'wp-content', 'mu-plugins' ), { recursive: true, force: true } );
	const result = spawnSync( php, [ path.join( __dirname, 'install-wordpress.php' ), site.docroot, ADMIN_PASSWORD ], {
		cwd: site.docroot,
		encoding: 'utf8',
	} );
	if ( result.status !== 0 ) {
		throw new Error(
			`Installing WordPress with ${ php } failed (exit ${ result.status ?? result.signal }):\n${ result.stdout }${ result.stderr }`
		);
	}
}

/** Prepares (and on a fresh or new site, installs) the site; returns where it lives. */
export function prepareNativeSite( php: string, options: NativeSiteOptions ): NativeSite {
	const dir = nativeSiteDir( options.name );
	if ( options.fresh ) {
		fs.rmSync( dir, { recursive: true, force: true } );
	}
	const site: NativeSite = {
		dir,
		docroot: path.join( dir, 'wordpress' ),
		siteUrl: `http://localhost:${ options.port }`,
	};
	if ( ! fs.existsSync( path.join( site.docroot, 'wp-settings.php' ) ) ) {
		fs.mkdirSync( dir, { recursive: true } );
		fs.cpSync( ensureWordPressCore(), site.docroot, { recursive: true } );
	}
	writeWpConfig( site, options );
	writeDbDropIn( site.docroot );
	if ( ! fs.existsSync( path.join( site.docroot, 'wp-content', 'database', '.ht.sqlite' ) ) ) {
		install( php, site );
	}
	for ( const [ target, source ] of Object.entries( environmentMappings( options ) ) ) {
		replaceSymlink( path.join( site.docroot, target ), source );
	}
	return site;
}

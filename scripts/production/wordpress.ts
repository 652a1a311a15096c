import { spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { ROOT } from '../lib/paths';
import { ensureWordPressCore } from '../lib/wordpress-core';
import { loginCookies } from '../lib/wp-login';
import { LOCAL_MU_PLUGINS_TARGET, siteReadiness, type OrderStorage, type SiteReport } from '../lib/wp-env';
import type { ProductionLayout } from './layout';
import { phpCli, type Database } from './services';
import { phpLiteral } from '../lib/php-literal';

export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'password';
export const PLUGIN_FILE = 'service-integration/service-integration.php';

/** Must-use plugins of the local environment, reused here (never shipped; see copyTestHelpers). */
const LOCAL_MU_PLUGINS = path.join( ROOT, 'scripts', 'wp-env', 'mu-plugins' );

export interface ProductionSiteOptions {
	siteUrl: string;
	database: Database;
	/** The two define() lines `service-integration-sidecar init` printed (the sidecar's URL and shared key). */
	sidecarWpConfig: string[];
	/** A WordPress core tree to copy (WORDPRESS_DIR); default the same 6.5.5 the Playground runtime runs. */
	wordpressDir?: string;
	/** A WooCommerce plugin folder (site-choice.ts); a site without a shop when absent. */
	woocommerceDir?: string;
	orderStorage: OrderStorage;
	/** Test-only plugins put in wp-content/plugins, inactive (the e2e suite switches them). */
	extraPlugins?: Record< string, string >;
	/** A folder of one's own must-use plugins, linked where the Playground runtime mounts it (wp-env.ts). */
	localMuPluginsDir?: string;
}

function coreSource( wordpressDir?: string ): string {
	if ( ! wordpressDir ) {
		return ensureWordPressCore();
	}
	const dir = path.resolve( wordpressDir );
	if ( ! fs.existsSync( path.join( dir, 'wp-includes', 'version.php' ) ) ) {
		throw new Error( `${ dir } is not a WordPress core tree (no wp-includes/version.php)` );
	}
	return dir;
}

/**
 * The wp-config.php lines of a production site, in three groups: what any site has (database,
 * salts), what the plugin's documentation asks for (real cron, the sidecar's URL and key), and
 * what only this test runtime adds (marked TEST-ONLY).
 */
function wpConfig( layout: ProductionLayout, options: ProductionSiteOptions ): string {
	const saltsFile = path.join( layout.root, 'wp-salts.json' );
	if ( ! fs.existsSync( saltsFile ) ) {
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
			saltsFile,
			JSON.stringify(
				Object.fromEntries( names.map( ( name ) => [ name, crypto.randomBytes( 48 ).toString( 'base64' ) ] ) )
			),
			{ mode: 0o600 }
		);
	}
	const salts = JSON.parse( fs.readFileSync( saltsFile, 'utf8' ) ) as Record< string, string >;
	const define = ( constants: Record< string, unknown > ) =>
		Object.entries( constants ).map( ( [ name, value ] ) => `define( '${ name }', ${ phpLiteral( value ) } );` );
	const { database } = options;
	return [
		'<?php',
		'// Written by scripts/production at every start of the production runtime: edits are lost.',
		'',
		...define( {
			DB_NAME: database.name,
			DB_USER: database.user,
			DB_PASSWORD: database.password,
			DB_HOST: `${ database.host }:${ database.port }`,
			DB_CHARSET: 'utf8mb4',
			DB_COLLATE: '',
			...salts,
		} ),
		"$table_prefix = 'wp_';",
		'',
		'// Real cron (docs/production.md): WP-Cron no longer runs on page views; a system cron calls wp-cron.php every minute.',
		...define( { DISABLE_WP_CRON: true } ),
		'',
		'// The sidecar: the lines `service-integration-sidecar init` printed.',
		...options.sidecarWpConfig,
		'',
		'// TEST-ONLY, never on a real site:',
		"// - WordPress's debug mode, so PHP's messages go to wp-content/debug.log (never into pages), which the",
		'//   tests read for PHP warnings. A live site keeps WP_DEBUG false, and WordPress then ignores WP_DEBUG_LOG:',
		"//   PHP's messages go to PHP-FPM's error log (docs/production.md, steps 5 and 11).",
		...define( { WP_DEBUG: true, WP_DEBUG_LOG: true, WP_DEBUG_DISPLAY: false } ),
		'// - Application Passwords need HTTPS, or this environment type; this runtime serves plain HTTP on loopback.',
		...define( { WP_ENVIRONMENT_TYPE: 'local' } ),
		"// - WooCommerce's order storage for the local environment's must-use plugin (WOOCOMMERCE_HPOS).",
		...define( { SERVICE_INTEGRATION_LOCAL_ORDER_STORAGE: options.orderStorage } ),
		'// - The query-count test (tests/fixtures/plugins/query-counter) asks for SAVEQUERIES with this request header.',
		"define( 'SAVEQUERIES', isset( $_SERVER['HTTP_X_SERVICE_INTEGRATION_QUERY_PROBE'] ) );",
		'',
		"if ( ! defined( 'ABSPATH' ) ) {",
		"\tdefine( 'ABSPATH', __DIR__ . '/' );",
		'}',
		"require_once ABSPATH . 'wp-settings.php';",
		'',
	].join( '\n' );
}

function link( target: string, linkPath: string ): void {
	fs.mkdirSync( path.dirname( linkPath ), { recursive: true } );
	fs.rmSync( linkPath, { recursive: true, force: true } );
	fs.symlinkSync( path.resolve( target ), linkPath, 'dir' );
}

/**
 * WooCommerce and test plugins: NOT the product under test, so linked rather than
 * installed from a zip. (The local environment's must-use plugins follow after wp_install().)
 */
function linkTestPlugins( docroot: string, options: ProductionSiteOptions ): void {
	const plugins = path.join( docroot, 'wp-content', 'plugins' );
	if ( options.woocommerceDir ) {
		link( options.woocommerceDir, path.join( plugins, 'woocommerce' ) );
	}
	for ( const [ slug, dir ] of Object.entries( options.extraPlugins ?? {} ) ) {
		link( dir, path.join( plugins, slug ) );
	}
	if ( options.localMuPluginsDir ) {
		link( options.localMuPluginsDir, path.join( docroot, LOCAL_MU_PLUGINS_TARGET ) );
	}
}

/** The local environment's must-use plugins, copied once the tables exist (they read and write options on every load). */
function copyMustUsePlugins( docroot: string ): void {
	const muPlugins = path.join( docroot, 'wp-content', 'mu-plugins' );
	fs.mkdirSync( muPlugins, { recursive: true } );
	for ( const file of fs.readdirSync( LOCAL_MU_PLUGINS ) ) {
		fs.copyFileSync( path.join( LOCAL_MU_PLUGINS, file ), path.join( muPlugins, file ) );
	}
}

/**
 * A fresh docroot: a copy of core, wp-config.php, the commerce plugin and test helpers.
 * With `fresh` false an existing site is kept (only wp-config.php is rewritten).
 */
export function prepareDocroot( layout: ProductionLayout, options: ProductionSiteOptions, fresh: boolean ): void {
	const docroot = layout.wordpress;
	if ( fresh ) {
		fs.rmSync( docroot, { recursive: true, force: true } );
	}
	if ( ! fs.existsSync( path.join( docroot, 'wp-settings.php' ) ) ) {
		fs.cpSync( coreSource( options.wordpressDir ), docroot, { recursive: true } );
	}
	fs.writeFileSync( path.join( docroot, 'wp-config.php' ), wpConfig( layout, options ), { mode: 0o600 } );
	linkTestPlugins( docroot, options );
}

/**
 * wp_install() from PHP's CLI, on MariaDB (a no-op on a site already installed); then the
 * local environment's must-use plugins: its site report (versions, order storage), the block
 * on calls to wordpress.org (this machine is offline), and WooCommerce's order storage
 * (service-integration-order-storage.php: WooCommerce activated from a script leaves HPOS off
 * until the next admin request; it switches HPOS on the way that request would). TEST-ONLY.
 */
export function installWordPress( layout: ProductionLayout, siteUrl: string ): { installed: boolean } {
	const result = spawnSync(
		phpCli(),
		[ path.join( __dirname, 'install-wordpress.php' ), layout.wordpress, siteUrl, ADMIN_PASSWORD ],
		{ cwd: layout.wordpress, encoding: 'utf8' }
	);
	if ( result.status !== 0 ) {
		throw new Error(
			`Installing WordPress failed (exit ${ result.status ?? result.signal }):\n${ result.stdout }${ result.stderr }`
		);
	}
	const last = result.stdout.trim().split( '\n' ).pop() ?? '';
	if ( ! last.startsWith( '{' ) ) {
		throw new Error( `Installing WordPress printed no result (exit 0):\n${ result.stdout }${ result.stderr }` );
	}
	copyMustUsePlugins( layout.wordpress );
	return JSON.parse( last ) as { installed: boolean };
}

function decodeHtml( value: string ): string {
	return value.replaceAll( '&amp;', '&' ).replaceAll( '&#038;', '&' ).replaceAll( '&quot;', '"' );
}

function absolute( siteUrl: string, href: string ): string {
	return new URL( href, `${ siteUrl }/wp-admin/` ).toString();
}

/**
 * A wp-admin page as the administrator sees it. Real WooCommerce sends the first admin page
 * after its activation to its setup wizard, once (OnboardingSetupWizard::do_admin_redirects()
 * deletes the `_wc_activation_redirect` transient, then redirects to admin.php?page=wc-admin);
 * a site owner then goes back to the page they asked for, and so does this.
 */
async function adminPage( siteUrl: string, cookie: string, page: string ): Promise< string > {
	let response = await fetch( absolute( siteUrl, page ), { headers: { cookie }, redirect: 'manual' } );
	if ( response.status === 302 && /[?&]page=wc-admin(&|$)/.test( response.headers.get( 'location' ) ?? '' ) ) {
		await response.text();
		response = await fetch( absolute( siteUrl, page ), { headers: { cookie }, redirect: 'manual' } );
	}
	const text = await response.text();
	if ( response.status !== 200 ) {
		throw new Error(
			`wp-admin/${ page } answered HTTP ${ response.status }${ response.headers.get( 'location' ) ? ` (to ${ response.headers.get( 'location' ) })` : '' }`
		);
	}
	return text;
}

/** Visible text of an admin page's notices, for error messages. */
function pageMessages( html: string ): string {
	return (
		html.match( /<(p|div)[^>]*>[^<]*(installed|already|error|failed|Unable|could not|not)[^<]*<\/(p|div)>/gi ) ?? []
	)
		.map( ( line ) => line.replace( /<[^>]+>/g, '' ).trim() )
		.slice( 0, 6 )
		.join( ' | ' );
}

/** Clicks the plugin's "Activate" link on wp-admin/plugins.php (the nonce-signed link a site owner clicks). */
export async function activatePlugin( siteUrl: string, cookie: string, pluginFile: string ): Promise< void > {
	const list = await adminPage( siteUrl, cookie, 'plugins.php?plugin_status=all' );
	const encoded = encodeURIComponent( pluginFile );
	if ( new RegExp( `href="[^"]*action=deactivate&amp;plugin=${ encoded.replace( /\./g, '\\.' ) }` ).test( list ) ) {
		return; // Already active.
	}
	const match = new RegExp(
		`href="([^"]*action=activate&amp;plugin=${ encoded.replace( /\./g, '\\.' ) }[^"]*)"`
	).exec( list );
	if ( ! match ) {
		throw new Error( `wp-admin/plugins.php lists no Activate link for ${ pluginFile }` );
	}
	await followActivation( siteUrl, cookie, decodeHtml( match[ 1 ] as string ), pluginFile );
}

async function followActivation( siteUrl: string, cookie: string, href: string, pluginFile: string ): Promise< void > {
	const response = await fetch( absolute( siteUrl, href ), { headers: { cookie }, redirect: 'manual' } );
	const body = await response.text();
	const location = response.headers.get( 'location' ) ?? '';
	// plugins.php redirects to ?activate=true on success, to ?error=true (with the output) on failure.
	if ( response.status === 302 && location.includes( 'error=true' ) ) {
		throw new Error(
			`WordPress refused to activate ${ pluginFile }: its activation failed or died with a PHP error (wp-content/debug.log says which). ` +
				'A site kept from an earlier start with another commerce plugin or core tree starts clean with --fresh.'
		);
	}
	if ( response.status !== 302 || ! location.includes( 'activate=true' ) ) {
		throw new Error(
			`Activating ${ pluginFile } failed: HTTP ${ response.status } to "${ location }" ${ pageMessages( body ) }`.trim()
		);
	}
}

/**
 * Installs the plugin FROM THE RELEASE ZIP the way a site owner does in wp-admin: Plugins >
 * Add New > Upload Plugin, choose the zip, Install Now, then Activate Plugin. The form is
 * submitted over HTTP with the administrator's login cookie and the form's nonce: the same
 * multipart POST Chromium would send, without a browser (faster, and nothing in that page
 * needs JavaScript). So WordPress's own Plugin_Upgrader unpacks the zip (its folder checks,
 * its unzip, the "Replace current with uploaded" upgrade path), not this script: a zip
 * WordPress would refuse fails here too. When the plugin is already there (an upgrade),
 * the "Replace current with uploaded" button is clicked, as docs/production.md tells a
 * site owner to.
 */
export async function uploadPluginZip(
	siteUrl: string,
	cookie: string,
	zipFile: string
): Promise< 'installed' | 'replaced' > {
	const form = await adminPage( siteUrl, cookie, 'plugin-install.php?tab=upload' );
	const nonce = /name="_wpnonce" value="([a-f0-9]+)"/.exec( form )?.[ 1 ];
	const action = /<form[^>]+action="([^"]*update\.php\?action=upload-plugin[^"]*)"/.exec( form )?.[ 1 ];
	if ( ! nonce || ! action ) {
		throw new Error(
			'wp-admin/plugin-install.php?tab=upload shows no upload form (is the administrator allowed to install plugins?)'
		);
	}
	const body = new FormData();
	body.append( '_wpnonce', nonce );
	body.append( '_wp_http_referer', '/wp-admin/plugin-install.php?tab=upload' );
	body.append(
		'pluginzip',
		new Blob( [ fs.readFileSync( zipFile ) ], { type: 'application/zip' } ),
		path.basename( zipFile )
	);
	body.append( 'install-plugin-submit', 'Install Now' );
	const response = await fetch( absolute( siteUrl, decodeHtml( action ) ), {
		method: 'POST',
		headers: { cookie },
		body,
		redirect: 'manual',
	} );
	let page = await response.text();
	if ( response.status !== 200 ) {
		throw new Error( `Uploading ${ path.basename( zipFile ) } answered HTTP ${ response.status }` );
	}
	let outcome: 'installed' | 'replaced' = 'installed';
	const replace = /href="([^"]*update\.php\?action=upload-plugin[^"]*overwrite=update-plugin[^"]*)"/.exec(
		page
	)?.[ 1 ];
	if ( replace ) {
		const replaced = await fetch( absolute( siteUrl, decodeHtml( replace ) ), {
			headers: { cookie },
			redirect: 'manual',
		} );
		page = await replaced.text();
		outcome = 'replaced';
	}
	if ( ! /Plugin (installed|updated) successfully/.test( page ) ) {
		throw new Error(
			`WordPress did not install ${ path.basename( zipFile ) }: ${ pageMessages( page ) || 'no message' }`
		);
	}
	return outcome;
}

export async function adminCookie( siteUrl: string ): Promise< string > {
	return loginCookies( siteUrl, ADMIN_USER, ADMIN_PASSWORD );
}

/**
 * Waits until the site answers /wp-json/ with the plugin's namespace and, on a site with a shop,
 * WooCommerce's, running the order storage asked for.
 */
export async function waitForSite(
	siteUrl: string,
	options: Pick< ProductionSiteOptions, 'woocommerceDir' | 'orderStorage' >,
	debugLog: string,
	timeoutMs = 120_000
): Promise< SiteReport > {
	const deadline = Date.now() + timeoutMs;
	let lastError = 'no answer yet';
	while ( Date.now() < deadline ) {
		const readiness = await siteReadiness( siteUrl, {
			woocommerce: Boolean( options.woocommerceDir ),
			orderStorage: options.orderStorage,
		} );
		if ( 'report' in readiness ) {
			return readiness.report;
		}
		lastError = readiness.waiting;
		await new Promise( ( r ) => setTimeout( r, 1000 ) );
	}
	const log = fs.existsSync( debugLog )
		? fs.readFileSync( debugLog, 'utf8' ).trimEnd().split( '\n' ).slice( -10 ).join( '\n' )
		: '(empty)';
	throw new Error(
		`WordPress at ${ siteUrl } did not become ready within ${ timeoutMs / 1000 } s (${ lastError }). End of ${ debugLog }:\n${ log }`
	);
}

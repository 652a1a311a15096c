import crypto from 'crypto';
import { spawn } from 'child_process';
import fs from 'fs';
import path from 'path';
import { environmentDir, ROOT, WOOCOMMERCE_FIXTURE_DIR, WP_ENV_BIN } from './paths';
import { ensureWordPressCore, wordpressVersion } from './wordpress-core';

export type Runtime = 'playground' | 'docker';

export interface WordPressEnvironment {
	/** Name of the environment: its state lives in .cache/environments/<name>. */
	name: string;
	runtime: Runtime;
	port: number;
	sidecarUrl: string;
	sharedKey: string;
	/** A real WooCommerce plugin folder; the WooCommerce-compatible fixture is mounted when absent. */
	woocommerceDir?: string;
	/** Extra plugin folders to mount (test-only plugins), keyed by slug. */
	extraPlugins?: Record< string, string >;
	/** Start from an empty database (the e2e suite); otherwise data survives restarts. */
	freshSite?: boolean;
}

interface RawConfig {
	mappings?: Record< string, string >;
	config?: Record< string, unknown >;
	[ key: string ]: unknown;
}

export function siteUrl( env: WordPressEnvironment ): string {
	return `http://localhost:${ env.port }`;
}

function configPath( env: WordPressEnvironment ): string {
	return path.join( environmentDir( env.name ), '.wp-env.json' );
}

function wpEnvHome( env: WordPressEnvironment ): string {
	return path.join( environmentDir( env.name ), 'wp-env-home' );
}

function baseConfig(): RawConfig {
	return JSON.parse( fs.readFileSync( path.join( ROOT, '.wp-env.json' ), 'utf8' ) ) as RawConfig;
}

/** The wp-config constants this environment gets: .wp-env.json's, plus the sidecar's URL and key. */
export function environmentConstants( env: Pick< WordPressEnvironment, 'sidecarUrl' | 'sharedKey' > ): Record< string, unknown > {
	return {
		...baseConfig().config,
		SERVICE_INTEGRATION_SIDECAR_URL: env.sidecarUrl,
		SERVICE_INTEGRATION_SIDECAR_KEY: env.sharedKey,
	};
}

/**
 * The folders mounted into WordPress (path inside WordPress -> absolute source):
 * .wp-env.json's mappings (the plugin, the local-environment must-use plugin), the commerce
 * plugin (a real WooCommerce folder, else the fixture) and any extra plugins.
 */
export function environmentMappings( env: Pick< WordPressEnvironment, 'woocommerceDir' | 'extraPlugins' > ): Record< string, string > {
	const mappings: Record< string, string > = {};
	for ( const [ target, source ] of Object.entries( baseConfig().mappings ?? {} ) ) {
		mappings[ target ] = path.resolve( ROOT, source );
	}
	if ( env.woocommerceDir ) {
		mappings[ 'wp-content/plugins/woocommerce' ] = path.resolve( env.woocommerceDir );
	} else {
		mappings[ 'wp-content/plugins/woocommerce-fixture' ] = WOOCOMMERCE_FIXTURE_DIR;
	}
	for ( const [ slug, dir ] of Object.entries( env.extraPlugins ?? {} ) ) {
		mappings[ `wp-content/plugins/${ slug }` ] = dir;
	}
	return mappings;
}

/**
 * Derives this environment's config from the project's .wp-env.json (which stays the
 * one Docker users run directly): absolute paths, its own port, the sidecar's URL and
 * key as wp-config constants, and the commerce plugin to mount.
 */
export function writeEnvironmentConfig( env: WordPressEnvironment ): string {
	const config = {
		...baseConfig(),
		$schema: undefined,
		port: env.port,
		mappings: environmentMappings( env ),
		config: environmentConstants( env ),
	};
	const file = configPath( env );
	fs.mkdirSync( path.dirname( file ), { recursive: true } );
	fs.writeFileSync( file, JSON.stringify( config, null, '\t' ) + '\n', { mode: 0o600 } );
	seedOfflineVersionCache( env, file );
	return file;
}

/**
 * wp-env asks WordPress.org for the latest version while reading its defaults, even
 * when core is given, and fails offline unless its cache already holds an answer.
 */
function seedOfflineVersionCache( env: WordPressEnvironment, file: string ): void {
	const workDir = wpEnvWorkDir( env, file );
	fs.mkdirSync( workDir, { recursive: true } );
	const cacheFile = path.join( workDir, 'wp-env-cache.json' );
	const cache = fs.existsSync( cacheFile ) ? JSON.parse( fs.readFileSync( cacheFile, 'utf8' ) ) : {};
	cache.latestWordPressVersion ??= wordpressVersion();
	fs.writeFileSync( cacheFile, JSON.stringify( cache ) );
}

/** wp-env's work directory for a config file (the md5 form, which we create first so wp-env uses it). */
function wpEnvWorkDir( env: WordPressEnvironment, file = configPath( env ) ): string {
	return path.join( wpEnvHome( env ), crypto.createHash( 'md5' ).update( file ).digest( 'hex' ) );
}

/**
 * Our own record of the Playground server's pid: wp-env deletes its pid file when a
 * later start fails (e.g. port in use), which would orphan a running server.
 */
function serverPidFile( env: WordPressEnvironment ): string {
	return path.join( environmentDir( env.name ), 'wordpress.pid' );
}

function isAlive( pid: number ): boolean {
	try {
		process.kill( pid, 0 );
		return true;
	} catch {
		return false;
	}
}

async function killRecordedServer( env: WordPressEnvironment ): Promise< void > {
	const file = serverPidFile( env );
	const pid = fs.existsSync( file ) ? Number( fs.readFileSync( file, 'utf8' ) ) : 0;
	if ( pid > 0 && isAlive( pid ) ) {
		for ( const signal of [ 'SIGTERM', 'SIGKILL' ] as const ) {
			try {
				process.kill( -pid, signal );
			} catch {
				process.kill( pid, signal );
			}
			const deadline = Date.now() + 3000;
			while ( isAlive( pid ) && Date.now() < deadline ) {
				await new Promise( ( r ) => setTimeout( r, 100 ) );
			}
			if ( ! isAlive( pid ) ) {
				break;
			}
		}
	}
	fs.rmSync( file, { force: true } );
}

function runWpEnv( env: WordPressEnvironment, args: string[], extraEnv: NodeJS.ProcessEnv = {}, quiet = false ): Promise< void > {
	return new Promise( ( resolve, reject ) => {
		const child = spawn( process.execPath, [ WP_ENV_BIN, ...args, `--config=${ configPath( env ) }` ], {
			cwd: ROOT,
			stdio: [ 'ignore', quiet ? 'ignore' : 'inherit', quiet ? 'ignore' : 'inherit' ],
			env: { ...process.env, WP_ENV_HOME: wpEnvHome( env ), ...extraEnv },
		} );
		child.on( 'error', reject );
		child.on( 'exit', ( code ) =>
			code === 0 ? resolve() : reject( new Error( `wp-env ${ args[ 0 ] } exited with code ${ code }` ) )
		);
	} );
}

/**
 * Playground installs into the core folder it mounts and keeps the SQLite database
 * there, so each environment gets its own copy of the pristine core.
 */
function prepareSiteDir( env: WordPressEnvironment ): string {
	const site = path.join( environmentDir( env.name ), 'wordpress' );
	if ( env.freshSite ) {
		fs.rmSync( site, { recursive: true, force: true } );
	}
	if ( ! fs.existsSync( site ) ) {
		fs.cpSync( ensureWordPressCore(), site, { recursive: true } );
	}
	return site;
}

/** Starts WordPress; with the Playground runtime, core comes from the npm registry. */
export async function startWordPress( env: WordPressEnvironment ): Promise< void > {
	writeEnvironmentConfig( env );
	const extraEnv: NodeJS.ProcessEnv = {};
	if ( env.runtime === 'playground' && ! process.env.WP_ENV_CORE ) {
		extraEnv.WP_ENV_CORE = prepareSiteDir( env );
	}
	await killRecordedServer( env );
	await runWpEnv( env, [ 'start', `--runtime=${ env.runtime }` ], extraEnv );
	const wpEnvPidFile = path.join( wpEnvWorkDir( env ), 'playground.pid' );
	if ( fs.existsSync( wpEnvPidFile ) ) {
		fs.copyFileSync( wpEnvPidFile, serverPidFile( env ) );
	}
}

/** Stops WordPress; `quiet` keeps wp-env's spinner out of output that must end with a test summary. */
export async function stopWordPress( env: WordPressEnvironment, quiet = false ): Promise< void > {
	if ( ! fs.existsSync( configPath( env ) ) ) {
		return;
	}
	await runWpEnv( env, [ 'stop' ], {}, quiet );
	await killRecordedServer( env );
}

/**
 * Playground's auto-login answers 302 to a browser request without this cookie (API
 * requests are exempted by the local-environment must-use plugin); wp-login.php needs it.
 */
export const PLAYGROUND_COOKIE = 'playground_auto_login_already_happened=1';

/** Polls the REST index until WordPress answers with the plugin's namespace. */
export async function waitForWordPress( env: WordPressEnvironment, timeoutMs = 180_000 ): Promise< void > {
	await waitForSite( siteUrl( env ), timeoutMs );
}

/** The same wait for any WordPress URL; `gone` (when given) fails it early, e.g. once the server process has exited. */
export async function waitForSite( url: string, timeoutMs = 180_000, gone?: () => string | undefined ): Promise< void > {
	const deadline = Date.now() + timeoutMs;
	let lastError = 'no answer yet';
	while ( Date.now() < deadline ) {
		const reason = gone?.();
		if ( reason ) {
			throw new Error( `WordPress at ${ url } will not answer: ${ reason }` );
		}
		try {
			const response = await fetch( `${ url }/wp-json/`, { redirect: 'manual' } );
			const text = await response.text();
			if ( response.status === 200 && text.includes( '"service-integration\\/v1"' ) ) {
				return;
			}
			lastError = `HTTP ${ response.status }`;
		} catch ( error ) {
			lastError = ( error as Error ).message;
		}
		await new Promise( ( r ) => setTimeout( r, 1000 ) );
	}
	throw new Error( `WordPress at ${ url } did not become ready within ${ timeoutMs / 1000 } s (${ lastError })` );
}

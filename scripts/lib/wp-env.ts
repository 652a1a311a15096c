import crypto from 'crypto';
import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import path from 'path';
import { environmentDir, ROOT, siteCopyDir, WP_ENV_BIN } from './paths';
import { forgetPid, readPid, recordPid, stopRecordedProcess, terminate, type ProcessIdentity } from './processes';
import { coreTreeVersion, ensureWordPressCore, wordpressVersion } from './wordpress-core';
import { readFileFrom } from './file-tail';
import { siteSourceFile, switchSite } from './kept-sites';
import type { OrderStorage } from './site-choice';

export type { OrderStorage };

export type Runtime = 'playground' | 'docker';

export interface WordPressEnvironment {
	/** Name of the environment: its state lives in .cache/environments/<name>. */
	name: string;
	runtime: Runtime;
	port: number;
	sidecarUrl: string;
	sharedKey: string;
	/** A WooCommerce plugin folder to mount (site-choice.ts); a site without a shop when absent. */
	woocommerceDir?: string;
	/** Extra plugin folders to mount (test-only plugins), keyed by slug. */
	extraPlugins?: Record< string, string >;
	/**
	 * A folder of must-use plugins of one's own (npm start: local-mu-plugins/), mounted at
	 * wp-content/local-mu-plugins, whose .php files the local environment's loader includes:
	 * wp-content/mu-plugins itself is the project's own (.wp-env.json's mappings).
	 */
	localMuPluginsDir?: string;
	/** Start from an empty database (the e2e suite); otherwise data survives restarts. */
	freshSite?: boolean;
	/**
	 * WP-Cron runs only when wp-cron.php is requested (DISABLE_WP_CRON), as on a server whose system
	 * cron requests it: the e2e suite requests it itself. A page view's spawn_cron() takes WP-Cron's
	 * lock and fires a loopback that Playground drops, which kept cron from running for a minute.
	 */
	systemCron?: boolean;
	/**
	 * A WordPress core tree to run (WORDPRESS_DIR), used read-only: it is copied into the
	 * environment's folder. Without it, core comes from the npm registry (wordpress-core.ts).
	 */
	wordpressDir?: string;
	/** WooCommerce's order storage (WOOCOMMERCE_HPOS): HPOS ('hpos', WooCommerce's default for new shops) or posts ('legacy'). */
	orderStorage?: OrderStorage;
	/**
	 * The address the Playground server listens on (npm start's --host): DEFAULT_WORDPRESS_HOST
	 * unless given. The Docker runtime publishes its ports as Docker does.
	 */
	host?: string;
	/**
	 * The command that starts this environment's sidecar again (npm start's: `npm run sidecar --
	 * start`), passed as SERVICE_INTEGRATION_SIDECAR_START_COMMAND: the plugin names it when the
	 * sidecar does not answer, instead of the production service's command.
	 */
	sidecarStartCommand?: string;
}

/** This machine only: the local site logs every browser in as administrator. */
export const DEFAULT_WORDPRESS_HOST = '127.0.0.1';

/** Preloaded into Playground's server, which has no option for the address it listens on. */
export const LISTEN_HOST_PRELOAD = path.join( ROOT, 'scripts', 'wp-env', 'listen-host.cjs' );

/**
 * What wp-env runs with (and passes on to the Playground server it starts) so that the server
 * listens on `host` only: the preload, added to any NODE_OPTIONS of this process, and the address.
 */
export function listenHostEnvironment( host: string, base: NodeJS.ProcessEnv = process.env ): NodeJS.ProcessEnv {
	return {
		SERVICE_INTEGRATION_WORDPRESS_HOST: host,
		NODE_OPTIONS: [ base.NODE_OPTIONS, `--require ${ JSON.stringify( LISTEN_HOST_PRELOAD ) }` ]
			.filter( Boolean )
			.join( ' ' ),
	};
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
export function environmentConstants(
	env: Pick<
		WordPressEnvironment,
		'sidecarUrl' | 'sharedKey' | 'orderStorage' | 'systemCron' | 'sidecarStartCommand'
	>
): Record< string, unknown > {
	return {
		...baseConfig().config,
		...( env.systemCron ? { DISABLE_WP_CRON: true } : {} ),
		SERVICE_INTEGRATION_SIDECAR_URL: env.sidecarUrl,
		SERVICE_INTEGRATION_SIDECAR_KEY: env.sharedKey,
		...( env.sidecarStartCommand ? { SERVICE_INTEGRATION_SIDECAR_START_COMMAND: env.sidecarStartCommand } : {} ),
		// Read by the local environment's must-use plugin (scripts/wp-env/mu-plugins).
		SERVICE_INTEGRATION_LOCAL_ORDER_STORAGE: env.orderStorage ?? 'hpos',
	};
}

/** Where a folder of one's own must-use plugins is mounted (scripts/wp-env/mu-plugins/service-integration-local-mu-plugins.php loads it). */
export const LOCAL_MU_PLUGINS_TARGET = 'wp-content/local-mu-plugins';

/**
 * The folders mounted into WordPress (path inside WordPress -> absolute source):
 * .wp-env.json's mappings (the plugin, the local-environment must-use plugins), WooCommerce
 * (when the site has a shop), any extra plugins and a folder of one's own must-use plugins.
 */
export function environmentMappings(
	env: Pick< WordPressEnvironment, 'woocommerceDir' | 'extraPlugins' | 'localMuPluginsDir' >
): Record< string, string > {
	const mappings: Record< string, string > = {};
	for ( const [ target, source ] of Object.entries( baseConfig().mappings ?? {} ) ) {
		mappings[ target ] = path.resolve( ROOT, source );
	}
	if ( env.woocommerceDir ) {
		mappings[ 'wp-content/plugins/woocommerce' ] = path.resolve( env.woocommerceDir );
	}
	for ( const [ slug, dir ] of Object.entries( env.extraPlugins ?? {} ) ) {
		mappings[ `wp-content/plugins/${ slug }` ] = dir;
	}
	if ( env.localMuPluginsDir ) {
		mappings[ LOCAL_MU_PLUGINS_TARGET ] = path.resolve( env.localMuPluginsDir );
	}
	return mappings;
}

/**
 * Derives this environment's config from the project's .wp-env.json (which stays the
 * one Docker users run directly): absolute paths, its own port, the sidecar's URL and
 * key as wp-config constants, and WooCommerce when the site has a shop.
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
	// Any version answers wp-env's question; that of the core tree this environment runs is the honest one.
	cache.latestWordPressVersion = env.wordpressDir ? coreTreeVersion( coreSourceDir( env ) ) : wordpressVersion();
	fs.writeFileSync( cacheFile, JSON.stringify( cache ) );
}

/** wp-env's work directory for a config file (the md5 form, which we create first so wp-env uses it). */
function wpEnvWorkDir( env: WordPressEnvironment, file = configPath( env ) ): string {
	return path.join( wpEnvHome( env ), crypto.createHash( 'md5' ).update( file ).digest( 'hex' ) );
}

/** The blueprint wp-env wrote for this environment's Playground server (wp-config constants, login). */
export function playgroundBlueprintFile( env: Pick< WordPressEnvironment, 'name' > ): string {
	return path.join( wpEnvWorkDir( env as WordPressEnvironment ), 'playground-blueprint.json' );
}

/** The config derived for this environment (writeEnvironmentConfig): its port and absolute mappings. */
export function environmentConfigFile( env: Pick< WordPressEnvironment, 'name' > ): string {
	return configPath( env as WordPressEnvironment );
}

/**
 * Our own record of the Playground server's pid, copied from wp-env's as soon as wp-env
 * writes it: wp-env deletes its pid file when a start fails, which would orphan a running
 * server, and a start that dies half-way must leave something `npm stop` can find.
 */
function serverPidFile( env: WordPressEnvironment ): string {
	return path.join( environmentDir( env.name ), 'wordpress.pid' );
}

/** The wp-env CLI while it starts WordPress (it waits up to 120 s for the server). */
function wpEnvPidFile( env: WordPressEnvironment ): string {
	return path.join( environmentDir( env.name ), 'wp-env.pid' );
}

/** The Playground server of this environment: its blueprint lives in this environment's wp-env home. */
function serverIdentity( env: WordPressEnvironment ): ProcessIdentity {
	return { label: 'the Playground server', cmdline: [ 'wp-playground', wpEnvHome( env ) ], group: true };
}

function wpEnvIdentity( env: WordPressEnvironment ): ProcessIdentity {
	return { label: 'wp-env', cmdline: [ WP_ENV_BIN, configPath( env ) ] };
}

/** Stops this environment's Playground server and wp-env CLI if any is still running; says what it stopped. */
export async function stopRecordedWordPress( env: WordPressEnvironment ): Promise< string[] > {
	const stopped: string[] = [];
	for ( const [ file, identity ] of [
		[ wpEnvPidFile( env ), wpEnvIdentity( env ) ],
		[ serverPidFile( env ), serverIdentity( env ) ],
		// wp-env's own record, in case ours was never copied.
		[ path.join( wpEnvWorkDir( env ), 'playground.pid' ), serverIdentity( env ) ],
	] as const ) {
		const line = await stopRecordedProcess( file, identity );
		if ( line ) {
			stopped.push( line );
		}
	}
	return stopped;
}

function spawnWpEnv(
	env: WordPressEnvironment,
	args: string[],
	extraEnv: NodeJS.ProcessEnv = {},
	quiet = false
): ChildProcess {
	return spawn( process.execPath, [ WP_ENV_BIN, ...args, `--config=${ configPath( env ) }` ], {
		cwd: ROOT,
		stdio: [ 'ignore', quiet ? 'ignore' : 'inherit', quiet ? 'ignore' : 'inherit' ],
		env: { ...process.env, WP_ENV_HOME: wpEnvHome( env ), ...extraEnv },
	} );
}

function exitOf( child: ChildProcess, what: string ): Promise< void > {
	return new Promise( ( resolve, reject ) => {
		child.on( 'error', reject );
		child.on( 'exit', ( code, signal ) =>
			code === 0
				? resolve()
				: reject(
						new Error(
							`${ what } exited with ${ code === null ? `signal ${ signal }` : `code ${ code }` }`
						)
					)
		);
	} );
}

function runWpEnv(
	env: WordPressEnvironment,
	args: string[],
	extraEnv: NodeJS.ProcessEnv = {},
	quiet = false
): Promise< void > {
	return exitOf( spawnWpEnv( env, args, extraEnv, quiet ), `wp-env ${ args[ 0 ] }` );
}

/** The pristine core tree this environment copies: WORDPRESS_DIR's, else the one from the npm registry. */
function coreSourceDir( env: WordPressEnvironment ): string {
	if ( env.wordpressDir ) {
		const dir = path.resolve( env.wordpressDir );
		if ( ! fs.existsSync( path.join( dir, 'wp-includes', 'version.php' ) ) ) {
			throw new Error( `${ dir } is not a WordPress core tree (no wp-includes/version.php)` );
		}
		return dir;
	}
	return ensureWordPressCore();
}

/**
 * Where this environment's WordPress lives on this machine (its wp-content holds debug.log and,
 * with Playground, the SQLite database): the per-environment copy, or WP_ENV_CORE when that
 * escape hatch names a folder. Undefined for the Docker runtime, whose files are in a container.
 */
export function siteDir( env: Pick< WordPressEnvironment, 'name' | 'runtime' > ): string | undefined {
	if ( env.runtime !== 'playground' ) {
		return undefined;
	}
	const override = process.env.WP_ENV_CORE;
	if ( override ) {
		return path.isAbsolute( override ) && fs.existsSync( override ) ? override : undefined;
	}
	return siteCopyDir( env.name );
}

/** WP_DEBUG_LOG's file (wp-content/debug.log) of this environment, when it is on this machine. */
export function debugLogFile( env: Pick< WordPressEnvironment, 'name' | 'runtime' > ): string | undefined {
	const dir = siteDir( env );
	return dir ? path.join( dir, 'wp-content', 'debug.log' ) : undefined;
}

/** Which core tree this environment's site is to be copied from, in the form kept-sites.ts records. */
export function wantedSiteSource( env: WordPressEnvironment ): string {
	const source = coreSourceDir( env );
	return JSON.stringify( { source, version: coreTreeVersion( source ) } );
}

/**
 * Playground installs into the core folder it mounts and keeps the SQLite database
 * there, so each environment gets its own copy of the pristine core (the npm registry's,
 * or WORDPRESS_DIR's, which is never written to). A kept site (npm start's `dev`) copied
 * from another tree is kept aside with its sidecar's data (kept-sites.ts; startStack does it
 * before the sidecar starts) instead of being mixed with it.
 */
function prepareSiteDir( env: WordPressEnvironment ): string {
	const site = siteCopyDir( env.name );
	const source = coreSourceDir( env );
	const wanted = wantedSiteSource( env );
	if ( env.freshSite ) {
		fs.rmSync( site, { recursive: true, force: true } );
	} else {
		const line = switchSite( env.name, wanted );
		if ( line ) {
			process.stdout.write( `  ${ line }\n` );
		}
	}
	if ( ! fs.existsSync( site ) ) {
		fs.cpSync( source, site, { recursive: true } );
	}
	fs.writeFileSync( siteSourceFile( env.name ), wanted );
	return site;
}

/** How far debug.log goes now: what a start logs comes after this. */
export function debugLogSize( env: WordPressEnvironment ): number {
	const file = debugLogFile( env );
	try {
		return file ? fs.statSync( file ).size : 0;
	} catch {
		return 0;
	}
}

/** Where this start's part of debug.log begins, per environment (set by startWordPress, read by waitForWordPress). */
const startMarks = new Map< string, number >();

/**
 * Starts WordPress; with the Playground runtime, core is a copy of the npm registry's (or of
 * WORDPRESS_DIR's) tree. While wp-env waits for the server (up to 120 s), a PHP fatal in the
 * site's debug.log with the site answering 500 ends the start at once, with the fatal as reason.
 */
export async function startWordPress( env: WordPressEnvironment ): Promise< void > {
	writeEnvironmentConfig( env );
	const extraEnv: NodeJS.ProcessEnv =
		env.runtime === 'playground' ? listenHostEnvironment( env.host ?? DEFAULT_WORDPRESS_HOST ) : {};
	if ( env.runtime === 'playground' && ! process.env.WP_ENV_CORE ) {
		extraEnv.WP_ENV_CORE = prepareSiteDir( env );
	}
	await stopRecordedWordPress( env );
	const mark = debugLogSize( env );
	startMarks.set( env.name, mark );

	const child = spawnWpEnv( env, [ 'start', `--runtime=${ env.runtime }` ], extraEnv );
	recordPid( wpEnvPidFile( env ), child.pid );
	const wpEnvServerPid = path.join( wpEnvWorkDir( env ), 'playground.pid' );
	const copyServerPid = () => {
		const pid = readPid( wpEnvServerPid );
		if ( pid && readPid( serverPidFile( env ) ) !== pid ) {
			recordPid( serverPidFile( env ), pid );
		}
	};
	let watching = true;
	const failure = ( async () => {
		while ( watching ) {
			await new Promise( ( r ) => setTimeout( r, 500 ) );
			copyServerPid();
			const fatal = watching ? fatalSince( env, mark ) : undefined;
			if ( fatal && ( await answersServerError( env ) ) && watching ) {
				throw new Error(
					`WordPress answers HTTP 500 with a PHP fatal error in ${ debugLogFile( env ) }:\n${ fatal }`
				);
			}
		}
	} )();
	failure.catch( () => undefined ); // Observed by the race below; never an unhandled rejection.
	try {
		await Promise.race( [ exitOf( child, 'wp-env start' ), failure ] );
	} catch ( error ) {
		watching = false;
		if ( child.exitCode === null && child.signalCode === null ) {
			await terminate( child.pid as number );
		}
		copyServerPid();
		const fatal = fatalSince( env, mark );
		const message = ( error as Error ).message;
		throw new Error(
			fatal && ! message.includes( fatal )
				? `${ message }\nPHP fatal error in ${ debugLogFile( env ) }:\n${ fatal }`
				: message
		);
	} finally {
		watching = false;
		forgetPid( wpEnvPidFile( env ), child.pid );
	}
	copyServerPid();
}

async function answersServerError( env: WordPressEnvironment ): Promise< boolean > {
	try {
		const response = await fetch( `${ siteUrl( env ) }/wp-json/`, {
			redirect: 'manual',
			signal: AbortSignal.timeout( 20_000 ),
		} );
		await response.arrayBuffer();
		return response.status >= 500;
	} catch {
		return false;
	}
}

/** Stops WordPress; `quiet` keeps wp-env's spinner out of output that must end with a test summary. */
export async function stopWordPress( env: WordPressEnvironment, quiet = false ): Promise< void > {
	if ( ! fs.existsSync( configPath( env ) ) ) {
		return;
	}
	await runWpEnv( env, [ 'stop' ], {}, quiet );
	await stopRecordedWordPress( env );
}

/** Lines of debug.log since `mark`. */
function debugLogSince( env: WordPressEnvironment, mark: number ): string {
	const file = debugLogFile( env );
	return file ? readFileFrom( file, mark ) : '';
}

/** The last PHP fatal error logged since `mark`, with the first lines of its stack trace. */
export function fatalSince( env: WordPressEnvironment, mark: number ): string | undefined {
	const lines = debugLogSince( env, mark ).split( '\n' );
	const at = lines.map( ( line ) => /PHP (Fatal|Parse) error/.test( line ) ).lastIndexOf( true );
	if ( at < 0 ) {
		return undefined;
	}
	const trace = lines.slice( at + 1 ).filter( ( line ) => /^(Stack trace:|#\d+ |\s+thrown in )/.test( line ) );
	return [ lines[ at ], ...trace.slice( 0, 6 ) ].join( '\n' ).trim();
}

/** Lines the local-environment must-use plugin logs when it cannot set the site up (a plugin that will not activate, HPOS). */
function setupProblemsSince( env: WordPressEnvironment, mark: number ): string[] {
	return [
		...new Set(
			debugLogSince( env, mark )
				.split( '\n' )
				.filter( ( line ) => line.includes( 'service-integration local environment: cannot' ) )
				.map( ( line ) => line.replace( /^\[[^\]]*\]\s*/, '' ).replace( /<[^>]+>/g, '' ) )
		),
	];
}

/**
 * Playground's auto-login answers 302 to a browser request without this cookie (API
 * requests are exempted by the local-environment must-use plugin); wp-login.php needs it.
 */
export const PLAYGROUND_COOKIE = 'playground_auto_login_already_happened=1';

/**
 * What the local-environment must-use plugin reports about the running site
 * (GET /service-integration-local/v1/environment).
 */
export interface SiteReport {
	wordpress_version: string;
	commerce: {
		plugin: 'woocommerce' | null;
		version: string | null;
		order_storage: OrderStorage | null;
	};
}

export async function readSiteReport( url: string ): Promise< SiteReport > {
	const response = await fetch( `${ url }/wp-json/service-integration-local/v1/environment`, { redirect: 'manual' } );
	if ( response.status !== 200 ) {
		throw new Error( `HTTP ${ response.status } from ${ url }/wp-json/service-integration-local/v1/environment` );
	}
	return ( await response.json() ) as SiteReport;
}

/** Why a site is not ready yet, and the HTTP status it answered (0: none). */
interface NotReady {
	waiting: string;
	status: number;
}

/**
 * One look at /wp-json/: null once it answers with each of these namespaces, else why not.
 */
export async function restIndexReadiness( url: string, namespaces: string[] ): Promise< NotReady | null > {
	let status = 0;
	try {
		const response = await fetch( `${ url }/wp-json/`, { redirect: 'manual' } );
		status = response.status;
		const text = await response.text();
		const missing = namespaces.filter( ( ns ) => ! text.includes( `"${ ns.replace( /\//g, '\\/' ) }"` ) );
		if ( status === 200 && missing.length === 0 ) {
			return null;
		}
		return {
			waiting: status === 200 ? `the REST index lacks ${ missing.join( ' and ' ) }` : `HTTP ${ status }`,
			status,
		};
	} catch ( error ) {
		return { waiting: ( error as Error ).message, status };
	}
}

/**
 * One look at whether a site set up here is ready: the plugin's namespace (and WooCommerce's, on
 * a shop) in its REST index and, with WooCommerce, the order storage asked for, as the local
 * environment's report says. Both runtimes' waits ask this; each adds its own early failures.
 */
export async function siteReadiness(
	url: string,
	shop: { woocommerce: boolean; orderStorage: OrderStorage }
): Promise< { report: SiteReport } | NotReady > {
	const index = await restIndexReadiness( url, [
		'service-integration/v1',
		...( shop.woocommerce ? [ 'wc/v3' ] : [] ),
	] );
	if ( index ) {
		return index;
	}
	try {
		const report = await readSiteReport( url );
		if ( report.commerce.plugin === 'woocommerce' && report.commerce.order_storage !== shop.orderStorage ) {
			return {
				waiting: `WooCommerce's order storage is ${ report.commerce.order_storage }, not ${ shop.orderStorage } yet`,
				status: 200,
			};
		}
		return { report };
	} catch ( error ) {
		return { waiting: ( error as Error ).message, status: 0 };
	}
}

/**
 * Polls until WordPress answers /wp-json/ with the plugin's namespace and, on a site with a
 * shop, WooCommerce's, running the order storage asked for. Fails early, with the
 * reason, when a PHP fatal error is logged while the site answers 500, or when the local
 * environment logs that it cannot activate a plugin; on a timeout the message includes the
 * last fatal error logged, if any.
 */
export async function waitForWordPress( env: WordPressEnvironment, timeoutMs = 180_000 ): Promise< SiteReport > {
	const url = siteUrl( env );
	const mark = startMarks.get( env.name ) ?? debugLogSize( env );
	const deadline = Date.now() + timeoutMs;
	let lastError = 'no answer yet';
	while ( Date.now() < deadline ) {
		const readiness = await siteReadiness( url, {
			woocommerce: Boolean( env.woocommerceDir ),
			orderStorage: env.orderStorage ?? 'hpos',
		} );
		if ( 'report' in readiness ) {
			return readiness.report;
		}
		lastError = readiness.waiting;
		const status = readiness.status;
		const fatal = fatalSince( env, mark );
		if ( fatal && status >= 500 ) {
			throw new Error(
				`WordPress at ${ url } answers HTTP ${ status } with a PHP fatal error in ${ debugLogFile( env ) }:\n${ fatal }`
			);
		}
		const problems = setupProblemsSince( env, mark );
		if ( problems.length > 0 ) {
			const hpos = problems.some( ( line ) => line.includes( 'cannot switch WooCommerce to HPOS' ) )
				? '\nThe shop keeps its orders in posts: keep that storage with WOOCOMMERCE_HPOS=off, or start a new site on HPOS with npm start -- --fresh.'
				: '';
			throw new Error(
				`WordPress at ${ url } cannot be set up (${ lastError }):\n${ problems.join( '\n' ) }${ hpos }`
			);
		}
		await new Promise( ( r ) => setTimeout( r, 1000 ) );
	}
	const fatal = fatalSince( env, mark );
	const log = debugLogFile( env );
	throw new Error(
		`WordPress at ${ url } did not become ready within ${ timeoutMs / 1000 } s (${ lastError })` +
			( fatal
				? `\nLast PHP fatal error in ${ log }:\n${ fatal }`
				: log
					? ` and logged no PHP fatal error in ${ log }`
					: '' )
	);
}

/** The same wait for any WordPress URL; `gone` (when given) fails it early, e.g. once the server process has exited. */
export async function waitForSite(
	url: string,
	timeoutMs = 180_000,
	gone?: () => string | undefined
): Promise< void > {
	const deadline = Date.now() + timeoutMs;
	let lastError = 'no answer yet';
	while ( Date.now() < deadline ) {
		const reason = gone?.();
		if ( reason ) {
			throw new Error( `WordPress at ${ url } will not answer: ${ reason }` );
		}
		const notReady = await restIndexReadiness( url, [ 'service-integration/v1' ] );
		if ( ! notReady ) {
			return;
		}
		lastError = notReady.waiting;
		await new Promise( ( r ) => setTimeout( r, 1000 ) );
	}
	throw new Error( `WordPress at ${ url } did not become ready within ${ timeoutMs / 1000 } s (${ lastError })` );
}

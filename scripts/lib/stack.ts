import type { ChildProcess } from 'child_process';
import fs from 'fs';
import path from 'path';
import { commandFor } from './dev-environment';
import { switchSite } from './kept-sites';
import { orderStorageConflict, readStoredOrders, siteDatabaseFile } from './order-storage-guard';
import { environmentDir, ROOT, sidecarDataDir, siteCopyDir } from './paths';
import { forgetPid, recordPid, stopRecordedProcess, type ProcessIdentity } from './processes';
import { ensureSharedKey } from './shared-key';
import {
	sidecarEnvironment,
	sidecarSettings,
	spawnSidecar,
	stopChild,
	waitForSidecar,
	type SidecarOptions,
} from './sidecar-process';
import {
	siteDir,
	siteUrl,
	startWordPress,
	stopRecordedWordPress,
	stopWordPress,
	waitForWordPress,
	wantedSiteSource,
	type OrderStorage,
	type Runtime,
	type SiteReport,
	type WordPressEnvironment,
} from './wp-env';
import { done, step, timed } from './progress';

/** One running product: WordPress (wp-env) plus its sidecar, as npm start and the e2e suite use it. */
export interface StackOptions {
	name: string;
	runtime: Runtime;
	wpPort: number;
	sidecarPort: number;
	woocommerceDir?: string;
	/** A WordPress core tree to copy and run (WORDPRESS_DIR); default: the npm registry's. */
	wordpressDir?: string;
	/** WooCommerce's order storage (WOOCOMMERCE_HPOS); default HPOS. */
	orderStorage?: OrderStorage;
	extraPlugins?: Record< string, string >;
	/** A folder of must-use plugins of one's own, loaded besides the local environment's (wp-env.ts). */
	localMuPluginsDir?: string;
	freshSite?: boolean;
	/** WP-Cron only from requests of wp-cron.php (wp-env.ts). */
	systemCron?: boolean;
	sidecarLogFile?: string;
	sidecarEnv?: NodeJS.ProcessEnv;
	/** The address WordPress listens on (Playground runtime); 127.0.0.1 by default (wp-env.ts). */
	wpHost?: string;
	/** How one starts this stack's sidecar again, for the plugin to tell the site owner (wp-env.ts). */
	sidecarStartCommand?: string;
}

export interface Stack {
	env: WordPressEnvironment;
	siteUrl: string;
	sidecarUrl: string;
	sharedKey: string;
	sharedKeyFile: string;
	sidecarDataDir: string;
	sidecar: ChildProcess;
	/** What the running site says it runs: WordPress version, commerce plugin and order storage. */
	site: SiteReport;
}

export function describeStack( options: StackOptions ): Omit< Stack, 'sidecar' | 'site' > {
	const dir = environmentDir( options.name );
	const sharedKeyFile = path.join( dir, 'shared-key' );
	const sharedKey = ensureSharedKey( sharedKeyFile );
	const sidecarUrl = `http://127.0.0.1:${ options.sidecarPort }`;
	const env: WordPressEnvironment = {
		name: options.name,
		runtime: options.runtime,
		port: options.wpPort,
		sidecarUrl,
		sharedKey,
		woocommerceDir: options.woocommerceDir,
		wordpressDir: options.wordpressDir,
		orderStorage: options.orderStorage,
		extraPlugins: options.extraPlugins,
		localMuPluginsDir: options.localMuPluginsDir,
		freshSite: options.freshSite,
		systemCron: options.systemCron,
		host: options.wpHost,
		sidecarStartCommand: options.sidecarStartCommand,
	};
	return {
		env,
		siteUrl: siteUrl( env ),
		sidecarUrl,
		sharedKey,
		sharedKeyFile,
		sidecarDataDir: sidecarDataDir( options.name ),
	};
}

/**
 * Starts the sidecar, then WordPress. If WordPress cannot come up, everything this start
 * launched (the sidecar, wp-env, the Playground server) is stopped before the error, which
 * says why (with the PHP fatal error from the site's debug.log when there is one), goes up.
 */
export async function startStack( options: StackOptions ): Promise< Stack > {
	const described = describeStack( options );
	checkKeptSite( options, described.env );
	const sidecar = await startStackSidecar( options, described );
	try {
		step(
			`Starting WordPress (${ options.runtime } runtime) on ${ described.siteUrl }; the first start unpacks WordPress core`
		);
		await timed( 'wp-env started', () => startWordPress( described.env ) );
		const site = await timed( 'WordPress answers /wp-json/ with the plugin active', () =>
			waitForWordPress( described.env )
		);
		return { ...described, sidecar, site };
	} catch ( error ) {
		step( 'WordPress did not start: stopping what this start launched' );
		await stopChild( sidecar );
		await stopWordPress( described.env, true ).catch( () => undefined );
		await stopRecordedWordPress( described.env );
		done( 'stopped the sidecar and WordPress' );
		throw error;
	}
}

/**
 * Before anything starts, on a Playground site that is kept across starts: a site of another
 * WordPress core is kept aside with its sidecar's data (kept-sites.ts), said in one line; a
 * switch of order storage that would hide the site's orders, or that WooCommerce refuses, ends
 * the start with what to do instead.
 */
function checkKeptSite( options: StackOptions, env: WordPressEnvironment ): void {
	if ( options.runtime !== 'playground' || options.freshSite || process.env.WP_ENV_CORE ) {
		return;
	}
	const line = switchSite( options.name, wantedSiteSource( env ) );
	if ( line ) {
		done( line );
	}
	if ( options.woocommerceDir ) {
		const conflict = orderStorageConflict(
			readStoredOrders( siteDatabaseFile( siteCopyDir( options.name ) ) ),
			options.orderStorage ?? 'hpos',
			{
				start: commandFor( options.name, 'npm start' ),
				fresh: commandFor( options.name, 'npm start -- --fresh' ),
			}
		);
		if ( conflict ) {
			throw new Error( conflict );
		}
	}
}

/** The pid file of an environment's sidecar, written as soon as it is spawned. */
export function sidecarPidFile( name: string ): string {
	return path.join( environmentDir( name ), 'sidecar.pid' );
}

/**
 * How an environment's sidecar was last launched, for `npm run sidecar -- start` to launch it
 * again the same way: its options, and every SIDECAR_* setting it got (from the options and
 * from the environment of the process that launched it, e.g. a SIDECAR_LOG_LEVEL exported in
 * the shell that ran `npm start`).
 */
export interface SidecarLaunch {
	url: string;
	options: SidecarOptions;
}

export function sidecarLaunchFile( name: string ): string {
	return path.join( environmentDir( name ), 'sidecar-launch.json' );
}

/** The launch record of an environment's sidecar, or undefined when none was written. */
export function readSidecarLaunch( name: string ): SidecarLaunch | undefined {
	try {
		return JSON.parse( fs.readFileSync( sidecarLaunchFile( name ), 'utf8' ) ) as SidecarLaunch;
	} catch {
		return undefined;
	}
}

/** Our sidecar: its entry point is under this checkout's sidecar/, its data in this environment's folder. */
export function sidecarIdentity( dataDir: string ): ProcessIdentity {
	return {
		label: 'the sidecar',
		cmdline: [ path.join( ROOT, 'sidecar' ) + path.sep ],
		environ: [ `SIDECAR_DATA_DIR=${ dataDir }` ],
	};
}

/** Starts the sidecar of a described stack (told the site's URL) and waits until it answers; stops it if it does not. */
export async function startStackSidecar(
	options: StackOptions,
	described: Omit< Stack, 'sidecar' | 'site' >
): Promise< ChildProcess > {
	step( `Starting the sidecar on ${ described.sidecarUrl }` );
	await stopRecordedProcess( sidecarPidFile( options.name ), sidecarIdentity( described.sidecarDataDir ) );
	const sidecarOptions: SidecarOptions = {
		port: options.sidecarPort,
		dataDir: described.sidecarDataDir,
		sharedKeyFile: described.sharedKeyFile,
		logFile: options.sidecarLogFile,
		extraEnv: { SIDECAR_WORDPRESS_URL: described.siteUrl, ...options.sidecarEnv },
	};
	const sidecar = spawnSidecar( sidecarOptions );
	recordPid( sidecarPidFile( options.name ), sidecar.pid );
	sidecar.once( 'exit', () => forgetPid( sidecarPidFile( options.name ), sidecar.pid ) );
	const launch: SidecarLaunch = {
		url: described.sidecarUrl,
		options: { ...sidecarOptions, extraEnv: sidecarSettings( sidecarEnvironment( sidecarOptions ) ) },
	};
	// 0600: the settings may hold secrets (SIDECAR_SHARED_KEY, SIDECAR_DATABASE_URL's password).
	fs.writeFileSync( sidecarLaunchFile( options.name ), JSON.stringify( launch, null, '\t' ) + '\n', { mode: 0o600 } );
	try {
		await timed( 'sidecar answers /health', () => waitForSidecar( described.sidecarUrl, sidecar ) );
	} catch ( error ) {
		await stopChild( sidecar );
		const why = options.sidecarLogFile ? lastFatal( options.sidecarLogFile ) : undefined;
		throw new Error(
			`${ ( error as Error ).message }${ why ? `: ${ why }` : '' }${ options.sidecarLogFile ? ` (log: ${ options.sidecarLogFile })` : '' }`
		);
	}
	return sidecar;
}

/** The message of the last fatal line of a sidecar's log (pino's JSON lines), e.g. why it could not listen. */
export function lastFatal( logFile: string ): string | undefined {
	let lines: string[];
	try {
		lines = fs.readFileSync( logFile, 'utf8' ).trim().split( '\n' ).slice( -50 ).reverse();
	} catch {
		return undefined;
	}
	for ( const line of lines ) {
		try {
			const entry = JSON.parse( line ) as { level?: number; msg?: string };
			if ( ( entry.level ?? 0 ) >= 60 && entry.msg ) {
				return entry.msg;
			}
		} catch {
			// Not a log entry (a stack trace printed by node).
		}
	}
	return undefined;
}

/**
 * Stops whatever an environment's earlier start left running (by the pids it recorded, each
 * checked to still be ours): for `npm stop` when no running.json was written, and after a
 * start that died half-way. Returns one line per process stopped.
 */
export async function stopLeftovers( name: string ): Promise< string[] > {
	// Only paths are needed (no shared key is created for an environment that never started).
	const env: WordPressEnvironment = { name, runtime: 'playground', port: 0, sidecarUrl: '', sharedKey: '' };
	const stopped: string[] = [];
	const sidecar = await stopRecordedProcess( sidecarPidFile( name ), sidecarIdentity( sidecarDataDir( name ) ) );
	if ( sidecar ) {
		stopped.push( sidecar );
	}
	stopped.push( ...( await stopRecordedWordPress( env ) ) );
	return stopped;
}

/** The WordPress the site runs, as it reports itself, and where its files are. */
export function describeWordPress( stack: Stack ): string {
	const from = process.env.WP_ENV_CORE
		? `WP_ENV_CORE=${ process.env.WP_ENV_CORE }`
		: stack.env.wordpressDir
			? `copy of ${ stack.env.wordpressDir }`
			: 'from @wp-playground/wordpress-builds';
	const dir = siteDir( stack.env );
	return `WordPress ${ stack.site.wordpress_version } (${ from })${ dir ? ` in ${ dir }` : '' }`;
}

/** The shop the site runs, as it reports itself, with its order storage. */
export function describeCommerce( stack: Stack ): string {
	const { plugin, version, order_storage: storage } = stack.site.commerce;
	if ( plugin === 'woocommerce' ) {
		return `WooCommerce ${ version } from ${ stack.env.woocommerceDir }, orders in ${ storage === 'hpos' ? 'HPOS tables' : 'posts (legacy storage)' }`;
	}
	return 'no shop (WooCommerce is not installed; the paid-orders routes answer 503 commerce_unavailable)';
}

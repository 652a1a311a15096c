import path from 'path';
import type { ChildProcess } from 'child_process';
import { environmentDir, ROOT } from './paths';
import { forgetPid, recordPid, stopRecordedProcess, type ProcessIdentity } from './processes';
import { ensureSharedKey } from './shared-key';
import { spawnSidecar, stopChild, waitForSidecar } from './sidecar-process';
import {
	siteDir,
	siteUrl,
	startWordPress,
	stopRecordedWordPress,
	stopWordPress,
	waitForWordPress,
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
	freshSite?: boolean;
	sidecarLogFile?: string;
	sidecarEnv?: NodeJS.ProcessEnv;
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
		freshSite: options.freshSite,
	};
	return {
		env,
		siteUrl: siteUrl( env ),
		sidecarUrl,
		sharedKey,
		sharedKeyFile,
		sidecarDataDir: path.join( dir, 'sidecar-data' ),
	};
}

/**
 * Starts the sidecar, then WordPress. If WordPress cannot come up, everything this start
 * launched (the sidecar, wp-env, the Playground server) is stopped before the error, which
 * says why (with the PHP fatal error from the site's debug.log when there is one), goes up.
 */
export async function startStack( options: StackOptions ): Promise< Stack > {
	const described = describeStack( options );
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

/** The pid file of an environment's sidecar, written as soon as it is spawned. */
export function sidecarPidFile( name: string ): string {
	return path.join( environmentDir( name ), 'sidecar.pid' );
}

/** Our sidecar: its entry point is under this checkout's sidecar/, its data in this environment's folder. */
function sidecarIdentity( dataDir: string ): ProcessIdentity {
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
	const sidecar = spawnSidecar( {
		port: options.sidecarPort,
		dataDir: described.sidecarDataDir,
		sharedKeyFile: described.sharedKeyFile,
		logFile: options.sidecarLogFile,
		extraEnv: { SIDECAR_WORDPRESS_URL: described.siteUrl, ...options.sidecarEnv },
	} );
	recordPid( sidecarPidFile( options.name ), sidecar.pid );
	sidecar.once( 'exit', () => forgetPid( sidecarPidFile( options.name ), sidecar.pid ) );
	try {
		await timed( 'sidecar answers /health', () => waitForSidecar( described.sidecarUrl, sidecar ) );
	} catch ( error ) {
		await stopChild( sidecar );
		throw error;
	}
	return sidecar;
}

/**
 * Stops whatever an environment's earlier start left running (by the pids it recorded, each
 * checked to still be ours): for `npm stop` when no running.json was written, and after a
 * start that died half-way. Returns one line per process stopped.
 */
export async function stopLeftovers( name: string ): Promise< string[] > {
	// Only paths are needed (no shared key is created for an environment that never started).
	const env: WordPressEnvironment = { name, runtime: 'playground', port: 0, sidecarUrl: '', sharedKey: '' };
	const sidecarDataDir = path.join( environmentDir( name ), 'sidecar-data' );
	const stopped: string[] = [];
	const sidecar = await stopRecordedProcess( sidecarPidFile( name ), sidecarIdentity( sidecarDataDir ) );
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

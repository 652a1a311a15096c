import fs from 'fs';
import path from 'path';
import { environmentDir } from '../../../scripts/lib/paths';

/**
 * The e2e suite runs its own stack (own ports, own fresh database) so it never
 * touches a developer's `npm start` environment. E2E_ENV_NAME / E2E_WP_PORT /
 * E2E_SIDECAR_PORT let two runs share a machine.
 */
export const E2E_ENV_NAME = process.env.E2E_ENV_NAME ?? 'e2e';
export const E2E_WP_PORT = Number( process.env.E2E_WP_PORT ?? 8889 );
export const E2E_SIDECAR_PORT = Number( process.env.E2E_SIDECAR_PORT ?? 8788 );

/**
 * Where the suite's WordPress runs:
 *   playground  (default) PHP as WebAssembly with SQLite, through wp-env: needs only Node
 *   production  nginx + PHP-FPM + MariaDB from Debian's packages, the plugin installed from the
 *               release zip and the sidecar from the release tarball (scripts/production)
 */
export type E2ERuntime = 'playground' | 'production';
export const E2E_RUNTIME: E2ERuntime = runtimeFromEnv( process.env.E2E_RUNTIME );

function runtimeFromEnv( value: string | undefined ): E2ERuntime {
	if ( value === undefined || value === '' || value === 'playground' ) {
		return 'playground';
	}
	if ( value === 'production' ) {
		return 'production';
	}
	throw new Error( `E2E_RUNTIME must be playground (default) or production, got "${ value }"` );
}

/** The production runtime's PHP-FPM and MariaDB ports (loopback), next to WordPress's by default. */
export const E2E_PHP_FPM_PORT = Number( process.env.E2E_PHP_FPM_PORT ?? E2E_WP_PORT + 2 );
export const E2E_DB_PORT = Number( process.env.E2E_DB_PORT ?? E2E_WP_PORT + 3 );
/**
 * The production runtime's cron loop calls wp-cron.php this often: every minute, as the crontab
 * line of docs/production.md. Tests that wait for cron call wp-cron.php themselves. A faster
 * loop would only add concurrent writers of the cron option (a serialized value, last writer
 * wins) and with them lost cron events (see WP_CRON_ALONE_MS in cron.ts).
 */
export const E2E_CRON_SECONDS = Number( process.env.E2E_CRON_SECONDS ?? 60 );
/** Release artifacts to install on the production runtime (default: npm run release builds them into dist/). */
export const E2E_RELEASE_DIR = process.env.E2E_RELEASE_DIR || undefined;
/**
 * The suite's sidecar delivers to receivers on 127.0.0.1 (allow-listed: the URL guard
 * blocks loopback by default) and retries within seconds instead of minutes.
 */
export const E2E_SIDECAR_ENV: NodeJS.ProcessEnv = {
	SIDECAR_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
	SIDECAR_RETRY_SCHEDULE: '0,1,2,3',
	SIDECAR_DELIVERY_TIMEOUT_MS: '3000',
	SIDECAR_LOG_LEVEL: 'debug',
};
/**
 * The production runtime's sidecars: one on SQLite (default), or E2E_SIDECAR_STORE=mariadb for
 * the shared store on the runtime's MariaDB, where E2E_SIDECAR_INSTANCES=2 runs a second instance
 * beside the one WordPress talks to (both deliver; tests that stop the sidecar stop both).
 */
export const E2E_SIDECAR_STORE = sidecarStoreFromEnv( process.env.E2E_SIDECAR_STORE );
export const E2E_SIDECAR_INSTANCES = sidecarInstancesFromEnv( process.env.E2E_SIDECAR_INSTANCES );

function sidecarStoreFromEnv( value: string | undefined ): 'sqlite' | 'mariadb' {
	if ( value === undefined || value === '' || value === 'sqlite' ) {
		return 'sqlite';
	}
	if ( value === 'mariadb' ) {
		return 'mariadb';
	}
	throw new Error( `E2E_SIDECAR_STORE must be sqlite (default) or mariadb, got "${ value }"` );
}

function sidecarInstancesFromEnv( value: string | undefined ): 1 | 2 {
	if ( value === undefined || value === '' || value === '1' ) {
		return 1;
	}
	if ( value === '2' && E2E_SIDECAR_STORE === 'mariadb' ) {
		return 2;
	}
	throw new Error(
		`E2E_SIDECAR_INSTANCES must be 1 (default), or 2 with E2E_SIDECAR_STORE=mariadb, got "${ value }"`
	);
}

const STATE_FILE = path.join( environmentDir( E2E_ENV_NAME ), 'e2e-state.json' );

/** What global setup hands to the test files (they run in other module registries). */
export interface E2EState {
	/** Which runtime global setup started (teardown stops that one). */
	runtime: E2ERuntime;
	siteUrl: string;
	sidecarUrl: string;
	sharedKey: string;
	sharedKeyFile: string;
	sidecarDataDir: string;
	sidecarLogFile: string;
	sidecarPid: number;
	admin: { username: string; applicationPassword: string };
	/** The shop: real WooCommerce (scripts/lib/site-choice.ts), or none (WOOCOMMERCE_VERSION=none). */
	commerce: 'woocommerce' | 'none';
	/** WooCommerce's version as the site reports it; null without a shop. */
	commerceVersion: string | null;
	/** Where WooCommerce stores orders: HPOS tables, or posts (WOOCOMMERCE_HPOS=off); null without a shop. */
	orderStorage: 'hpos' | 'legacy' | null;
	/** The WordPress version the site runs ($wp_version). */
	wordpressVersion: string;
	/** The folder the site's WordPress lives in on this machine (its wp-content holds debug.log). */
	wordpressDir: string;
	/**
	 * How to start the sidecar again after a test stopped it, when it is not this checkout's
	 * (the production runtime runs the one installed from the release tarball).
	 */
	sidecarCommand?: { command: string; args: string[]; env: Record< string, string > };
	/** Production runtime on the shared store: the second sidecar's pid (a test that stopped it started it again). */
	sidecarPeerPid?: number;
	/** Production runtime: versions of what serves the site, for reports. */
	server?: string;
}

export function writeState( state: E2EState ): void {
	fs.writeFileSync( STATE_FILE, JSON.stringify( state, null, 2 ), { mode: 0o600 } );
}

export function readState(): E2EState {
	return JSON.parse( fs.readFileSync( STATE_FILE, 'utf8' ) ) as E2EState;
}

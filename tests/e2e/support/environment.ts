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
 * The suite's sidecar delivers to receivers on 127.0.0.1 (allow-listed: the URL guard
 * blocks loopback by default) and retries within seconds instead of minutes.
 */
export const E2E_SIDECAR_ENV: NodeJS.ProcessEnv = {
	SIDECAR_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
	SIDECAR_RETRY_SCHEDULE: '0,1,2,3',
	SIDECAR_DELIVERY_TIMEOUT_MS: '3000',
	SIDECAR_LOG_LEVEL: 'debug',
};
const STATE_FILE = path.join( environmentDir( E2E_ENV_NAME ), 'e2e-state.json' );

/** What global setup hands to the test files (they run in other module registries). */
export interface E2EState {
	siteUrl: string;
	sidecarUrl: string;
	sharedKey: string;
	sharedKeyFile: string;
	sidecarDataDir: string;
	sidecarLogFile: string;
	sidecarPid: number;
	admin: { username: string; applicationPassword: string };
	commerce: 'fixture' | 'woocommerce';
	/** The commerce plugin's version as the site reports it (the fixture's own version for the fixture). */
	commerceVersion: string | null;
	/** Where orders are stored: WooCommerce's HPOS tables, posts (WOOCOMMERCE_HPOS=off), or the fixture's own tables. */
	orderStorage: 'hpos' | 'legacy' | 'fixture';
	/** The WordPress version the site runs ($wp_version). */
	wordpressVersion: string;
	/** The folder the site's WordPress lives in on this machine (its wp-content holds debug.log). */
	wordpressDir: string;
}

export function writeState( state: E2EState ): void {
	fs.writeFileSync( STATE_FILE, JSON.stringify( state, null, 2 ), { mode: 0o600 } );
}

export function readState(): E2EState {
	return JSON.parse( fs.readFileSync( STATE_FILE, 'utf8' ) ) as E2EState;
}

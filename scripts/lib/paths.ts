import path from 'path';

/** Absolute paths every script agrees on. Runtime state lives under .cache/ (git-ignored). */
export const ROOT = path.resolve( __dirname, '..', '..' );
export const CACHE_DIR = path.join( ROOT, '.cache' );
export const PLUGIN_DIR = path.join( ROOT, 'plugin' );
export const WP_ENV_BIN = path.join( ROOT, 'node_modules', '@wordpress', 'env', 'bin', 'wp-env' );
/** Must-use plugins of one's own for npm start's site (git-ignored but for its README). */
export const LOCAL_MU_PLUGINS_DIR = path.join( ROOT, 'local-mu-plugins' );

/** The environment `npm start`, `npm stop` and `npm run sidecar` mean unless --env names another. */
export const DEFAULT_ENV = 'dev';

/** Where one named environment (dev, e2e) keeps its generated config, wp-env home and sidecar data. */
export function environmentDir( name: string ): string {
	return path.join( CACHE_DIR, 'environments', name );
}

/** The environment's copy of WordPress core (Playground runtime), where its SQLite database lives. */
export function siteCopyDir( name: string ): string {
	return path.join( environmentDir( name ), 'wordpress' );
}

/** The environment's sidecar's SIDECAR_DATA_DIR (its SQLite database: endpoints, inbound sources, deliveries). */
export function sidecarDataDir( name: string ): string {
	return path.join( environmentDir( name ), 'sidecar-data' );
}

/** The administrator application password `npm start` minted for the environment's site. */
export function adminPasswordFile( name: string ): string {
	return path.join( environmentDir( name ), 'admin-application-password' );
}

/** Written by `npm start` once its environment runs: its pid and runtime, for `npm stop` and `npm run sidecar`. */
export function runFile( name: string ): string {
	return path.join( environmentDir( name ), 'running.json' );
}

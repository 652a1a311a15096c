import path from 'path';

/** Absolute paths every script agrees on. Runtime state lives under .cache/ (git-ignored). */
export const ROOT = path.resolve( __dirname, '..', '..' );
export const CACHE_DIR = path.join( ROOT, '.cache' );
export const PLUGIN_DIR = path.join( ROOT, 'plugin' );
export const WP_ENV_BIN = path.join( ROOT, 'node_modules', '@wordpress', 'env', 'bin', 'wp-env' );

/** Where one named environment (dev, e2e) keeps its generated config, wp-env home and sidecar data. */
export function environmentDir( name: string ): string {
	return path.join( CACHE_DIR, 'environments', name );
}

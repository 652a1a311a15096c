import fs from 'fs';
import path from 'path';

/** Names of the package.json files that carry the release's version (see readVersion). */
export const VERSION_SOURCES = [ 'wp-service-integration', 'service-integration-sidecar' ];

/**
 * The release has one version, the repository's package.json "version" (`npm version`
 * updates it, and its "version" script the plugin's header and readme). In the source tree
 * (sidecar/src or sidecar/dist) that is two folders up; in the installed npm package, the
 * package's own package.json, one folder up from dist/, which `npm run release` generates
 * with the same version.
 */
export function readVersion( from: string = __dirname ): string {
	let dir = from;
	for ( let level = 0; level < 3; level++ ) {
		const file = path.join( dir, 'package.json' );
		if ( fs.existsSync( file ) ) {
			const pkg = JSON.parse( fs.readFileSync( file, 'utf8' ) ) as { name?: string; version?: string };
			if ( pkg.name && VERSION_SOURCES.includes( pkg.name ) && pkg.version ) {
				return pkg.version;
			}
		}
		dir = path.dirname( dir );
	}
	throw new Error( `No package.json of ${ VERSION_SOURCES.join( ' or ' ) } above ${ from }` );
}

/** Reported by --version, /health and /v1/status. */
export const SIDECAR_VERSION = readVersion();

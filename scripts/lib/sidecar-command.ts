import fs from 'fs';
import path from 'path';
import { ROOT } from './paths';

const SOURCE_DIR = path.join( ROOT, 'sidecar', 'src' );
export const SIDECAR_SOURCE_MAIN = path.join( SOURCE_DIR, 'main.ts' );
export const SIDECAR_BUILD_MAIN = path.join( ROOT, 'sidecar', 'dist', 'main.js' );

/**
 * V8 heap cap for the sidecar: with V8's own sizing garbage grows the heap under a burst (peak RSS
 * 163 MB for 20,000 events, against 90 MB with both flags here; bench/README.md, "The sidecar's
 * memory flags").
 */
export const SIDECAR_MAX_OLD_SPACE_MB = 96;
/**
 * V8's young generation (semi-spaces), 16 MB each by default and grown to that under load:
 * at 1 MB the peak RSS under a burst drops by ~30 MB, to about 90 MB (bench/README.md).
 */
export const SIDECAR_MAX_SEMI_SPACE_MB = 1;
/** Every V8 heap flag the sidecar runs with: node's command line, NODE_OPTIONS of the unit. */
export const SIDECAR_HEAP_FLAGS = [
	`--max-old-space-size=${ SIDECAR_MAX_OLD_SPACE_MB }`,
	`--max-semi-space-size=${ SIDECAR_MAX_SEMI_SPACE_MB }`,
];

function newestSourceTime( dir: string ): number {
	let newest = 0;
	for ( const entry of fs.readdirSync( dir, { withFileTypes: true } ) ) {
		const file = path.join( dir, entry.name );
		newest = Math.max( newest, entry.isDirectory() ? newestSourceTime( file ) : fs.statSync( file ).mtimeMs );
	}
	return newest;
}

/** Whether sidecar/dist (npm run build:sidecar) exists and is newer than every source file. */
export function isSidecarBuildFresh(): boolean {
	try {
		return fs.statSync( SIDECAR_BUILD_MAIN ).mtimeMs >= newestSourceTime( SOURCE_DIR );
	} catch {
		return false;
	}
}

/**
 * Node arguments that run the sidecar: the compiled JS when the build is fresh (what
 * `npm start` and `npm test` build first: no TypeScript compiler in the process, ~85 MB less
 * RSS), else the sources through ts-node, so a run never uses stale code.
 */
export function sidecarNodeArgs(): string[] {
	return isSidecarBuildFresh()
		? [ ...SIDECAR_HEAP_FLAGS, '--enable-source-maps', SIDECAR_BUILD_MAIN ]
		: [ ...SIDECAR_HEAP_FLAGS, '-r', 'ts-node/register/transpile-only', SIDECAR_SOURCE_MAIN ];
}

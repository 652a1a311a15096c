/**
 * `npm start` builds only what changed: a build is stale when something it is built from
 * (a file or a folder, whose time changes when an entry is added, removed or renamed) is
 * newer than its output. The output's time is set after each build (to when it began),
 * since webpack leaves a file alone when its content did not change.
 */
import { spawnSync } from 'child_process';
import fs from 'fs';
import path from 'path';

export interface BuildTarget {
	/** What a person calls it, e.g. "admin page". */
	name: string;
	/** The package.json script that builds it. */
	script: string;
	/** Files and folders (walked) it is built from, relative to the root. */
	sources: string[];
	/** A file every build writes, relative to the root. */
	output: string;
}

export const BUILD_TARGETS: readonly BuildTarget[] = [
	{
		name: 'admin page',
		script: 'build:admin',
		sources: [ 'plugin/admin/src', 'package.json', 'package-lock.json' ],
		output: 'plugin/build/index.asset.php',
	},
	{
		name: 'sidecar',
		script: 'build:sidecar',
		sources: [ 'sidecar/src', 'sidecar/tsconfig.build.json', 'tsconfig.json', 'package.json', 'package-lock.json' ],
		output: 'sidecar/dist/main.js',
	},
];

/** The newest modification time (ms) among these files and folders and everything under the folders; 0 when none exists. */
export function newestMtimeMs( paths: string[] ): number {
	let newest = 0;
	const visit = ( entry: string ): void => {
		let stat: fs.Stats;
		try {
			stat = fs.statSync( entry );
		} catch {
			return;
		}
		newest = Math.max( newest, stat.mtimeMs );
		if ( stat.isDirectory() ) {
			for ( const child of fs.readdirSync( entry ) ) {
				visit( path.join( entry, child ) );
			}
		}
	};
	paths.forEach( visit );
	return newest;
}

/** Whether the target must be built again: no output yet, or a source newer than it. */
export function isStale( root: string, target: BuildTarget ): boolean {
	let output: number;
	try {
		output = fs.statSync( path.join( root, target.output ) ).mtimeMs;
	} catch {
		return true;
	}
	return newestMtimeMs( target.sources.map( ( source ) => path.join( root, source ) ) ) > output;
}

/**
 * Builds the stale targets (npm run <script>), each output then marked as built now.
 * Returns the names of what was built; throws when a build fails.
 */
export function buildStale( root: string, targets: readonly BuildTarget[] = BUILD_TARGETS ): string[] {
	const built: string[] = [];
	for ( const target of targets ) {
		if ( ! isStale( root, target ) ) {
			continue;
		}
		const started = new Date();
		const result = spawnSync(
			process.platform === 'win32' ? 'npm.cmd' : 'npm',
			[ 'run', target.script, '--silent' ],
			{ cwd: root, stdio: 'inherit' }
		);
		if ( result.status !== 0 ) {
			throw new Error( `Building the ${ target.name } failed (npm run ${ target.script }).` );
		}
		// The start, not the end: a source saved during the build makes the next start build again.
		fs.utimesSync( path.join( root, target.output ), started, started );
		built.push( target.name );
	}
	return built;
}

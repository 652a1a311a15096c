import { spawn } from 'child_process';
import fs from 'fs';
import path from 'path';
import { ROOT } from '../../../scripts/lib/paths';

/**
 * For tests that start environments of their own (npm start, a stack) and check what is left
 * running: found without the pid files under test. The Playground server and wp-env name the
 * environment's folder on their command line; a sidecar has its data folder there.
 */
export function processesOfEnvironment( dir: string ): string[] {
	const found: string[] = [];
	for ( const entry of fs.readdirSync( '/proc' ) ) {
		if ( ! /^\d+$/.test( entry ) || Number( entry ) === process.pid ) {
			continue;
		}
		try {
			const cmdline = fs.readFileSync( `/proc/${ entry }/cmdline`, 'utf8' ).split( '\0' ).join( ' ' );
			const environ = fs.readFileSync( `/proc/${ entry }/environ`, 'utf8' ).split( '\0' );
			const state = /^State:\s+(\S)/m.exec( fs.readFileSync( `/proc/${ entry }/status`, 'utf8' ) )?.[ 1 ];
			if (
				state !== 'Z' &&
				( cmdline.includes( dir + path.sep ) ||
					environ.includes( `SIDECAR_DATA_DIR=${ path.join( dir, 'sidecar-data' ) }` ) )
			) {
				found.push( `${ entry }: ${ cmdline.slice( 0, 160 ) }` );
			}
		} catch {
			// Exited meanwhile.
		}
	}
	return found;
}

/** What a failing assertion left running, killed before the next test starts the same environment. */
export function killProcessesOfEnvironment( dir: string ): void {
	for ( const line of processesOfEnvironment( dir ) ) {
		try {
			process.kill( Number( line.split( ':' )[ 0 ] ), 'SIGKILL' );
		} catch {
			// Gone.
		}
	}
}

export interface ScriptResult {
	status: number | null;
	stdout: string;
	stderr: string;
}

/**
 * Runs one of scripts/*.ts as its npm script does, to its end. Not spawnSync: while it blocks,
 * this process reaps no child, and an `npm start` child that exits meanwhile stays a zombie,
 * which `npm stop` takes for a process still running.
 */
export function runScript(
	script: 'stop' | 'sidecar',
	args: string[],
	env: NodeJS.ProcessEnv = {}
): Promise< ScriptResult > {
	const child = spawn(
		process.execPath,
		[ '-r', 'ts-node/register/transpile-only', path.join( ROOT, 'scripts', `${ script }.ts` ), ...args ],
		{
			cwd: ROOT,
			stdio: [ 'ignore', 'pipe', 'pipe' ],
			env: { ...process.env, TS_NODE_PROJECT: path.join( ROOT, 'tsconfig.json' ), ...env },
			timeout: 60_000,
		}
	);
	const result: ScriptResult = { status: null, stdout: '', stderr: '' };
	child.stdout.on( 'data', ( chunk: Buffer ) => ( result.stdout += chunk.toString() ) );
	child.stderr.on( 'data', ( chunk: Buffer ) => ( result.stderr += chunk.toString() ) );
	return new Promise( ( resolve, reject ) => {
		child.once( 'error', reject );
		child.once( 'close', ( status ) => resolve( { ...result, status } ) );
	} );
}

/** `npm stop -- --env=<name>`, which must succeed; what it printed. */
export async function stopEnvironment( name: string ): Promise< string > {
	const result = await runScript( 'stop', [ `--env=${ name }` ] );
	if ( result.status !== 0 ) {
		throw new Error( `stop.ts failed (${ result.status }): ${ result.stderr }` );
	}
	return result.stdout;
}

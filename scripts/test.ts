/**
 * npm test's jest step: two jest runs side by side, because the end-to-end suite keeps one core
 * busy (Playground runs PHP as WebAssembly on one thread, its files must run one at a time) while
 * the other sits idle. The `e2e` project streams here as it runs; `unit`, `sidecar` and `release`
 * (the release artifacts and the upgrade on the production runtime, on ports of their own) run
 * in a second jest, whose output is kept in a log and printed as one block when it ends. The last
 * line adds both up in the "Tests: N passed, N failed, N skipped" form CI reads.
 */
import { spawn } from 'child_process';
import fs from 'fs';
import path from 'path';
import { ROOT } from './lib/paths';

const HELP = `Usage: npm test [-- <jest options>]

Builds the admin page and the sidecar, type-checks, then runs two jest runs side by side:
  e2e                       the end-to-end suite, one file at a time (output below, live)
  unit, sidecar, release    the other projects (output in ${ path.join( 'test-artifacts', 'logs', 'other-projects.log' ) },
                            printed when they end)
and prints the sum: "Tests: N passed, N failed, N skipped". Jest options (e.g.
--testPathPatterns=paid-orders) go to both runs. One project on its own: npx jest --selectProjects <name>.
`;

interface Lane {
	name: string;
	projects: string[];
	/** null: streams to this terminal; else the log file its output goes to. */
	log: string | null;
}

interface LaneResult {
	lane: Lane;
	code: number;
	passed: number;
	failed: number;
	skipped: number;
	/** Set when jest wrote no results (it failed before running tests, e.g. in a global setup). */
	noResults: boolean;
}

const LOG_DIR = path.join( ROOT, 'test-artifacts', 'logs' );
const JEST = path.join( ROOT, 'node_modules', 'jest', 'bin', 'jest.js' );

function runLane( lane: Lane, extraArgs: string[] ): Promise< LaneResult > {
	const resultsFile = path.join( LOG_DIR, `${ lane.name }-results.json` );
	fs.rmSync( resultsFile, { force: true } );
	const args = [ JEST, '--selectProjects', ...lane.projects, '--runInBand', '--passWithNoTests', '--json', `--outputFile=${ resultsFile }`, ...extraArgs ];
	const output = lane.log ? fs.openSync( lane.log, 'w' ) : 'inherit';
	const child = spawn( process.execPath, args, { cwd: ROOT, stdio: [ 'ignore', output, output ] } );
	const forward = ( signal: NodeJS.Signals ) => child.kill( signal );
	process.on( 'SIGTERM', forward );
	return new Promise( ( resolve ) => {
		child.on( 'exit', ( code, signal ) => {
			process.off( 'SIGTERM', forward );
			if ( typeof output === 'number' ) {
				fs.closeSync( output );
			}
			const counts = readCounts( resultsFile );
			resolve( { lane, code: code ?? ( signal ? 128 : 1 ), ...( counts ?? { passed: 0, failed: 0, skipped: 0 } ), noResults: counts === null } );
		} );
	} );
}

function readCounts( file: string ): { passed: number; failed: number; skipped: number } | null {
	if ( ! fs.existsSync( file ) ) {
		return null;
	}
	const results = JSON.parse( fs.readFileSync( file, 'utf8' ) ) as Record< string, number >;
	return {
		passed: results.numPassedTests ?? 0,
		failed: ( results.numFailedTests ?? 0 ) + ( results.numRuntimeErrorTestSuites ?? 0 ),
		skipped: ( results.numPendingTests ?? 0 ) + ( results.numTodoTests ?? 0 ),
	};
}

async function main(): Promise< void > {
	const extraArgs = process.argv.slice( 2 );
	if ( extraArgs.includes( '--help' ) || extraArgs.includes( '-h' ) ) {
		process.stdout.write( HELP );
		return;
	}
	fs.mkdirSync( LOG_DIR, { recursive: true } );
	const othersLog = path.join( LOG_DIR, 'other-projects.log' );
	const others: Lane = { name: 'other-projects', projects: [ 'unit', 'sidecar', 'release' ], log: othersLog };
	const e2e: Lane = { name: 'e2e', projects: [ 'e2e' ], log: null };
	process.stderr.write( `▸ unit, sidecar and release run beside the e2e suite; their output goes to ${ path.relative( ROOT, othersLog ) } and is printed when they end.\n` );

	const othersDone = runLane( others, extraArgs ).then( ( result ) => {
		process.stderr.write( `\n──── unit, sidecar, release (${ path.relative( ROOT, othersLog ) }) ────\n` );
		process.stderr.write( fs.readFileSync( othersLog, 'utf8' ) );
		process.stderr.write( `──── end of unit, sidecar, release: exit ${ result.code } ────\n\n` );
		return result;
	} );
	const results = [ await runLane( e2e, extraArgs ), await othersDone ];

	for ( const result of results ) {
		if ( result.noResults ) {
			process.stderr.write( `${ result.lane.projects.join( ', ' ) }: jest ended (exit ${ result.code }) without results; see its output above.\n` );
		}
	}
	const sum = ( key: 'passed' | 'failed' | 'skipped' ) => results.reduce( ( total, result ) => total + result[ key ], 0 );
	// A run without results failed before its tests: count it, so the line never reads as green.
	const failed = sum( 'failed' ) + results.filter( ( result ) => result.noResults && result.code !== 0 ).length;
	process.stderr.write( `Tests: ${ sum( 'passed' ) } passed, ${ failed } failed, ${ sum( 'skipped' ) } skipped\n` );
	process.exitCode = results.some( ( result ) => result.code !== 0 ) ? 1 : 0;
}

main().catch( ( error: Error ) => {
	process.stderr.write( `${ error.stack ?? error.message }\n` );
	process.exitCode = 1;
} );

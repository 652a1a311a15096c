/**
 * npm test's jest step: two lanes side by side, because the Playground end-to-end suite keeps one
 * core busy (PHP as WebAssembly on one thread, its files one at a time) while the other would sit
 * idle.
 * - Lane 1, streamed here as it runs: the `e2e` project on Playground (SQLite), less the browser
 *   tests of the admin page (see BROWSER_E2E).
 * - Lane 2, into logs printed as each part ends: `unit`, `sidecar` and `release` (the release
 *   artifacts and the upgrade on the production runtime, on ports of their own), then the e2e
 *   folders that matter on a real server (service account, paid orders, outbound, inbound,
 *   operations, production) and the admin page's browser tests on the production runtime (nginx,
 *   PHP-FPM, MariaDB), as its own environment.
 * The last line adds everything up in the "Tests: N passed, N failed, N skipped" form CI reads.
 */
import { spawn, spawnSync } from 'child_process';
import fs from 'fs';
import path from 'path';
import { ensureDebianPackages } from './lib/debian-packages';
import { ROOT } from './lib/paths';
import { TEST_COMMANDS, TEST_PACKAGES } from './lib/test-packages';
import { ensureProductionPackages } from './production/services';

/**
 * The admin page's browser tests run on the production runtime only. A browser logs in through
 * wp-login.php and loads wp-admin pages with dozens of assets; Playground serves them with one PHP
 * worker on this 2-core machine, behind whatever else is queued there (WP-Cron runs, Action
 * Scheduler's async runner), where a log-in can wait for minutes (over 5 in one CI run). PHP-FPM's
 * pool serves them as a site's server does, in about a tenth of the time.
 */
const BROWSER_E2E = 'tests/e2e/admin/';

/**
 * The e2e folders that matter on a real server, and the browser tests, on the production runtime,
 * as an environment of their own (ports apart from the Playground run's 8889/8788 and the release
 * tests' 8951-8956).
 */
const PRODUCTION_E2E = {
	env: { E2E_RUNTIME: 'production', E2E_ENV_NAME: 'e2e-production', E2E_WP_PORT: '8901', E2E_SIDECAR_PORT: '8902' },
	pattern: `tests/e2e/(service-account|paid-orders|outbound|inbound|operations|production)/|${ BROWSER_E2E }`,
};

const HELP = `Usage: npm test [-- [--skip-production] <jest options>]

Installs the Debian packages the tests use when they are missing and this run is root (phpunit,
php-codesniffer, systemd, and the production runtime's nginx, PHP-FPM and MariaDB; Chromium when
the browser tests start), else names the apt-get command. Then builds the admin page and the
sidecar, type-checks, runs ESLint (npm run lint:js), checks the layout (npm run format:check),
runs PHPUnit (tests/php) and phpcs (phpcs.xml.dist), then runs two lanes side by side:
  1. e2e on Playground       the end-to-end suite but the admin page's browser tests (${ BROWSER_E2E }),
                             one file at a time (output below, live)
  2. unit, sidecar, release  the other projects, then the e2e folders service-account, paid-orders,
     then e2e on the         outbound, inbound, operations, production and admin on the production runtime (nginx,
     production runtime      PHP-FPM, MariaDB from Debian's packages; environment ${ PRODUCTION_E2E.env.E2E_ENV_NAME },
                             WordPress on port ${ PRODUCTION_E2E.env.E2E_WP_PORT })
                             (output in ${ path.join( 'test-artifacts', 'logs' ) }/, printed as each part ends)
and prints the sum: "Tests: N passed, N failed, N skipped".
  --skip-production  leave out the production-runtime e2e run (and so the browser tests)
  --debian-packages  print every Debian package the tests use (what .ci/run installs) and exit
Jest options (e.g. --testPathPatterns=paid-orders) go to every run; a --testPathPatterns of yours
replaces the production run's own folder list. One project on its own: npx jest --selectProjects <name>.
`;

function onPath( command: string ): boolean {
	return ( process.env.PATH ?? '' )
		.split( path.delimiter )
		.some( ( dir ) => dir !== '' && fs.existsSync( path.join( dir, command ) ) );
}

/**
 * What the tests run besides Node, installed on a fresh Debian machine when this run is root (as
 * the browser tests do for Chromium), else named with the command that installs it: PHPUnit and
 * phpcs for the PHP checks, systemd-analyze for the sidecar's systemd unit, and the production runtime's
 * nginx, PHP-FPM and MariaDB (the release lane, the production e2e run, and the sidecar's
 * shared-store tests, which start their own mariadbd).
 */
function ensureTestPackages(): void {
	const missing = () => Object.keys( TEST_COMMANDS ).filter( ( command ) => ! onPath( command ) );
	const packages = [ ...new Set( Object.values( TEST_COMMANDS ) ) ];
	ensureDebianPackages( {
		need: `npm test needs ${ missing().join( ', ' ) }`,
		packages,
		present: () => missing().length === 0,
		howToInstall: `Install them with \`sudo apt-get install -y ${ packages.join( ' ' ) }\`.`,
	} );
	ensureProductionPackages();
}

/** ESLint on the code, then Prettier on its layout; either one's error fails `npm test` before any jest run. */
const STYLE_CHECKS = [ 'lint:js', 'format:check' ];

interface Lane {
	name: string;
	projects: string[];
	/** null: streams to this terminal; else the log file its output goes to. */
	log: string | null;
	/** Environment variables of this run (on top of this process's). */
	env?: NodeJS.ProcessEnv;
	/** Jest arguments of this run's own, after the caller's. */
	args?: string[];
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
	const args = [
		JEST,
		'--selectProjects',
		...lane.projects,
		'--runInBand',
		'--passWithNoTests',
		'--json',
		`--outputFile=${ resultsFile }`,
		...extraArgs,
		// After the caller's: jest's list options (--testPathIgnorePatterns) take every plain word that
		// follows them, so a caller's path pattern must come first.
		...( lane.args ?? [] ),
	];
	const output = lane.log ? fs.openSync( lane.log, 'w' ) : 'inherit';
	const child = spawn( process.execPath, args, {
		cwd: ROOT,
		stdio: [ 'ignore', output, output ],
		env: { ...process.env, ...lane.env },
	} );
	const forward = ( signal: NodeJS.Signals ) => child.kill( signal );
	process.on( 'SIGTERM', forward );
	return new Promise( ( resolve ) => {
		child.on( 'exit', ( code, signal ) => {
			process.off( 'SIGTERM', forward );
			if ( typeof output === 'number' ) {
				fs.closeSync( output );
			}
			const counts = readCounts( resultsFile );
			resolve( {
				lane,
				code: code ?? ( signal ? 128 : 1 ),
				...( counts ?? { passed: 0, failed: 0, skipped: 0 } ),
				noResults: counts === null,
			} );
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

/** Runs a lane whose output goes to a log, then prints that log as one block. */
async function runLogged( lane: Lane, extraArgs: string[], title: string ): Promise< LaneResult > {
	const result = await runLane( lane, extraArgs );
	const log = lane.log as string;
	process.stderr.write( `\n──── ${ title } (${ path.relative( ROOT, log ) }) ────\n` );
	process.stderr.write( fs.readFileSync( log, 'utf8' ) );
	process.stderr.write( `──── end of ${ title }: exit ${ result.code } ────\n\n` );
	return result;
}

/**
 * The PHP checks, before the jest lanes (they take seconds): PHPUnit on the pure PHP functions
 * (tests/php, no WordPress), its summary shown as PHPUnit prints it, then phpcs with the
 * repository's ruleset (phpcs.xml.dist). Both are Debian's packages (phpunit,
 * php-codesniffer), which .ci/run installs. A missing tool counts as a failure, never a skip.
 */
function runPhpChecks(): { passed: number; failed: number } {
	const phpunit = spawnSync( 'phpunit', [ '-c', path.join( 'tests', 'php', 'phpunit.xml' ) ], {
		cwd: ROOT,
		encoding: 'utf8',
	} );
	process.stderr.write(
		`\n──── PHPUnit (tests/php) ────\n${ phpunit.error ? `phpunit could not run: ${ phpunit.error.message } (apt-get install phpunit)\n` : phpunit.stdout + phpunit.stderr }`
	);
	const counts = phpunitCounts( phpunit.stdout ?? '' );
	const phpunitFailed = phpunit.status !== 0 ? Math.max( 1, counts.failed ) : 0;
	const phpcs = spawnSync( 'phpcs', [ '-q', '--no-colors', '--report=summary' ], { cwd: ROOT, encoding: 'utf8' } );
	process.stderr.write(
		`──── phpcs (phpcs.xml.dist) ────\n${ phpcs.error ? `phpcs could not run: ${ phpcs.error.message } (apt-get install php-codesniffer)\n` : phpcs.stdout + phpcs.stderr || 'no problems\n' }\n`
	);
	return { passed: counts.passed, failed: phpunitFailed + ( phpcs.status === 0 ? 0 : 1 ) };
}

/** Passed and failed tests from PHPUnit's summary: "OK (22 tests, …)" or "Tests: 22, Assertions: …, Failures: 1, Errors: 1". */
function phpunitCounts( output: string ): { passed: number; failed: number } {
	const ok = /^OK \((\d+) tests?,/m.exec( output );
	if ( ok ) {
		return { passed: Number( ok[ 1 ] ), failed: 0 };
	}
	const summary = /^Tests: (\d+),.*$/m.exec( output );
	if ( ! summary ) {
		return { passed: 0, failed: 0 };
	}
	const count = ( label: string ) => Number( new RegExp( `${ label }: (\\d+)` ).exec( summary[ 0 ] )?.[ 1 ] ?? 0 );
	const failed = count( 'Failures' ) + count( 'Errors' );
	return {
		passed: Number( summary[ 1 ] ) - failed - count( 'Skipped' ) - count( 'Incomplete' ) - count( 'Risky' ),
		failed,
	};
}

async function main(): Promise< void > {
	const args = process.argv.slice( 2 );
	if ( args.includes( '--help' ) || args.includes( '-h' ) ) {
		process.stdout.write( HELP );
		return;
	}
	if ( args.includes( '--debian-packages' ) ) {
		process.stdout.write( `${ TEST_PACKAGES.join( ' ' ) }\n` );
		return;
	}
	ensureTestPackages();
	// After --help: building, type-checking and the style checks take most of a minute.
	for ( const script of [ 'build', 'typecheck', ...STYLE_CHECKS ] ) {
		const result = spawnSync( process.platform === 'win32' ? 'npm.cmd' : 'npm', [ 'run', script, '--silent' ], {
			cwd: ROOT,
			stdio: 'inherit',
		} );
		if ( result.status !== 0 ) {
			process.stderr.write( `npm test: npm run ${ script } failed.\n` );
			process.exit( result.status ?? 1 );
		}
		if ( STYLE_CHECKS.includes( script ) ) {
			// Both tools are silent when all is well: say so, so the log shows they ran.
			process.stderr.write( `npm run ${ script }: no problems.\n` );
		}
	}
	const php = runPhpChecks();
	if ( php.failed > 0 ) {
		process.stderr.write( 'npm test: the PHP checks failed (PHPUnit or phpcs, above).\n' );
		process.stderr.write( `Tests: ${ php.passed } passed, ${ php.failed } failed, 0 skipped\n` );
		process.exit( 1 );
	}
	const skipProduction = args.includes( '--skip-production' );
	const extraArgs = args.filter( ( arg ) => arg !== '--skip-production' );
	const ownPattern = extraArgs.some(
		( arg ) => arg.startsWith( '--testPathPatterns' ) || arg.startsWith( '--testPathPattern=' )
	);
	fs.mkdirSync( LOG_DIR, { recursive: true } );
	const others: Lane = {
		name: 'other-projects',
		projects: [ 'unit', 'sidecar', 'release' ],
		log: path.join( LOG_DIR, 'other-projects.log' ),
	};
	const production: Lane = {
		name: 'e2e-production',
		projects: [ 'e2e' ],
		log: path.join( LOG_DIR, 'e2e-production.log' ),
		env: PRODUCTION_E2E.env,
		args: ownPattern ? [] : [ '--testPathPatterns', PRODUCTION_E2E.pattern ],
	};
	const e2e: Lane = {
		name: 'e2e',
		projects: [ 'e2e' ],
		log: null,
		args: [ `--testPathIgnorePatterns=${ BROWSER_E2E }` ],
	};
	process.stderr.write(
		`▸ Beside the e2e suite: unit, sidecar and release${ skipProduction ? '' : ', then e2e on the production runtime' }; their output goes to ${ path.relative( ROOT, LOG_DIR ) }/ and is printed as each part ends.\n`
	);

	const secondLane = ( async (): Promise< LaneResult[] > => {
		const done = [ await runLogged( others, extraArgs, 'unit, sidecar, release' ) ];
		if ( ! skipProduction ) {
			done.push( await runLogged( production, extraArgs, 'e2e on the production runtime' ) );
		}
		return done;
	} )();
	const results = [ await runLane( e2e, extraArgs ), ...( await secondLane ) ];

	for ( const result of results ) {
		if ( result.noResults ) {
			process.stderr.write(
				`${ result.lane.name }: jest ended (exit ${ result.code }) without results; see its output above.\n`
			);
		}
	}
	const sum = ( key: 'passed' | 'failed' | 'skipped' ) =>
		results.reduce( ( total, result ) => total + result[ key ], key === 'passed' ? php.passed : 0 );
	// A run without results failed before its tests: count it, so the line never reads as green.
	const failed = sum( 'failed' ) + results.filter( ( result ) => result.noResults && result.code !== 0 ).length;
	process.stderr.write( `Tests: ${ sum( 'passed' ) } passed, ${ failed } failed, ${ sum( 'skipped' ) } skipped\n` );
	process.exitCode = results.some( ( result ) => result.code !== 0 ) ? 1 : 0;
}

main().catch( ( error: Error ) => {
	process.stderr.write( `${ error.stack ?? error.message }\n` );
	process.exitCode = 1;
} );

/**
 * npm test's jest step: the unit, sidecar, php-db and release projects and the end-to-end matrix, in two
 * lanes side by side, because the Playground run keeps one core busy (PHP as WebAssembly on one
 * thread, its files one at a time) while the other would sit idle.
 * - Lane 1, streamed here as it runs: the cell without a shop on Playground, then (logged) the
 *   `unit`, `sidecar` and `php-db` projects, the `release` project and the order folders on the oldest
 *   supported stack.
 * - Lane 2, into a log printed when it ends: the whole e2e suite on the stack site owners run.
 * The parts are placed so that both lanes take about as long (20 to 25 minutes each on a 2-core
 * machine).
 * The last line adds everything up in the "Tests: N passed, N failed, N skipped" form CI reads.
 */
import { spawn, spawnSync } from 'child_process';
import fs from 'fs';
import path from 'path';
import { pluginCheckBuild } from './lib/builds';
import { ensureDebianPackages } from './lib/debian-packages';
import { ROOT } from './lib/paths';
import { TEST_COMMANDS, TEST_PACKAGES } from './lib/test-packages';
import { ensureProductionPackages } from './production/services';

/**
 * The end-to-end matrix: what each cell's site runs (scripts/lib/site-choice.ts reads these
 * variables; WORDPRESS_DIR and WOOCOMMERCE_DIR are cleared so a cell runs what it says) and which
 * folders it runs.
 * - The stack site owners run, WordPress 7.1 + WooCommerce 10.0.2 (HPOS) on the production runtime
 *   (nginx, PHP-FPM, MariaDB, the plugin from its release zip): the whole suite, browser tests
 *   included. PHP-FPM serves a request in ~100 ms where Playground with real WooCommerce takes ~3 s.
 * - The oldest supported stack, WordPress 6.5.5 + WooCommerce 9.4.3 on legacy post storage, same
 *   runtime: the folders that touch orders, with two sidecars on the runtime's MariaDB (the shared
 *   store; the current cell's sidecar keeps SQLite), so outbound delivery, replays, notices and
 *   privacy requests run end to end on both stores. The backlog of thousands of orders
 *   (paid-orders/sync-at-scale, five minutes of order writes) runs on the current cell only; the
 *   other paid-orders files read legacy storage through the same queries.
 * - WordPress 6.5.5 without WooCommerce on Playground (the runtime `npm start` uses; no shop, so
 *   its one PHP worker is not held by WooCommerce's ~3 s requests): what no shop changes and what
 *   the quick start's runtime must run, one file or folder per part: the site's foundation (its
 *   environment, the sidecar channel, the commerce route's 503, the Abilities API), the service
 *   account and manufacturing orders, inbound events handed to the site, and in a browser the
 *   admin page and the manufacturing orders' screens. Playground runs PHP ten to twenty times
 *   slower, so what repeats the same PHP many times runs on the current cell only: the sweeps
 *   (capability-sweep, idempotency, inbound's schemes, forgery, duplicates and sidecar-down), the
 *   schema checks of every route (route-documentation, inbound/admin), and npm start's own
 *   stacks (dev-environment, failed-start), which start Playground there too.
 * Ports: each cell its own (the production runtime also takes WordPress's port + 2 and + 3 for
 * PHP-FPM and MariaDB, and foundation/failed-start + 4 for stacks of its own); the release tests
 * use 8951-8956.
 */
interface E2ECell {
	name: string;
	title: string;
	env: NodeJS.ProcessEnv;
	/** Jest's --testPathPatterns: the folders this cell runs (all of tests/e2e when absent). */
	pattern?: string;
}

const ORDER_FOLDERS = 'tests/e2e/(paid-orders/(?!sync-at-scale)|outbound/|operations/)';
const NO_SHOP_FOLDERS = [
	'tests/e2e/foundation/(environment|sidecar-channel|without-a-shop|abilities-api)\\.test',
	'tests/e2e/service-account/(?!capability-sweep|idempotency)',
	'tests/e2e/inbound/(refusals|retries)\\.test',
	'tests/e2e/admin/(page|manufacturing-orders)\\.test',
].join( '|' );

const MATRIX: Record< 'current' | 'oldest' | 'noShop', E2ECell > = {
	current: {
		name: 'e2e-production',
		title: 'e2e, WordPress 7.1 + WooCommerce 10.0.2 (HPOS), production runtime: the whole suite',
		env: {
			E2E_RUNTIME: 'production',
			E2E_ENV_NAME: 'e2e-production',
			E2E_WP_PORT: '8901',
			E2E_SIDECAR_PORT: '8902',
			WORDPRESS_VERSION: '7.1',
			WOOCOMMERCE_VERSION: '10.0.2',
			WOOCOMMERCE_HPOS: 'on',
		},
	},
	oldest: {
		name: 'e2e-production-legacy',
		title: 'e2e, WordPress 6.5.5 + WooCommerce 9.4.3 (legacy storage), production runtime, two sidecars on MariaDB: the order folders',
		env: {
			E2E_RUNTIME: 'production',
			E2E_ENV_NAME: 'e2e-production-legacy',
			E2E_WP_PORT: '8911',
			E2E_SIDECAR_PORT: '8912',
			WORDPRESS_VERSION: '6.5',
			WOOCOMMERCE_VERSION: '9.4.3',
			WOOCOMMERCE_HPOS: 'off',
			E2E_SIDECAR_STORE: 'mariadb',
			E2E_SIDECAR_INSTANCES: '2',
		},
		pattern: ORDER_FOLDERS,
	},
	noShop: {
		name: 'e2e-no-shop',
		title: 'e2e, WordPress 6.5.5 without WooCommerce, Playground: what needs no shop',
		env: {
			E2E_RUNTIME: 'playground',
			E2E_ENV_NAME: 'e2e',
			E2E_WP_PORT: '8889',
			E2E_SIDECAR_PORT: '8788',
			WORDPRESS_VERSION: '6.5',
			WOOCOMMERCE_VERSION: 'none',
		},
		pattern: NO_SHOP_FOLDERS,
	},
};

const CELL_NAMES: Record< string, keyof typeof MATRIX > = { current: 'current', oldest: 'oldest', 'no-shop': 'noShop' };

const HELP = `Usage: npm test [-- [--cells=current,oldest,no-shop] <jest options>]

Installs the Debian packages the tests use when they are missing and this run is root (phpunit,
systemd, and the production runtime's nginx, PHP-FPM and MariaDB; Chromium when the browser
tests start), else names the apt-get command. Then builds the admin page and the sidecar,
type-checks, runs ESLint (npm run lint:js), checks the layout (npm run format:check), runs
PHPUnit (tests/php) and Plugin Check's phpcs (phpcs.xml.dist), then runs two lanes side by side:
  1. no-shop   ${ MATRIX.noShop.title }
               (output below, live), then
               unit, sidecar and php-db, then release, then
     oldest    ${ MATRIX.oldest.title }
  2. current   ${ MATRIX.current.title }
(output of the logged parts in ${ path.join( 'test-artifacts', 'logs' ) }/, printed as each part ends)
and prints the sum: "Tests: N passed, N failed, N skipped". WordPress 7.1 and WooCommerce come from
../shared/builds (scripts/lib/builds.ts); each cell sets WORDPRESS_VERSION, WOOCOMMERCE_VERSION and
WOOCOMMERCE_HPOS for its site.
  --cells=<names>    the e2e cells to run, comma-separated (default: all three); unit, sidecar,
                     php-db and release always run
  --debian-packages  print every Debian package the tests use (what .ci/run installs) and exit
Jest options (e.g. --testPathPatterns=paid-orders) go to every run; a --testPathPatterns of yours
replaces the cells' own folder lists (pick the cells that can run it: the no-shop cell has no
WooCommerce). One project on its own: npx jest --selectProjects <name>.
`;

/** The cells named by --cells (all when absent); an unknown name is an error that lists the names. */
function chosenCells( args: string[] ): Set< keyof typeof MATRIX > {
	const flag = args.find( ( arg ) => arg.startsWith( '--cells=' ) );
	if ( ! flag ) {
		return new Set( Object.values( CELL_NAMES ) );
	}
	const names = flag.slice( '--cells='.length ).split( ',' ).filter( Boolean );
	const unknown = names.filter( ( name ) => ! ( name in CELL_NAMES ) );
	if ( unknown.length > 0 ) {
		throw new Error(
			`--cells: unknown cell ${ unknown.join( ', ' ) } (the cells: ${ Object.keys( CELL_NAMES ).join( ', ' ) })`
		);
	}
	return new Set( names.map( ( name ) => CELL_NAMES[ name ] as keyof typeof MATRIX ) );
}

function onPath( command: string ): boolean {
	return ( process.env.PATH ?? '' )
		.split( path.delimiter )
		.some( ( dir ) => dir !== '' && fs.existsSync( path.join( dir, command ) ) );
}

/**
 * What the tests run besides Node, installed on a fresh Debian machine when this run is root (as
 * the browser tests do for Chromium), else named with the command that installs it: PHPUnit and
 * PHP's CLI for the PHP checks, systemd-analyze for the sidecar's systemd unit, and the production runtime's
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
 * repository's ruleset (phpcs.xml.dist, the WordPress Coding Standards). PHPUnit is Debian's
 * package, which .ci/run installs; phpcs is the one in Plugin Check's build (../shared/builds,
 * unpacked by scripts/lib/builds.ts), run with PHP's CLI. A missing tool or build counts as a
 * failure, never a skip.
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
	const phpcs = runPhpcs();
	process.stderr.write( `──── phpcs (phpcs.xml.dist) ────\n${ phpcs.output }\n` );
	return { passed: counts.passed, failed: phpunitFailed + ( phpcs.ok ? 0 : 1 ) };
}

/** Plugin Check's phpcs over the repository with phpcs.xml.dist: whether it passed, and what it printed. */
function runPhpcs(): { ok: boolean; output: string } {
	let phpcs: string;
	try {
		phpcs = path.join( pluginCheckBuild(), 'vendor', 'bin', 'phpcs' );
	} catch ( error ) {
		return { ok: false, output: `phpcs could not run: ${ ( error as Error ).message }\n` };
	}
	const run = spawnSync( 'php', [ phpcs, '-q', '--no-colors', '--report=summary' ], { cwd: ROOT, encoding: 'utf8' } );
	if ( run.error ) {
		return { ok: false, output: `phpcs could not run: ${ run.error.message } (apt-get install php8.2-cli)\n` };
	}
	return { ok: run.status === 0, output: run.stdout + run.stderr || 'no problems\n' };
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
	const cells = chosenCells( args );
	const extraArgs = args.filter( ( arg ) => ! arg.startsWith( '--cells=' ) );
	const ownPattern = extraArgs.some(
		( arg ) => arg.startsWith( '--testPathPatterns' ) || arg.startsWith( '--testPathPattern=' )
	);
	fs.mkdirSync( LOG_DIR, { recursive: true } );
	const unitAndSidecar: Lane = {
		name: 'unit-sidecar',
		projects: [ 'unit', 'sidecar', 'php-db' ],
		log: path.join( LOG_DIR, 'unit-sidecar.log' ),
	};
	const release: Lane = { name: 'release', projects: [ 'release' ], log: path.join( LOG_DIR, 'release.log' ) };
	const cellLane = ( cell: E2ECell, logged: boolean ): Lane => ( {
		name: cell.name,
		projects: [ 'e2e' ],
		log: logged ? path.join( LOG_DIR, `${ cell.name }.log` ) : null,
		// What the cell says its site runs, never a WORDPRESS_DIR or WOOCOMMERCE_DIR of the caller's.
		env: { ...cell.env, WORDPRESS_DIR: '', WOOCOMMERCE_DIR: '' },
		args: ownPattern || ! cell.pattern ? [] : [ '--testPathPatterns', cell.pattern ],
	} );
	process.stderr.write(
		`▸ Beside the e2e cells${ cells.has( 'noShop' ) ? ' (no-shop streamed below)' : '' }: unit, sidecar and release, and the other cells; their output goes to ${ path.relative( ROOT, LOG_DIR ) }/ and is printed as each part ends.\n`
	);

	const secondLane = ( async (): Promise< LaneResult[] > => {
		const done: LaneResult[] = [];
		if ( cells.has( 'current' ) ) {
			done.push( await runLogged( cellLane( MATRIX.current, true ), extraArgs, MATRIX.current.title ) );
		}
		return done;
	} )();
	const firstLane = ( async (): Promise< LaneResult[] > => {
		const done: LaneResult[] = [];
		if ( cells.has( 'noShop' ) ) {
			process.stderr.write( `\n──── ${ MATRIX.noShop.title } ────\n` );
			done.push( await runLane( cellLane( MATRIX.noShop, false ), extraArgs ) );
		}
		done.push( await runLogged( unitAndSidecar, extraArgs, 'unit, sidecar, php-db' ) );
		done.push( await runLogged( release, extraArgs, 'release' ) );
		if ( cells.has( 'oldest' ) ) {
			done.push( await runLogged( cellLane( MATRIX.oldest, true ), extraArgs, MATRIX.oldest.title ) );
		}
		return done;
	} )();
	const results = [ ...( await firstLane ), ...( await secondLane ) ];

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

import { execFile } from 'child_process';
import fs from 'fs';
import path from 'path';
import { PLUGIN_CHECK_BUILD, pluginCheckBuild, wpCliPhar } from '../../../scripts/lib/builds';
import { productionSql, readRunning } from '../../../scripts/production/stack';
import { E2E_ENV_NAME, readState } from '../support/environment';

/**
 * WordPress.org's Plugin Check on the plugin as a site owner installs it: the release zip,
 * uploaded through wp-admin by the production runtime (nginx, PHP-FPM, MariaDB). Plugin Check
 * 1.2.0 comes from ../shared/builds (scripts/lib/builds.ts: checked against SHA256SUMS, unpacked
 * under .cache/builds), is copied into the site's wp-content/plugins and activated, and
 * `wp plugin check service-integration --format=json` runs through WP-CLI's phar with
 * `--require=./wp-content/plugins/plugin-check/cli.php`, as Plugin Check's readme says: that file
 * registers the command before WordPress loads and puts Plugin Check's object-cache.php drop-in in
 * place, without which the runtime checks (the Performance category's enqueued scripts and styles
 * checks, run on a copy of the site in `<prefix>pc_` tables) are silently left out. The command
 * says "Setting up runtime environment." only when they run, which the test requires.
 *
 * Every category runs (no --categories), errors and warnings both count (no --ignore-warnings,
 * no severity threshold), and --include-experimental is not passed: WordPress.org's plugin review
 * runs the stable checks, and 1.2.0 has no experimental check (`wp plugin list-checks` lists the
 * same checks with and without the flag). The test wants 0 errors and 0 warnings; a finding the
 * plugin keeps on purpose is annotated in place (`// phpcs:ignore Sniff.Name -- reason`), and
 * the count of those annotations in the installed plugin is printed into the CI log with the result.
 *
 * Afterwards Plugin Check is deactivated and its folder removed, and the drop-in must be gone, so
 * the other tests' site is the one they expect. Production runtime only: Playground does not
 * install the release zip, and its SQLite site is not one PHP's CLI can load.
 */
const SLUG = 'service-integration';
const PLUGIN_CHECK = 'plugin-check';
const ON_PRODUCTION = readState().runtime === 'production';
const describeOnProduction = ON_PRODUCTION ? describe : describe.skip;

interface Finding {
	file: string;
	line: number;
	column: number;
	type: 'ERROR' | 'WARNING';
	code: string;
	message: string;
}

interface CliResult {
	status: number | null;
	stdout: string;
	stderr: string;
}

/**
 * WP-CLI on the site, run from its docroot. The command comes first: Plugin Check's cli.php tells
 * a `wp plugin check` run from any other by `$_SERVER['argv'][1]` and `[2]`
 * (CLI_Runner::is_plugin_check()), so the global options go after it.
 */
function wpAtDocroot( command: string[], timeout: number ): Promise< CliResult > {
	const { wordpressDir } = readState();
	return new Promise( ( resolve ) => {
		const child = execFile(
			'php',
			[ wpCliPhar(), ...command, `--path=${ wordpressDir }`, '--allow-root' ],
			{ cwd: wordpressDir, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 },
			( error, stdout, stderr ) => {
				const code = error ? ( error as NodeJS.ErrnoException & { code?: unknown } ).code : 0;
				resolve( { status: typeof code === 'number' ? code : null, stdout, stderr } );
			}
		);
		child.stdin?.end();
	} );
}

async function wpOrFail( command: string[] ): Promise< string > {
	const result = await wpAtDocroot( command, 120_000 );
	if ( result.status !== 0 ) {
		throw new Error( `wp ${ command.join( ' ' ) } exited ${ result.status }: ${ result.stderr || result.stdout }` );
	}
	return result.stdout;
}

/**
 * `--format=json` prints, per file with findings, a line `FILE: <path>` and then one JSON array of
 * its findings; around them, lines of its own ("Setting up runtime environment.", "Success: …").
 */
function parseFindings( stdout: string ): Finding[] {
	const findings: Finding[] = [];
	let file: string | null = null;
	for ( const line of stdout.split( '\n' ) ) {
		const header = /^FILE: (.+)$/.exec( line );
		if ( header ) {
			file = ( header[ 1 ] as string ).trim();
			continue;
		}
		if ( line.startsWith( '[' ) ) {
			if ( file === null ) {
				throw new Error( `Plugin Check printed findings before any FILE: line:\n${ stdout }` );
			}
			for ( const item of JSON.parse( line ) as Array< Omit< Finding, 'file' > > ) {
				findings.push( { file, ...item } );
			}
		}
	}
	return findings;
}

function describeFinding( finding: Finding ): string {
	return `${ finding.type } ${ finding.file }:${ finding.line }:${ finding.column } ${ finding.code }: ${ finding.message }`;
}

/** The installed plugin's PHP files, relative to its folder. */
function phpFiles( dir: string, prefix = '' ): string[] {
	return fs.readdirSync( dir, { withFileTypes: true } ).flatMap( ( entry ) => {
		const relative = path.join( prefix, entry.name );
		if ( entry.isDirectory() ) {
			return phpFiles( path.join( dir, entry.name ), relative );
		}
		return entry.name.endsWith( '.php' ) ? [ relative ] : [];
	} );
}

/** Annotated exceptions in the shipped PHP: `phpcs:ignore` comments, and `phpcs:disable` regions. */
function countAnnotations( pluginDir: string ): { ignore: number; disable: number } {
	let ignore = 0;
	let disable = 0;
	for ( const file of phpFiles( pluginDir ) ) {
		const source = fs.readFileSync( path.join( pluginDir, file ), 'utf8' );
		ignore += source.match( /phpcs:ignore\b/g )?.length ?? 0;
		disable += source.match( /phpcs:disable\b/g )?.length ?? 0;
	}
	return { ignore, disable };
}

describeOnProduction( `Plugin Check ${ PLUGIN_CHECK_BUILD } on the release zip`, () => {
	const { wordpressDir } = readState();
	const plugins = path.join( wordpressDir, 'wp-content', 'plugins' );
	const installed = path.join( plugins, PLUGIN_CHECK );
	const dropIn = path.join( wordpressDir, 'wp-content', 'object-cache.php' );
	let dropInBefore = false;

	beforeAll( async () => {
		dropInBefore = fs.existsSync( dropIn );
		fs.rmSync( installed, { recursive: true, force: true } );
		fs.cpSync( pluginCheckBuild(), installed, { recursive: true } );
		await wpOrFail( [ 'plugin', 'activate', PLUGIN_CHECK ] );
	}, 300_000 );

	afterAll( async () => {
		try {
			await wpOrFail( [ 'plugin', 'deactivate', PLUGIN_CHECK ] );
		} finally {
			fs.rmSync( installed, { recursive: true, force: true } );
		}
		// Plugin Check removes its drop-in after the command (cli.php's after_invoke); never leave it behind.
		if ( ! dropInBefore && fs.existsSync( dropIn ) ) {
			const left = fs.readFileSync( dropIn, 'utf8' );
			if ( left.includes( 'WP_PLUGIN_CHECK_OBJECT_CACHE_DROPIN_VERSION' ) ) {
				fs.rmSync( dropIn );
			}
		}
	}, 300_000 );

	it( 'finds no error and no warning, with its runtime checks', async () => {
		const installedFrom = readRunning( E2E_ENV_NAME )?.release.pluginZip;
		const zip = installedFrom ? path.basename( installedFrom ) : `${ SLUG }'s release zip`;
		const run = await wpAtDocroot(
			[ 'plugin', 'check', SLUG, '--format=json', `--require=./wp-content/plugins/${ PLUGIN_CHECK }/cli.php` ],
			900_000
		);
		// The command ran to its end (a WP-CLI error, a PHP fatal or a timeout shows here).
		expect( { status: run.status, stderr: run.stderr.trim() } ).toEqual( { status: 0, stderr: '' } );
		expect( run.stdout ).toContain( 'Setting up runtime environment.' );
		expect( run.stdout ).toContain( 'Cleaning up runtime environment.' );
		// The drop-in was taken away again once the command ended, and the runtime checks' copy of the site.
		expect( fs.existsSync( dropIn ) ).toBe( dropInBefore );
		expect( productionSql( E2E_ENV_NAME, "SHOW TABLES LIKE 'wp\\_pc\\_%'" ).trim() ).toBe( '' );

		const findings = parseFindings( run.stdout );
		const errors = findings.filter( ( finding ) => finding.type === 'ERROR' );
		const warnings = findings.filter( ( finding ) => finding.type === 'WARNING' );
		const annotations = countAnnotations( path.join( plugins, SLUG ) );
		// One line into the CI log (the lane's log file; not jest's buffered console block).
		process.stderr.write(
			`Plugin Check ${ PLUGIN_CHECK_BUILD } on ${ zip }: ${ errors.length } errors, ${ warnings.length } warnings, ` +
				`${ annotations.ignore } annotated exceptions (phpcs:ignore)` +
				( annotations.disable ? `, ${ annotations.disable } phpcs:disable regions` : '' ) +
				'\n'
		);
		if ( findings.length > 0 ) {
			throw new Error(
				`Plugin Check ${ PLUGIN_CHECK_BUILD } on ${ zip }: ${ errors.length } errors, ${ warnings.length } warnings:\n` +
					findings.map( describeFinding ).join( '\n' )
			);
		}
		expect( run.stdout ).toContain( 'Checks complete. No errors found.' );
	}, 900_000 );
} );

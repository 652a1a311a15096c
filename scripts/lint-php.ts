/**
 * npm run lint:php [-- [--php=8.1|8.2] <dir>...]: `php -l` on every PHP file of the plugin and
 * the test fixtures, with the PHP CLI installed here, or with PHP 8.1 or 8.2 as WebAssembly.
 */
import os from 'os';
import path from 'path';
import { ROOT } from './lib/paths';
import {
	findPhpFiles,
	lintPhpFile,
	lintPhpFileNative,
	nativePhpVersion,
	WASM_PHP_VERSIONS,
	type LintResult,
	type WasmPhpVersion,
} from './lib/php-lint';

const HELP = `Usage: npm run lint:php [-- [--php=<version>] <dir>...]

Runs \`php -l\` on every .php file under the given folders (default: plugin/ and tests/fixtures/)
and exits 1 if any file fails.

Options:
  --php=<version>  8.1 or 8.2: that PHP as WebAssembly (npm's @php-wasm/node, no PHP install;
                   a fresh interpreter a file, a third of a second to a second each). Without it,
                   the PHP CLI on PATH (\`php\`: Debian's PHP 8.2, package php8.2-cli), a process
                   per core.
  --help
`;

async function main(): Promise< void > {
	const args = process.argv.slice( 2 );
	if ( args.includes( '--help' ) ) {
		process.stdout.write( HELP );
		return;
	}
	const phpOption = args.find( ( arg ) => arg.startsWith( '--php=' ) );
	const version = phpOption?.slice( '--php='.length );
	if ( version !== undefined && ! ( WASM_PHP_VERSIONS as readonly string[] ).includes( version ) ) {
		process.stderr.write( `--php must be ${ WASM_PHP_VERSIONS.join( ' or ' ) } (got ${ version })\n\n${ HELP }` );
		process.exit( 2 );
	}
	const unknown = args.find( ( arg ) => arg.startsWith( '--' ) && arg !== phpOption );
	if ( unknown ) {
		process.stderr.write( `Unknown option ${ unknown }\n\n${ HELP }` );
		process.exit( 2 );
	}
	const dirArgs = args.filter( ( arg ) => ! arg.startsWith( '--' ) );
	const dirs = dirArgs.length ? dirArgs : [ path.join( ROOT, 'plugin' ), path.join( ROOT, 'tests', 'fixtures' ) ];
	const files = dirs.flatMap( findPhpFiles );
	const label = version ? `PHP ${ version } (WebAssembly)` : `PHP ${ await nativePhpVersion() } (php on PATH)`;
	process.stdout.write( `php -l with ${ label }: ${ files.length } files\n` );

	const lint = ( file: string ): Promise< LintResult > =>
		version ? lintPhpFile( file, version as WasmPhpVersion ) : lintPhpFileNative( file );
	// WebAssembly runs on this process's one thread: one file at a time. Native PHP: a process per core.
	const width = version ? 1 : Math.max( 1, os.availableParallelism?.() ?? os.cpus().length );
	const results: LintResult[] = new Array( files.length );
	let next = 0;
	await Promise.all(
		Array.from( { length: Math.min( width, files.length ) }, async () => {
			while ( next < files.length ) {
				const index = next++;
				results[ index ] = await lint( files[ index ] as string );
			}
		} )
	);
	let failed = 0;
	for ( const result of results ) {
		process.stdout.write(
			`${ result.ok ? '✓' : '✗' } ${ path.relative( ROOT, result.file ) }${ result.ok ? '' : '\n' + result.output }\n`
		);
		failed += result.ok ? 0 : 1;
	}
	process.exit( failed ? 1 : 0 );
}

main().catch( ( error: Error ) => {
	process.stderr.write( `${ error.message }\n` );
	process.exit( 1 );
} );

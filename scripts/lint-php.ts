/**
 * npm run lint:php [-- <dir>...]: `php -l` on every PHP file of the plugin and the
 * test fixtures, with PHP 8.2 in WebAssembly (no PHP install needed).
 */
import path from 'path';
import { ROOT } from './lib/paths';

async function main(): Promise< void > {
	const args = process.argv.slice( 2 );
	if ( args.includes( '--help' ) ) {
		process.stdout.write(
			'Usage: npm run lint:php [-- <dir>...]\n\nRuns `php -l` (PHP 8.2, WebAssembly) on every .php file under the given folders\n(default: plugin/ and tests/fixtures/). Exits 1 if any file fails.\n'
		);
		return;
	}
	// Loaded after --help: PHP in WebAssembly takes a while to load.
	const { findPhpFiles, lintPhpFile } = await import( './lib/php-lint' );
	const dirs = args.length ? args : [ path.join( ROOT, 'plugin' ), path.join( ROOT, 'tests', 'fixtures' ) ];
	let failed = 0;
	for ( const file of dirs.flatMap( findPhpFiles ) ) {
		const result = await lintPhpFile( file );
		process.stdout.write(
			`${ result.ok ? '✓' : '✗' } ${ path.relative( ROOT, file ) }${ result.ok ? '' : '\n' + result.output }\n`
		);
		failed += result.ok ? 0 : 1;
	}
	process.exit( failed ? 1 : 0 );
}

void main();

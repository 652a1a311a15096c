import { spawn } from 'child_process';
import fs from 'fs';
import path from 'path';

/**
 * `php -l` on PHP files, two ways:
 * - `lintPhpFileNative`: the PHP CLI installed on the machine (Debian's PHP 8.2, which npm test
 *   installs with phpunit); fast, a process per file.
 * - `lintPhpFile`: PHP as WebAssembly from npm (@php-wasm/node, the runtime Playground runs
 *   WordPress with), in a version of choice: 8.2, or 8.1 (the package @php-wasm/node-8-1, which
 *   the former depends on at its own version), the oldest the plugin's header allows. No PHP
 *   install. PHP 8.1's and 8.2's CLI lint one file per run, so each file gets a fresh interpreter.
 */
export interface LintResult {
	file: string;
	ok: boolean;
	output: string;
}

/** The PHP versions `lintPhpFile` runs as WebAssembly. */
export const WASM_PHP_VERSIONS = [ '8.1', '8.2' ] as const;
export type WasmPhpVersion = ( typeof WASM_PHP_VERSIONS )[ number ];

export function findPhpFiles( dir: string ): string[] {
	return fs
		.readdirSync( dir, { withFileTypes: true, recursive: true } )
		.filter( ( entry ) => entry.isFile() && entry.name.endsWith( '.php' ) )
		.map( ( entry ) => path.join( entry.parentPath, entry.name ) )
		.filter( ( file ) => ! file.includes( `${ path.sep }node_modules${ path.sep }` ) )
		.sort();
}

let processId = 1;

export async function lintPhpFile( file: string, version: WasmPhpVersion = '8.2' ): Promise< LintResult > {
	// Loaded here: php-wasm is ESM loaded at run time, and only this path needs it.
	const { loadNodeRuntime } = await import( '@php-wasm/node' );
	const { PHP } = await import( '@php-wasm/universal' );
	const php = new PHP( await loadNodeRuntime( version, { emscriptenOptions: { processId: processId++ } } ) );
	try {
		php.mkdir( '/lint' );
		php.writeFile( '/lint/file.php', fs.readFileSync( file ) );
		const response = await php.cli( [ 'php', '-l', '/lint/file.php' ] );
		const output = ( await response.stdoutText ).replaceAll( '/lint/file.php', file ).trim();
		return { file, ok: ( await response.exitCode ) === 0, output };
	} finally {
		php.exit();
	}
}

/**
 * `php -l` with the PHP CLI on PATH (or `php`): errors printed to its output as the WebAssembly
 * build prints them ("Parse error: … on line N"), not to a log. Without php.ini (`-n`): parsing
 * needs no extension, and loading Debian's takes most of such a short run.
 */
export function lintPhpFileNative( file: string, php = 'php' ): Promise< LintResult > {
	return new Promise( ( resolve, reject ) => {
		const child = spawn( php, [ '-n', '-d', 'display_errors=stdout', '-d', 'log_errors=0', '-l', file ], {
			stdio: [ 'ignore', 'pipe', 'pipe' ],
		} );
		let output = '';
		child.stdout.on( 'data', ( chunk: Buffer ) => ( output += chunk.toString() ) );
		child.stderr.on( 'data', ( chunk: Buffer ) => ( output += chunk.toString() ) );
		child.on( 'error', ( error: NodeJS.ErrnoException ) =>
			reject(
				error.code === 'ENOENT'
					? new Error(
							`No PHP CLI (${ php }): install it (Debian: apt-get install php8.2-cli), or lint with --php=8.2`
						)
					: error
			)
		);
		child.on( 'close', ( code ) => resolve( { file, ok: code === 0, output: output.trim() } ) );
	} );
}

/** The version of the PHP CLI on PATH (or `php`), e.g. "8.2.36". */
export function nativePhpVersion( php = 'php' ): Promise< string > {
	return new Promise( ( resolve, reject ) => {
		const child = spawn( php, [ '-r', 'echo PHP_VERSION;' ], { stdio: [ 'ignore', 'pipe', 'ignore' ] } );
		let output = '';
		child.stdout.on( 'data', ( chunk: Buffer ) => ( output += chunk.toString() ) );
		child.on( 'error', reject );
		child.on( 'close', () => resolve( output.trim() ) );
	} );
}

import fs from 'fs';
import path from 'path';
import { loadNodeRuntime } from '@php-wasm/node';
import { PHP } from '@php-wasm/universal';

/**
 * `php -l` without a PHP install: the same PHP 8.2 (WebAssembly) that runs WordPress
 * in the Playground runtime. PHP 8.2's CLI lints one file per run, so each file gets
 * a fresh interpreter.
 */
export interface LintResult {
	file: string;
	ok: boolean;
	output: string;
}

export function findPhpFiles( dir: string ): string[] {
	return fs
		.readdirSync( dir, { withFileTypes: true, recursive: true } )
		.filter( ( entry ) => entry.isFile() && entry.name.endsWith( '.php' ) )
		.map( ( entry ) => path.join( entry.parentPath, entry.name ) )
		.filter( ( file ) => ! file.includes( `${ path.sep }node_modules${ path.sep }` ) )
		.sort();
}

let processId = 1;

export async function lintPhpFile( file: string ): Promise< LintResult > {
	const php = new PHP( await loadNodeRuntime( '8.2', { emscriptenOptions: { processId: processId++ } } ) );
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

import { spawnSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';

/**
 * Runs scripts/lint-php.ts (real `php -l`, PHP 8.2 in WebAssembly) in a child process:
 * php-wasm loads ESM at run time, which jest's module sandbox cannot host.
 */
const ROOT = path.resolve( __dirname, '..', '..' );

function lint( ...dirs: string[] ): { status: number | null; output: string } {
	const result = spawnSync(
		process.execPath,
		[ '-r', 'ts-node/register/transpile-only', path.join( ROOT, 'scripts', 'lint-php.ts' ), ...dirs ],
		{
			cwd: ROOT,
			encoding: 'utf8',
			timeout: 170_000,
		}
	);
	return { status: result.status, output: result.stdout + result.stderr };
}

describe( 'php -l (PHP 8.2)', () => {
	it( 'passes on every PHP file of the plugin and the test fixtures', () => {
		const { status, output } = lint();
		expect( output ).toContain( '✓ plugin/service-integration.php' );
		expect( output ).not.toContain( '✗' );
		expect( status ).toBe( 0 );
	}, 180_000 );

	it( 'reports a syntax error with the file and line (the check can fail)', () => {
		const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'php-lint-' ) );
		fs.writeFileSync( path.join( dir, 'broken.php' ), '<?php\nfunction (' );
		const { status, output } = lint( dir );
		expect( output ).toMatch( /✗ .*broken\.php[\s\S]*Parse error: .* on line 2/ );
		expect( status ).toBe( 1 );
	}, 60_000 );
} );

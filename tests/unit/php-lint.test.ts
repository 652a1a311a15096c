import { spawnSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';

/**
 * Runs scripts/lint-php.ts in a child process, as `npm run lint:php` does: `php -l` with the PHP
 * CLI on PATH (Debian's PHP 8.2, which npm test installs with phpunit and php-codesniffer). The
 * release's PHP files are also linted with PHP 8.1, the oldest the header allows, in
 * tests/release/php-lint.test.ts.
 */
const ROOT = path.resolve( __dirname, '..', '..' );

function lint( ...dirs: string[] ): { status: number | null; output: string } {
	const result = spawnSync(
		process.execPath,
		[ '-r', 'ts-node/register/transpile-only', path.join( ROOT, 'scripts', 'lint-php.ts' ), ...dirs ],
		{
			cwd: ROOT,
			encoding: 'utf8',
			timeout: 110_000,
		}
	);
	return { status: result.status, output: result.stdout + result.stderr };
}

describe( 'php -l (the PHP CLI, PHP 8.2)', () => {
	it( 'passes on every PHP file of the plugin and the test fixtures', () => {
		const { status, output } = lint();
		expect( output ).toMatch( /^php -l with PHP 8\.2\.\d+ \(php on PATH\)/ );
		expect( output ).toContain( '✓ plugin/service-integration.php' );
		expect( output ).not.toContain( '✗' );
		expect( status ).toBe( 0 );
	}, 120_000 );

	it( 'reports a syntax error with the file and line (the check can fail)', () => {
		const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'php-lint-' ) );
		fs.writeFileSync( path.join( dir, 'broken.php' ), '<?php\nfunction (' );
		const { status, output } = lint( dir );
		expect( output ).toMatch( /✗ .*broken\.php[\s\S]*Parse error: .* on line 2/ );
		expect( status ).toBe( 1 );
	}, 60_000 );
} );

import { spawn } from 'child_process';
import fs from 'fs';
import path from 'path';
import { unzipToTemp } from '../../scripts/lib/release-check';
import { PLUGIN_SLUG } from '../../scripts/lib/release-build';
import { headerField } from '../../scripts/lib/release-version';
import { currentRelease } from './support/release';

/**
 * Every PHP file of the release zip parses with PHP 8.1, the oldest its header allows (Requires
 * PHP), with `php -l` of PHP 8.1 itself: Debian's PHP is 8.2, which would let through what 8.1
 * refuses (a readonly class, constants in traits, DNF types…). PHP 8.1 runs as WebAssembly
 * (@php-wasm/node-8-1, which @php-wasm/node depends on at its own version), through
 * scripts/lint-php.ts in a child process: php-wasm loads ESM at run time, which jest's module
 * sandbox cannot host.
 */
const ROOT = path.resolve( __dirname, '..', '..' );
const OLDEST_PHP = '8.1';

function lint( php: string, dir: string ): Promise< { status: number | null; output: string } > {
	return new Promise( ( resolve ) => {
		const child = spawn(
			process.execPath,
			[
				'-r',
				'ts-node/register/transpile-only',
				path.join( ROOT, 'scripts', 'lint-php.ts' ),
				`--php=${ php }`,
				dir,
			],
			{ cwd: ROOT, stdio: [ 'ignore', 'pipe', 'pipe' ] }
		);
		let output = '';
		child.stdout.on( 'data', ( chunk: Buffer ) => ( output += chunk.toString() ) );
		child.stderr.on( 'data', ( chunk: Buffer ) => ( output += chunk.toString() ) );
		child.on( 'close', ( status ) => resolve( { status, output } ) );
	} );
}

describe( `php -l with PHP ${ OLDEST_PHP } on the release zip`, () => {
	let dir = '';
	beforeAll( () => {
		dir = unzipToTemp( currentRelease().zip );
	} );
	afterAll( () => {
		fs.rmSync( dir, { recursive: true, force: true } );
	} );

	it( `PHP ${ OLDEST_PHP } is the oldest the plugin's header and readme.txt allow`, () => {
		const plugin = path.join( dir, PLUGIN_SLUG );
		const header = fs.readFileSync( path.join( plugin, `${ PLUGIN_SLUG }.php` ), 'utf8' );
		const readme = fs.readFileSync( path.join( plugin, 'readme.txt' ), 'utf8' );
		expect( [ headerField( header, 'Requires PHP' ), headerField( readme, 'Requires PHP' ) ] ).toEqual( [
			OLDEST_PHP,
			OLDEST_PHP,
		] );
	} );

	it( `every PHP file of the zip parses with PHP ${ OLDEST_PHP }`, async () => {
		const plugin = path.join( dir, PLUGIN_SLUG );
		const { status, output } = await lint( OLDEST_PHP, plugin );
		expect( output ).toMatch(
			new RegExp( `^php -l with PHP ${ OLDEST_PHP.replace( '.', '\\.' ) } \\(WebAssembly\\)` )
		);
		expect( output ).toContain( `✓ ${ path.relative( ROOT, path.join( plugin, `${ PLUGIN_SLUG }.php` ) ) }` );
		expect( output.split( '\n' ).filter( ( line ) => line.startsWith( '✗' ) ) ).toEqual( [] );
		expect( status ).toBe( 0 );
	}, 600_000 );

	it( `finds what PHP ${ OLDEST_PHP } refuses and PHP 8.2 accepts (the check can fail)`, async () => {
		const fixture = fs.mkdtempSync( path.join( dir, 'php82-only-' ) );
		fs.writeFileSync( path.join( fixture, 'readonly-class.php' ), '<?php\nreadonly class Point {}\n' );
		const { status, output } = await lint( OLDEST_PHP, fixture );
		expect( output ).toMatch( /✗ .*readonly-class\.php[\s\S]*Parse error: .*"readonly".* on line 2/ );
		expect( status ).toBe( 1 );
		expect( ( await lint( '8.2', fixture ) ).status ).toBe( 0 );
	}, 120_000 );
} );

import fs from 'fs';
import os from 'os';
import path from 'path';
import { packageVersion, pluginVersionPlaces, syncVersion, versionProblems } from '../../scripts/lib/release-version';
import { SIDECAR_VERSION, readVersion } from '../../sidecar/src/version';

const ROOT = path.resolve( __dirname, '..', '..' );

/** A scratch copy of what the version check reads: package.json, the lock, the plugin's header and readme. */
function scratchTree(): string {
	const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'si-version-' ) );
	fs.mkdirSync( path.join( dir, 'plugin' ) );
	for ( const file of [
		'package.json',
		'package-lock.json',
		'plugin/service-integration.php',
		'plugin/readme.txt',
	] ) {
		fs.copyFileSync( path.join( ROOT, file ), path.join( dir, file ) );
	}
	return dir;
}

describe( 'one version (package.json) for the plugin, its readme and the sidecar', () => {
	const version = packageVersion( ROOT );

	it( 'every copy in the source tree agrees with package.json', () => {
		expect( versionProblems( ROOT ) ).toEqual( [] );
		expect( pluginVersionPlaces( path.join( ROOT, 'plugin' ) ).map( ( place ) => place.value ) ).toEqual( [
			version,
			version,
			version,
		] );
	} );

	it( "the sidecar reports package.json's version (--version, /health, /v1/status)", () => {
		expect( SIDECAR_VERSION ).toBe( version );
	} );

	it( 'an installed sidecar reads its own package.json, one folder above dist/', () => {
		const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'si-pkg-' ) );
		try {
			fs.mkdirSync( path.join( dir, 'dist' ) );
			fs.writeFileSync(
				path.join( dir, 'package.json' ),
				JSON.stringify( { name: 'service-integration-sidecar', version: '9.8.7' } )
			);
			expect( readVersion( path.join( dir, 'dist' ) ) ).toBe( '9.8.7' );
			// Someone else's package.json is not the release's.
			fs.writeFileSync( path.join( dir, 'package.json' ), JSON.stringify( { name: 'other', version: '1.0.0' } ) );
			expect( () => readVersion( path.join( dir, 'dist' ) ) ).toThrow( /No package.json/ );
		} finally {
			fs.rmSync( dir, { recursive: true, force: true } );
		}
	} );

	it( 'names each copy that disagrees, and a missing changelog entry', () => {
		const dir = scratchTree();
		try {
			const pkg = JSON.parse( fs.readFileSync( path.join( dir, 'package.json' ), 'utf8' ) );
			pkg.version = '7.7.7';
			fs.writeFileSync( path.join( dir, 'package.json' ), JSON.stringify( pkg ) );
			const problems = versionProblems( dir );
			for ( const place of [
				'header Version',
				'const VERSION',
				'readme.txt Stable tag',
				'package-lock.json version',
			] ) {
				expect( problems.some( ( problem ) => problem.includes( place ) && problem.includes( '7.7.7' ) ) ).toBe(
					true
				);
			}
			expect( problems.some( ( problem ) => problem.includes( '"= 7.7.7 ="' ) ) ).toBe( true );
		} finally {
			fs.rmSync( dir, { recursive: true, force: true } );
		}
	} );

	it( '--sync-version (npm version\'s "version" script) writes package.json\'s version into the plugin', () => {
		const dir = scratchTree();
		try {
			const pkg = JSON.parse( fs.readFileSync( path.join( dir, 'package.json' ), 'utf8' ) );
			pkg.version = '7.7.8';
			fs.writeFileSync( path.join( dir, 'package.json' ), JSON.stringify( pkg ) );
			expect( syncVersion( dir ).sort() ).toEqual( [ 'plugin/readme.txt', 'plugin/service-integration.php' ] );
			expect( pluginVersionPlaces( path.join( dir, 'plugin' ) ).map( ( place ) => place.value ) ).toEqual( [
				'7.7.8',
				'7.7.8',
				'7.7.8',
			] );
			// Nothing else in those files moved.
			const before = fs
				.readFileSync( path.join( ROOT, 'plugin/service-integration.php' ), 'utf8' )
				.split( version )
				.join( '7.7.8' );
			expect( fs.readFileSync( path.join( dir, 'plugin/service-integration.php' ), 'utf8' ) ).toBe( before );
			expect(
				JSON.parse( fs.readFileSync( path.join( ROOT, 'package.json' ), 'utf8' ) ).scripts.version
			).toContain( '--sync-version' );
		} finally {
			fs.rmSync( dir, { recursive: true, force: true } );
		}
	} );
} );

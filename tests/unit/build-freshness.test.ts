import fs from 'fs';
import os from 'os';
import path from 'path';
import { BUILD_TARGETS, isStale, newestMtimeMs, type BuildTarget } from '../../scripts/lib/build-freshness';

/** `npm start` builds a target only when something it is built from is newer than its output. */
describe( 'build freshness', () => {
	let root: string;
	const target: BuildTarget = {
		name: 'thing',
		script: 'build:thing',
		sources: [ 'src', 'config.json' ],
		output: 'out/index.js',
	};
	const at = ( relative: string, seconds: number ) => {
		const time = new Date( 1_700_000_000_000 + seconds * 1000 );
		fs.utimesSync( path.join( root, relative ), time, time );
	};
	const write = ( relative: string, seconds: number ) => {
		fs.mkdirSync( path.dirname( path.join( root, relative ) ), { recursive: true } );
		fs.writeFileSync( path.join( root, relative ), relative );
		at( relative, seconds );
	};

	beforeEach( () => {
		root = fs.mkdtempSync( path.join( os.tmpdir(), 'build-freshness-' ) );
		write( 'src/a/deep.ts', 10 );
		write( 'src/b.ts', 20 );
		write( 'config.json', 5 );
		at( 'src/a', 10 );
		at( 'src', 10 );
	} );

	afterEach( () => {
		fs.rmSync( root, { recursive: true, force: true } );
	} );

	test( 'stale without an output', () => {
		expect( isStale( root, target ) ).toBe( true );
	} );

	test( 'fresh when the output is newer than every source, stale when a source is newer', () => {
		write( 'out/index.js', 30 );
		expect( isStale( root, target ) ).toBe( false );
		at( 'src/a/deep.ts', 31 );
		expect( isStale( root, target ) ).toBe( true );
	} );

	test( 'a changed source file outside the folders (config) counts', () => {
		write( 'out/index.js', 30 );
		at( 'config.json', 40 );
		expect( isStale( root, target ) ).toBe( true );
	} );

	test( 'a removed or added file counts through its folder’s time', () => {
		write( 'out/index.js', 30 );
		fs.rmSync( path.join( root, 'src/b.ts' ) );
		at( 'src', 35 );
		expect( isStale( root, target ) ).toBe( true );
	} );

	test( 'newestMtimeMs walks folders and ignores paths that do not exist', () => {
		expect( newestMtimeMs( [ path.join( root, 'src' ), path.join( root, 'missing' ) ] ) ).toBe(
			1_700_000_000_000 + 20_000
		);
		expect( newestMtimeMs( [ path.join( root, 'missing' ) ] ) ).toBe( 0 );
	} );

	test( 'the real targets name sources and outputs of this repository', () => {
		const repository = path.resolve( __dirname, '../..' );
		for ( const real of BUILD_TARGETS ) {
			for ( const source of real.sources ) {
				expect( fs.existsSync( path.join( repository, source ) ) ).toBe( true );
			}
			expect(
				JSON.parse( fs.readFileSync( path.join( repository, 'package.json' ), 'utf8' ) ).scripts[ real.script ]
			).toEqual( expect.any( String ) );
		}
	} );
} );

import { spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';

/**
 * What a site runs, chosen from the environment (scripts/lib/site-choice.ts), over builds folders
 * made here: real tar.xz archives with the top folder a release build has, and a SHA256SUMS.
 * The unpacked trees go to a temporary cache, never the checkout's .cache/builds.
 */
const work = fs.mkdtempSync( path.join( os.tmpdir(), 'site-choice-' ) );
const cache = path.join( work, 'cache' );

jest.mock( '../../../scripts/lib/paths', () => ( {
	...jest.requireActual( '../../../scripts/lib/paths' ),
	CACHE_DIR: cache,
} ) );

type SiteChoiceModule = typeof import( '../../../scripts/lib/site-choice' );

/** A builds folder holding the given archives (name -> top folder), with their checksums. */
function buildsFolder( name: string, archives: Record< string, string > ): string {
	const dir = path.join( work, name );
	fs.mkdirSync( dir, { recursive: true } );
	const sums: string[] = [];
	for ( const [ archive, top ] of Object.entries( archives ) ) {
		const tree = fs.mkdtempSync( path.join( work, 'tree-' ) );
		fs.mkdirSync( path.join( tree, top ) );
		fs.writeFileSync( path.join( tree, top, 'marker.txt' ), archive );
		const tar = spawnSync( 'tar', [ '-cJf', path.join( dir, archive ), '-C', tree, top ] );
		expect( tar.status ).toBe( 0 );
		const digest = crypto
			.createHash( 'sha256' )
			.update( fs.readFileSync( path.join( dir, archive ) ) )
			.digest( 'hex' );
		sums.push( `${ digest }  ${ archive }` );
	}
	fs.writeFileSync( path.join( dir, 'SHA256SUMS' ), sums.join( '\n' ) + '\n' );
	return dir;
}

/** site-choice.ts loaded afresh with SERVICE_INTEGRATION_BUILDS_DIR pointing at `dir`. */
function load( dir: string ): SiteChoiceModule {
	process.env.SERVICE_INTEGRATION_BUILDS_DIR = dir;
	let loaded: SiteChoiceModule | undefined;
	jest.isolateModules( () => {
		loaded = jest.requireActual< SiteChoiceModule >( '../../../scripts/lib/site-choice' );
	} );
	return loaded as SiteChoiceModule;
}

const ALL = {
	'wordpress-7.1.tar.xz': 'wordpress',
	'woocommerce-10.0.2.tar.xz': 'woocommerce',
	'woocommerce-9.4.3.tar.xz': 'woocommerce',
};

describe( 'what a site runs (scripts/lib/site-choice.ts)', () => {
	afterAll( () => {
		delete process.env.SERVICE_INTEGRATION_BUILDS_DIR;
		fs.rmSync( work, { recursive: true, force: true } );
	} );

	it( 'runs WordPress 7.1 with WooCommerce 10.0.2 (HPOS) from the builds by default, unpacked once into the cache', () => {
		const { chooseSite } = load( buildsFolder( 'all', ALL ) );
		const site = chooseSite( {} );
		expect( site ).toEqual( {
			wordpress: '7.1',
			wordpressDir: path.join( cache, 'builds', 'wordpress-7.1', 'wordpress' ),
			woocommerceDir: path.join( cache, 'builds', 'woocommerce-10.0.2', 'woocommerce' ),
			orderStorage: 'hpos',
		} );
		expect( fs.readFileSync( path.join( site.woocommerceDir as string, 'marker.txt' ), 'utf8' ) ).toBe(
			'woocommerce-10.0.2.tar.xz'
		);
		// A second choice reads the unpacked tree: a file added there survives.
		fs.writeFileSync( path.join( site.woocommerceDir as string, 'kept.txt' ), 'x' );
		chooseSite( {} );
		expect( fs.existsSync( path.join( site.woocommerceDir as string, 'kept.txt' ) ) ).toBe( true );
	} );

	it( 'runs the oldest supported pair on WordPress 6.5, and a site without a shop when asked', () => {
		const { chooseSite } = load( buildsFolder( 'oldest', ALL ) );
		expect( chooseSite( { WORDPRESS_VERSION: '6.5', WOOCOMMERCE_HPOS: 'off' } ) ).toEqual( {
			wordpress: '6.5',
			wordpressDir: undefined,
			woocommerceDir: path.join( cache, 'builds', 'woocommerce-9.4.3', 'woocommerce' ),
			orderStorage: 'legacy',
		} );
		expect( chooseSite( { WOOCOMMERCE_VERSION: 'none' } ).woocommerceDir ).toBeUndefined();
	} );

	it( 'takes WORDPRESS_DIR and WOOCOMMERCE_DIR over the builds', () => {
		const { chooseSite } = load( buildsFolder( 'dirs', ALL ) );
		expect( chooseSite( { WORDPRESS_DIR: '/srv/wp', WOOCOMMERCE_DIR: '/srv/wc' } ) ).toEqual( {
			wordpress: 'WORDPRESS_DIR',
			wordpressDir: '/srv/wp',
			woocommerceDir: '/srv/wc',
			orderStorage: 'hpos',
		} );
	} );

	it( 'falls back to WordPress 6.5.5 without a shop where no build is at hand, and says how to add one', () => {
		const { chooseSite } = load( path.join( work, 'nothing-here' ) );
		const site = chooseSite( {} );
		expect( [ site.wordpress, site.wordpressDir, site.woocommerceDir ] ).toEqual( [ '6.5', undefined, undefined ] );
		expect( site.note ).toMatch( /nothing-here.*no shop.*WOOCOMMERCE_DIR=/ );
		// Asking for a build that is not there is an error naming it, not a silent fallback.
		expect( () => chooseSite( { WOOCOMMERCE_VERSION: '10.0.2' } ) ).toThrow( /woocommerce-10\.0\.2\.tar\.xz/ );
	} );

	it.each( [
		[ { WORDPRESS_VERSION: '6.9' }, /WORDPRESS_VERSION must be 7\.1 or 6\.5.*"6\.9"/ ],
		[ { WOOCOMMERCE_VERSION: '8.0' }, /WOOCOMMERCE_VERSION must be 10\.0\.2, 9\.4\.3, none.*"8\.0"/ ],
		[ { WOOCOMMERCE_HPOS: 'maybe' }, /WOOCOMMERCE_HPOS must be on .* or off .*"maybe"/ ],
	] )( 'refuses %p, naming the variable and the values it takes', ( env, message ) => {
		const { chooseSite } = load( buildsFolder( 'refusals', ALL ) );
		expect( () => chooseSite( env ) ).toThrow( message );
	} );

	it( 'refuses an archive that does not match SHA256SUMS, and unpacks nothing from it', () => {
		const dir = buildsFolder( 'damaged', ALL );
		fs.appendFileSync( path.join( dir, 'woocommerce-9.4.3.tar.xz' ), 'damage' );
		const { chooseSite } = load( dir );
		expect( () => chooseSite( { WOOCOMMERCE_VERSION: '9.4.3' } ) ).toThrow( /does not match its SHA256SUMS entry/ );
	} );
} );

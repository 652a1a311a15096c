import AdmZip from 'adm-zip';
import fs from 'fs';
import path from 'path';
import { CACHE_DIR, ROOT } from './paths';

/**
 * WordPress core without internet: @wp-playground/wordpress-builds ships core as a
 * zip whose static assets (CSS, JS, images) live apart under public/; merging
 * both gives a complete tree that the Playground runtime installs from.
 */
const BUILDS_DIR = path.join( ROOT, 'node_modules', '@wp-playground', 'wordpress-builds' );
export const WORDPRESS_BRANCH = '6.5';

export function wordpressVersion(): string {
	const versions = JSON.parse(
		fs.readFileSync( path.join( BUILDS_DIR, 'src', 'wordpress', 'wp-versions.json' ), 'utf8' )
	) as Record< string, string >;
	const version = versions[ WORDPRESS_BRANCH ];
	if ( ! version ) {
		throw new Error( `@wp-playground/wordpress-builds has no WordPress ${ WORDPRESS_BRANCH } build` );
	}
	return version;
}

/** Returns the path of a complete WordPress tree, extracting it once. */
export function ensureWordPressCore(): string {
	const version = wordpressVersion();
	const target = path.join( CACHE_DIR, 'wordpress', version );
	const marker = path.join( target, '.service-integration-complete' );
	if ( fs.existsSync( marker ) ) {
		return target;
	}

	fs.rmSync( target, { recursive: true, force: true } );
	fs.mkdirSync( target, { recursive: true } );
	new AdmZip( path.join( BUILDS_DIR, 'src', 'wordpress', `wp-${ WORDPRESS_BRANCH }.zip` ) ).extractAllTo(
		target,
		true
	);
	fs.cpSync( path.join( BUILDS_DIR, 'public', `wp-${ WORDPRESS_BRANCH }` ), target, {
		recursive: true,
		filter: ( source ) => ! source.endsWith( 'wordpress-remote-asset-paths' ),
	} );
	fs.writeFileSync( marker, version );
	return target;
}

/** The version of a WordPress core tree, as its wp-includes/version.php says ($wp_version). */
export function coreTreeVersion( dir: string ): string {
	const source = fs.readFileSync( path.join( dir, 'wp-includes', 'version.php' ), 'utf8' );
	const match = /\$wp_version\s*=\s*'([^']+)'/.exec( source );
	if ( ! match ) {
		throw new Error( `No $wp_version in ${ path.join( dir, 'wp-includes', 'version.php' ) }` );
	}
	return match[ 1 ] as string;
}

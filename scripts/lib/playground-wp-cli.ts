import fs from 'fs';
import path from 'path';
import { wpCliPhar } from './builds';
import { ROOT } from './paths';
import { environmentConfigFile, playgroundBlueprintFile, siteDir } from './wp-env';

/** What WP-CLI needs of a Playground site: the folders its server mounts, its blueprint and its URL. */
export interface PlaygroundSite {
	/** The WordPress tree with the SQLite database (the environment's copy, or WP_ENV_CORE). */
	wordpressDir: string;
	/** Path inside WordPress -> absolute folder: the plugin, WooCommerce, the must-use plugins. */
	mappings: Record< string, string >;
	/** wp-env's blueprint: the wp-config constants the server runs with. */
	blueprint: string;
	siteUrl: string;
	phpVersion: string;
}

/** Where the phar is mounted inside Playground. */
const WP_CLI_MOUNT = '/internal/wp-cli';

/**
 * The command line that runs WP-CLI (the phar of ../shared/builds) in WordPress Playground's
 * own PHP on the site: Playground's `php` command, with the server's mounts and constants and
 * without installing anything. wp-env's `run` does not support the Playground runtime.
 */
export function playgroundWpCliArgs( site: PlaygroundSite, phar: string, wpArgs: string[] ): string[] {
	return [
		path.join( ROOT, 'node_modules', '@wp-playground', 'cli', 'wp-playground.js' ),
		'php',
		'--php',
		site.phpVersion,
		'--site-url',
		site.siteUrl,
		'--blueprint',
		site.blueprint,
		'--wordpress-install-mode',
		'do-not-attempt-installing',
		'--verbosity',
		'quiet',
		'--mount-dir-before-install',
		site.wordpressDir,
		'/wordpress',
		...Object.entries( site.mappings ).flatMap( ( [ target, source ] ) => [
			'--mount-dir',
			source,
			`/wordpress/${ target }`,
		] ),
		'--mount-dir',
		path.dirname( phar ),
		WP_CLI_MOUNT,
		'--',
		`${ WP_CLI_MOUNT }/${ path.basename( phar ) }`,
		'--path=/wordpress',
		...wpArgs,
	];
}

/** The Playground site of an environment `npm start` has started at least once. */
export function readPlaygroundSite( name: string ): PlaygroundSite {
	const file = environmentConfigFile( { name } );
	const blueprint = playgroundBlueprintFile( { name } );
	const wordpressDir = siteDir( { name, runtime: 'playground' } );
	if (
		! fs.existsSync( file ) ||
		! fs.existsSync( blueprint ) ||
		! wordpressDir ||
		! fs.existsSync( wordpressDir )
	) {
		throw new Error(
			`the environment "${ name }" has no Playground site yet: start it once with npm start (Playground runtime)`
		);
	}
	const config = JSON.parse( fs.readFileSync( file, 'utf8' ) ) as {
		port: number;
		phpVersion?: string;
		mappings?: Record< string, string >;
	};
	return {
		wordpressDir,
		mappings: config.mappings ?? {},
		blueprint,
		siteUrl: `http://localhost:${ config.port }`,
		phpVersion: config.phpVersion ?? '8.2',
	};
}

export { wpCliPhar };

import fs from 'fs';
import path from 'path';

/**
 * One version for everything a release ships: the root package.json's "version" (what
 * `npm version <v>` changes). The plugin's header, its VERSION constant (the upgrade gate,
 * Lifecycle::maybe_upgrade) and readme.txt's Stable tag are copies that `npm version` brings
 * along through the "version" script (`scripts/release.ts --sync-version`); the sidecar reads
 * package.json itself (sidecar/src/version.ts). versionProblems() says which copy disagrees.
 */

export interface VersionPlace {
	/** Where, for messages: "plugin/service-integration.php header Version". */
	place: string;
	value: string | null;
}

const HEADER_VERSION = /^([ \t/*#@]*Version:[ \t]*)(\S+)[ \t]*$/m;
const PHP_CONST = /^(const VERSION\s*=\s*')([^']*)(';)/m;
const STABLE_TAG = /^(Stable tag:[ \t]*)(\S+)[ \t]*$/m;

function read( file: string ): string | null {
	return fs.existsSync( file ) ? fs.readFileSync( file, 'utf8' ) : null;
}

export function packageVersion( root: string ): string {
	const pkg = JSON.parse( fs.readFileSync( path.join( root, 'package.json' ), 'utf8' ) ) as { version?: string };
	if ( ! pkg.version || ! /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test( pkg.version ) ) {
		throw new Error(
			`package.json: "version" must be a semantic version such as 1.2.3, got ${ JSON.stringify( pkg.version ) }`
		);
	}
	return pkg.version;
}

/** The version as each shipped plugin file states it (pluginDir: the plugin folder, in the tree or unpacked). */
export function pluginVersionPlaces( pluginDir: string, label = 'plugin' ): VersionPlace[] {
	const main = read( path.join( pluginDir, 'service-integration.php' ) ) ?? '';
	const readme = read( path.join( pluginDir, 'readme.txt' ) ) ?? '';
	return [
		{
			place: `${ label }/service-integration.php header Version`,
			value: HEADER_VERSION.exec( main )?.[ 2 ] ?? null,
		},
		{ place: `${ label }/service-integration.php const VERSION`, value: PHP_CONST.exec( main )?.[ 2 ] ?? null },
		{ place: `${ label }/readme.txt Stable tag`, value: STABLE_TAG.exec( readme )?.[ 2 ] ?? null },
	];
}

/** A readme header field ("Requires at least"), or a plugin header field. */
export function headerField( text: string, field: string ): string | null {
	const escaped = field.replace( /[.*+?^${}()|[\]\\]/g, '\\$&' );
	return new RegExp( `^[ \\t/*#@]*${ escaped }:[ \\t]*(.+?)[ \\t]*$`, 'm' ).exec( text )?.[ 1 ] ?? null;
}

/**
 * Everything that must hold for `version` in a plugin folder: the three copies, a changelog
 * entry for it, and the readme's requirements matching the header's (WordPress.org shows the
 * readme's, WordPress enforces the header's).
 */
export function pluginVersionProblems( pluginDir: string, version: string, label = 'plugin' ): string[] {
	const problems = pluginVersionPlaces( pluginDir, label )
		.filter( ( place ) => place.value !== version )
		.map( ( place ) => `${ place.place } is ${ place.value ?? 'missing' }, package.json says ${ version }` );
	const main = read( path.join( pluginDir, 'service-integration.php' ) ) ?? '';
	const readme = read( path.join( pluginDir, 'readme.txt' ) ) ?? '';
	const changelog = readme.split( /^== Changelog ==\s*$/m )[ 1 ] ?? '';
	if ( ! new RegExp( `^= ${ version.replace( /\./g, '\\.' ) } =\\s*$`, 'm' ).test( changelog ) ) {
		problems.push(
			`${ label }/readme.txt has no "= ${ version } =" entry under "== Changelog ==" (write what changed)`
		);
	}
	for ( const field of [ 'Requires at least', 'Requires PHP' ] ) {
		if ( headerField( main, field ) !== headerField( readme, field ) ) {
			problems.push(
				`${ label }: "${ field }" is ${ headerField( main, field ) } in the header but ${ headerField( readme, field ) } in readme.txt`
			);
		}
	}
	return problems;
}

/** The source tree's disagreements with package.json's version (empty: all agree). */
export function versionProblems( root: string ): string[] {
	const version = packageVersion( root );
	const problems = pluginVersionProblems( path.join( root, 'plugin' ), version );
	const lock = JSON.parse( fs.readFileSync( path.join( root, 'package-lock.json' ), 'utf8' ) ) as {
		version?: string;
		packages?: Record< string, { version?: string } >;
	};
	for ( const [ place, value ] of [
		[ 'package-lock.json version', lock.version ],
		[ 'package-lock.json packages[""].version', lock.packages?.[ '' ]?.version ],
	] as const ) {
		if ( value !== version ) {
			problems.push( `${ place } is ${ value ?? 'missing' }, package.json says ${ version } (run npm install)` );
		}
	}
	return problems;
}

/** Writes package.json's version into the plugin's header, VERSION constant and Stable tag. */
export function syncVersion( root: string ): string[] {
	const version = packageVersion( root );
	const changed: string[] = [];
	const edit = ( relative: string, pattern: RegExp ) => {
		const file = path.join( root, relative );
		const text = fs.readFileSync( file, 'utf8' );
		if ( ! pattern.test( text ) ) {
			throw new Error( `${ relative }: no ${ pattern } to set the version in` );
		}
		const next = text.replace(
			pattern,
			( _all, before: string, _old: string, after?: string ) =>
				`${ before }${ version }${ typeof after === 'string' ? after : '' }`
		);
		if ( next !== text ) {
			fs.writeFileSync( file, next );
			changed.push( relative );
		}
	};
	edit( 'plugin/service-integration.php', HEADER_VERSION );
	edit( 'plugin/service-integration.php', PHP_CONST );
	edit( 'plugin/readme.txt', STABLE_TAG );
	return [ ...new Set( changed ) ];
}

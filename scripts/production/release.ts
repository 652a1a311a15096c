import AdmZip from 'adm-zip';
import { spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { PLUGIN_DIR, ROOT } from '../lib/paths';
import { done, step } from '../lib/progress';

/**
 * The release artifacts the production runtime installs, exactly what a site owner gets:
 *   service-integration-<version>.zip          the plugin (top folder service-integration/)
 *   service-integration-sidecar-<version>.tgz  the sidecar as an npm package
 *   SHA256SUMS                                 their checksums, verified before use
 * They come from `npm run release` (dist/), or from a folder given with --release-dir.
 */
export interface ReleaseArtifacts {
	dir: string;
	version: string;
	pluginZip: string;
	sidecarTarball: string;
	/** sha256 of each file, as verified against SHA256SUMS. */
	checksums: Record< string, string >;
}

export const DIST_DIR = path.join( ROOT, 'dist' );

function sha256( file: string ): string {
	return crypto.createHash( 'sha256' ).update( fs.readFileSync( file ) ).digest( 'hex' );
}

/** Reads a release folder; checks each artifact against SHA256SUMS (`<hex>  <file name>` lines). */
export function readReleaseArtifacts( dir: string ): ReleaseArtifacts {
	const files = fs.existsSync( dir ) ? fs.readdirSync( dir ) : [];
	const zips = files.filter( ( file ) => /^service-integration-\d[^/]*\.zip$/.test( file ) );
	const tarballs = files.filter( ( file ) => /^service-integration-sidecar-\d[^/]*\.tgz$/.test( file ) );
	if ( zips.length !== 1 || tarballs.length !== 1 ) {
		throw new Error( `${ dir } must hold exactly one service-integration-<version>.zip and one service-integration-sidecar-<version>.tgz (found ${ [ ...zips, ...tarballs ].join( ', ' ) || 'none' }): run npm run release` );
	}
	const pluginZip = zips[ 0 ] as string;
	const sidecarTarball = tarballs[ 0 ] as string;
	const version = /^service-integration-(.+)\.zip$/.exec( pluginZip )?.[ 1 ] as string;
	const sidecarVersion = /^service-integration-sidecar-(.+)\.tgz$/.exec( sidecarTarball )?.[ 1 ];
	if ( sidecarVersion !== version ) {
		throw new Error( `${ dir } mixes versions: plugin ${ version }, sidecar ${ sidecarVersion }` );
	}
	const sumsFile = path.join( dir, 'SHA256SUMS' );
	if ( ! fs.existsSync( sumsFile ) ) {
		throw new Error( `${ dir } has no SHA256SUMS` );
	}
	const listed = new Map(
		fs
			.readFileSync( sumsFile, 'utf8' )
			.split( '\n' )
			.map( ( line ) => /^([a-f0-9]{64})\s+\*?(.+)$/.exec( line.trim() ) )
			.filter( ( match ): match is RegExpExecArray => match !== null )
			.map( ( match ) => [ path.basename( match[ 2 ] as string ), match[ 1 ] as string ] )
	);
	const checksums: Record< string, string > = {};
	for ( const file of [ pluginZip, sidecarTarball ] ) {
		const actual = sha256( path.join( dir, file ) );
		if ( listed.get( file ) !== actual ) {
			throw new Error( `${ path.join( dir, file ) } does not match SHA256SUMS (${ listed.get( file ) ?? 'not listed' } listed, ${ actual } on disk)` );
		}
		checksums[ file ] = actual;
	}
	return { dir, version, pluginZip: path.join( dir, pluginZip ), sidecarTarball: path.join( dir, sidecarTarball ), checksums };
}

function hasReleaseScript(): boolean {
	const pkg = JSON.parse( fs.readFileSync( path.join( ROOT, 'package.json' ), 'utf8' ) ) as { scripts?: Record< string, string > };
	return Boolean( pkg.scripts?.release );
}

function run( command: string, args: string[], cwd = ROOT ): void {
	const result = spawnSync( command, args, { cwd, stdio: [ 'ignore', 'inherit', 'inherit' ] } );
	if ( result.status !== 0 ) {
		throw new Error( `\`${ command } ${ args.join( ' ' ) }\` failed (exit ${ result.status ?? result.signal })` );
	}
}

/**
 * Builds the release from this checkout with `npm run release` (into dist/) and reads it.
 * `provisionalDir` is used only while the repository has no release script yet.
 */
export function buildRelease( provisionalDir: string ): ReleaseArtifacts {
	if ( hasReleaseScript() ) {
		step( 'Building the release artifacts: npm run release' );
		run( 'npm', [ 'run', 'release', '--silent' ] );
		const artifacts = readReleaseArtifacts( DIST_DIR );
		done( `${ path.basename( artifacts.pluginZip ) } and ${ path.basename( artifacts.sidecarTarball ) } in ${ DIST_DIR }` );
		return artifacts;
	}
	return buildProvisionalRelease( provisionalDir );
}

/**
 * PROVISIONAL, until `npm run release` exists: the same two artifacts, built the simplest way
 * (admin assets and sidecar compiled, the plugin folder zipped under service-integration/,
 * the sidecar packed with npm pack and its runtime dependencies).
 */
function buildProvisionalRelease( dir: string ): ReleaseArtifacts {
	step( `No npm run release yet: building provisional artifacts in ${ dir }` );
	run( 'npm', [ 'run', 'build', '--silent' ] );
	const version = /^\s*\*\s*Version:\s*(\S+)/m.exec( fs.readFileSync( path.join( PLUGIN_DIR, 'service-integration.php' ), 'utf8' ) )?.[ 1 ] as string;
	fs.rmSync( dir, { recursive: true, force: true } );
	fs.mkdirSync( dir, { recursive: true } );

	const zip = new AdmZip();
	zip.addLocalFolder( PLUGIN_DIR, 'service-integration', ( file ) => ! file.includes( `admin${ path.sep }src` ) );
	const pluginZip = path.join( dir, `service-integration-${ version }.zip` );
	zip.writeZip( pluginZip );

	const pkgDir = path.join( dir, 'sidecar-package' );
	fs.mkdirSync( pkgDir, { recursive: true } );
	fs.cpSync( path.join( ROOT, 'sidecar', 'dist' ), path.join( pkgDir, 'dist' ), { recursive: true } );
	fs.writeFileSync( path.join( pkgDir, 'cli.js' ), "#!/usr/bin/env node\nrequire( './dist/main.js' );\n", { mode: 0o755 } );
	const root = JSON.parse( fs.readFileSync( path.join( ROOT, 'package.json' ), 'utf8' ) ) as { dependencies: Record< string, string >; engines: Record< string, string > };
	fs.writeFileSync(
		path.join( pkgDir, 'package.json' ),
		JSON.stringify( { name: 'service-integration-sidecar', version, license: 'GPL-2.0-or-later', bin: { 'service-integration-sidecar': 'cli.js' }, engines: root.engines, dependencies: root.dependencies }, null, 2 )
	);
	run( 'npm', [ 'pack', '--silent', '--pack-destination', dir ], pkgDir );
	fs.rmSync( pkgDir, { recursive: true, force: true } );
	const tarball = `service-integration-sidecar-${ version }.tgz`;
	fs.writeFileSync( path.join( dir, 'SHA256SUMS' ), [ path.basename( pluginZip ), tarball ].map( ( file ) => `${ sha256( path.join( dir, file ) ) }  ${ file }\n` ).join( '' ) );
	const artifacts = readReleaseArtifacts( dir );
	done( `provisional ${ path.basename( artifacts.pluginZip ) } and ${ tarball }` );
	return artifacts;
}

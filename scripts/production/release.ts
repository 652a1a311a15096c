import { spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { ROOT } from '../lib/paths';
import { step } from '../lib/progress';

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

function sha256( file: string ): string {
	return crypto.createHash( 'sha256' ).update( fs.readFileSync( file ) ).digest( 'hex' );
}

/** Reads a release folder; checks each artifact against SHA256SUMS (`<hex>  <file name>` lines). */
export function readReleaseArtifacts( dir: string ): ReleaseArtifacts {
	const files = fs.existsSync( dir ) ? fs.readdirSync( dir ) : [];
	const zips = files.filter( ( file ) => /^service-integration-\d[^/]*\.zip$/.test( file ) );
	const tarballs = files.filter( ( file ) => /^service-integration-sidecar-\d[^/]*\.tgz$/.test( file ) );
	if ( zips.length !== 1 || tarballs.length !== 1 ) {
		throw new Error(
			`${ dir } must hold exactly one service-integration-<version>.zip and one service-integration-sidecar-<version>.tgz (found ${ [ ...zips, ...tarballs ].join( ', ' ) || 'none' }): run npm run release`
		);
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
			throw new Error(
				`${ path.join( dir, file ) } does not match SHA256SUMS (${ listed.get( file ) ?? 'not listed' } listed, ${ actual } on disk)`
			);
		}
		checksums[ file ] = actual;
	}
	return {
		dir,
		version,
		pluginZip: path.join( dir, pluginZip ),
		sidecarTarball: path.join( dir, sidecarTarball ),
		checksums,
	};
}

function run( command: string, args: string[], cwd = ROOT ): void {
	const result = spawnSync( command, args, { cwd, stdio: [ 'ignore', 'inherit', 'inherit' ] } );
	if ( result.status !== 0 ) {
		throw new Error( `\`${ command } ${ args.join( ' ' ) }\` failed (exit ${ result.status ?? result.signal })` );
	}
}

/**
 * Builds the release from this checkout with `npm run release -- --out=<outDir>` and reads it:
 * the environment's own folder rather than dist/, so a run never reads artifacts another
 * build is rewriting at the same moment.
 */
export function buildRelease( outDir: string ): ReleaseArtifacts {
	step( `Building the release artifacts: npm run release -- --out=${ outDir }` );
	run( 'npm', [ 'run', 'release', '--silent', '--', `--out=${ outDir }` ] );
	return readReleaseArtifacts( outDir );
}

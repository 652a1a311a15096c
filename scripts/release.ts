/**
 * npm run release: the plugin zip, the sidecar's npm package and their SHA-256 checksums,
 * in dist/, from this tree (node_modules installed; nothing is installed here).
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { parseFlags } from './lib/cli-args';
import { ROOT } from './lib/paths';
import { done, fail, step, timed } from './lib/progress';
import { PLUGIN_SLUG } from './lib/release-names';
import { packageVersion, syncVersion, versionProblems } from './lib/release-version';

const HELP = `Usage: npm run release [-- --out=<dir>] [-- --sync-version]

Builds, from this tree, into dist/ (or --out):
  ${ PLUGIN_SLUG }-<version>.zip          the plugin for wp-admin's Upload Plugin (one top folder,
                                          ${ PLUGIN_SLUG }/): PHP, the admin page built by wp-scripts with
                                          its index.asset.php, languages/, uninstall.php, readme.txt
  service-integration-sidecar-<version>.tgz  the sidecar's npm package: compiled JavaScript, the
                                          systemd unit, runtime dependencies pinned by npm-shrinkwrap.json;
                                          npm install -g <tgz> gives the service-integration-sidecar command
  SHA256SUMS                              checksums of both (sha256sum -c SHA256SUMS)

<version> is package.json's "version", the only place it is defined. The release stops when
a copy disagrees (the plugin header's Version, its VERSION constant, readme.txt's Stable tag
and changelog, package-lock.json). To release a new version:
  npm version <x.y.z> --no-git-tag-version   (its "version" script runs --sync-version)
  write the "= x.y.z =" changelog entry in plugin/readme.txt, commit, npm run release

It reuses the installed node_modules (no npm ci) and builds into a temporary folder, so
plugin/build and sidecar/dist are left as they are. It then checks what it made: the zip's
and the package's contents and versions, and the checksums.

Options:
  --out=<dir>       Where to write (default: dist/; emptied first)
  --sync-version    Only copy package.json's version into the plugin header, VERSION and
                    readme.txt's Stable tag, then exit
  --help
`;

function gitDirty( root: string ): string[] {
	try {
		return execFileSync(
			'git',
			[ 'status', '--porcelain', '--', 'plugin', 'sidecar', 'package.json', 'package-lock.json' ],
			{ cwd: root, encoding: 'utf8' }
		)
			.split( '\n' )
			.filter( Boolean );
	} catch {
		return [];
	}
}

function sizeOf( file: string ): string {
	const bytes = fs.statSync( file ).size;
	return bytes > 1024 * 1024
		? `${ ( bytes / 1024 / 1024 ).toFixed( 1 ) } MB`
		: `${ ( bytes / 1024 ).toFixed( 1 ) } KB`;
}

async function main(): Promise< void > {
	let flags: Record< string, string | true >;
	try {
		flags = parseFlags( process.argv.slice( 2 ), [ 'help', 'out', 'sync-version' ] );
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	if ( flags.help ) {
		process.stdout.write( HELP );
		return;
	}
	if ( flags[ 'sync-version' ] ) {
		const changed = syncVersion( ROOT );
		done(
			changed.length
				? `version ${ packageVersion( ROOT ) } written to ${ changed.join( ', ' ) }`
				: `every copy already says ${ packageVersion( ROOT ) }`
		);
		return;
	}
	if ( flags.out === true ) {
		return fail( '--out needs a folder: --out=<dir>' );
	}
	const outDir = path.resolve( ROOT, typeof flags.out === 'string' ? flags.out : 'dist' );
	const started = Date.now();

	step( 'Checking the version' );
	const version = packageVersion( ROOT );
	const problems = versionProblems( ROOT );
	if ( problems.length ) {
		return fail(
			`The version copies disagree with package.json (${ version }):\n  ${ problems.join( '\n  ' ) }\nRun npm run release -- --sync-version, or npm version <x.y.z>.`
		);
	}
	done( `version ${ version }` );
	const dirty = gitDirty( ROOT );
	if ( dirty.length ) {
		process.stdout.write(
			`  ! uncommitted changes are included (a release is normally made from a clean checkout):\n    ${ dirty.join( '\n    ' ) }\n`
		);
	}

	// Loaded once --help is answered (zip and tar handling take a while to load).
	const [
		{ buildAdmin, buildSidecar, packSidecar, sourceDate, stagePlugin, stageSidecar, writeChecksums, zipPlugin },
		{ checkChecksums, checkPluginZip, checkSidecarTarball },
	] = await Promise.all( [ import( './lib/release-build' ), import( './lib/release-check' ) ] );
	const work = fs.mkdtempSync( path.join( os.tmpdir(), 'si-release-' ) );
	try {
		step( 'Building the admin page (wp-scripts) and the sidecar (tsc), side by side' );
		await Promise.all( [
			timed( 'admin page built', () => buildAdmin( ROOT, path.join( work, 'admin-build' ) ) ),
			timed( 'sidecar compiled', () => buildSidecar( ROOT, path.join( work, 'sidecar-build' ) ) ),
		] );

		fs.rmSync( outDir, { recursive: true, force: true } );
		fs.mkdirSync( outDir, { recursive: true } );

		step( 'Packing the plugin zip' );
		const zipFile = path.join( outDir, `${ PLUGIN_SLUG }-${ version }.zip` );
		stagePlugin( ROOT, path.join( work, 'admin-build' ), path.join( work, 'plugin' ) );
		zipPlugin( path.join( work, 'plugin' ), PLUGIN_SLUG, zipFile, sourceDate( ROOT ) );
		done( `${ path.relative( ROOT, zipFile ) } (${ sizeOf( zipFile ) })` );

		step( 'Packing the sidecar package (npm pack)' );
		const { dependencies } = await timed( 'staged, dependencies pinned from package-lock.json', () =>
			stageSidecar( {
				root: ROOT,
				version,
				compiled: path.join( work, 'sidecar-build' ),
				stageDir: path.join( work, 'sidecar' ),
			} )
		);
		const tgz = await packSidecar( path.join( work, 'sidecar' ), outDir );
		done(
			`${ path.relative( ROOT, tgz ) } (${ sizeOf( tgz ) }; dependencies: ${ Object.keys( dependencies ).join( ', ' ) })`
		);

		step( 'Checksums and checks' );
		const sums = writeChecksums( [ zipFile, tgz ], path.join( outDir, 'SHA256SUMS' ) );
		const rootDependencies = (
			JSON.parse( fs.readFileSync( path.join( ROOT, 'package.json' ), 'utf8' ) ) as {
				dependencies: Record< string, string >;
			}
		 ).dependencies;
		const found = [
			...checkPluginZip( zipFile, version ),
			...checkSidecarTarball( tgz, version, rootDependencies ),
			...checkChecksums( outDir, [ zipFile, tgz ] ),
		];
		if ( found.length ) {
			return fail( `The artifacts are wrong:\n  ${ found.join( '\n  ' ) }` );
		}
		done( 'contents, versions and checksums checked' );
		process.stdout.write(
			`\n${ path.relative( ROOT, outDir ) }/SHA256SUMS:\n${ sums }\nRelease ${ version } built in ${ ( ( Date.now() - started ) / 1000 ).toFixed( 0 ) } s.\n`
		);
	} finally {
		fs.rmSync( work, { recursive: true, force: true } );
	}
}

main().catch( ( error: Error ) => fail( error.message ) );

import { execFileSync, spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { CACHE_DIR, ROOT } from '../../../scripts/lib/paths';
import {
	PLUGIN_SLUG,
	SIDECAR_PACKAGE,
	buildAdmin,
	buildSidecar,
	packSidecar,
	stagePlugin,
	stageSidecar,
	writeChecksums,
	zipPlugin,
} from '../../../scripts/lib/release-build';

/**
 * The release tests' own folder and ports, apart from the e2e suite's and from dist/ (which
 * the production runtime of another run may be reading):
 *   RELEASE_ENV_NAME       folder .cache/release-test/<name>/ and production environment <name>-upgrade (default release)
 *   RELEASE_PORT_BASE      first of six loopback ports (default 8951): WordPress, sidecar, PHP-FPM,
 *                          MariaDB for the upgrade test; the installed sidecar of the artifacts test at +5
 *   RELEASE_ARTIFACTS      a folder already holding this tree's release (zip, tgz, SHA256SUMS): skip building it
 *   RELEASE_UPGRADE_FROM   the earlier commit the upgrade test starts from (default: the last commit before the release work)
 */
export const RELEASE_ENV_NAME = process.env.RELEASE_ENV_NAME || 'release';
export const RELEASE_PORT_BASE = Number( process.env.RELEASE_PORT_BASE || 8951 );
export const RELEASE_TEST_DIR = path.join( CACHE_DIR, 'release-test', RELEASE_ENV_NAME );
const STATE_FILE = path.join( RELEASE_TEST_DIR, 'state.json' );

/** 0.1.0, the last commit before issue 13 (packaging): what sites ran before the first release. */
export const DEFAULT_UPGRADE_FROM = '28d0384';

export interface ReleaseState {
	dir: string;
	version: string;
	zip: string;
	tgz: string;
}

export function packageVersion(): string {
	return ( JSON.parse( fs.readFileSync( path.join( ROOT, 'package.json' ), 'utf8' ) ) as { version: string } )
		.version;
}

export function releaseFiles( dir: string, version: string ): ReleaseState {
	return {
		dir,
		version,
		zip: path.join( dir, `${ PLUGIN_SLUG }-${ version }.zip` ),
		tgz: path.join( dir, `${ SIDECAR_PACKAGE }-${ version }.tgz` ),
	};
}

/** Global setup: `npm run release -- --out=<dir>` once per run, as a release manager runs it (or RELEASE_ARTIFACTS). */
export function buildCurrentRelease(): ReleaseState {
	const version = packageVersion();
	let dir = process.env.RELEASE_ARTIFACTS ? path.resolve( process.env.RELEASE_ARTIFACTS ) : '';
	if ( ! dir ) {
		dir = path.join( RELEASE_TEST_DIR, 'current' );
		const result = spawnSync( 'npm', [ 'run', 'release', '--silent', '--', `--out=${ dir }` ], {
			cwd: ROOT,
			stdio: [ 'ignore', 'inherit', 'inherit' ],
		} );
		if ( result.status !== 0 ) {
			throw new Error( `npm run release failed (exit ${ result.status ?? result.signal })` );
		}
	}
	const state = releaseFiles( dir, version );
	for ( const file of [ state.zip, state.tgz, path.join( dir, 'SHA256SUMS' ) ] ) {
		if ( ! fs.existsSync( file ) ) {
			throw new Error( `${ file } is missing` );
		}
	}
	fs.mkdirSync( RELEASE_TEST_DIR, { recursive: true } );
	fs.writeFileSync( STATE_FILE, JSON.stringify( state, null, 2 ) );
	return state;
}

export function currentRelease(): ReleaseState {
	return JSON.parse( fs.readFileSync( STATE_FILE, 'utf8' ) ) as ReleaseState;
}

/**
 * The artifacts an earlier commit would have been released as, built from `git archive <commit>`
 * with this tree's node_modules linked in (no second npm ci) by the same steps as `npm run
 * release`. Outside the repository (jest would otherwise see a second copy of the project), and
 * kept per commit and version of the build steps, so later runs reuse them.
 */
export async function buildEarlierRelease( commit: string ): Promise< ReleaseState & { commit: string } > {
	const full = execFileSync( 'git', [ 'rev-parse', '--verify', `${ commit }^{commit}` ], {
		cwd: ROOT,
		encoding: 'utf8',
	} ).trim();
	const steps = crypto
		.createHash( 'sha256' )
		.update( fs.readFileSync( path.join( ROOT, 'scripts', 'lib', 'release-build.ts' ) ) )
		.digest( 'hex' )
		.slice( 0, 8 );
	const dir = path.join( os.tmpdir(), 'service-integration-release-test', `${ full.slice( 0, 12 ) }-${ steps }` );
	const tree = path.join( dir, 'tree' );
	const out = path.join( dir, 'release' );
	const version = /^\s*\*\s*Version:\s*(\S+)/m.exec(
		execFileSync( 'git', [ 'show', `${ full }:plugin/service-integration.php` ], { cwd: ROOT, encoding: 'utf8' } )
	)?.[ 1 ] as string;
	const state = { ...releaseFiles( out, version ), commit: full };
	if ( fs.existsSync( path.join( out, 'SHA256SUMS' ) ) ) {
		return state;
	}
	fs.rmSync( dir, { recursive: true, force: true } );
	fs.mkdirSync( tree, { recursive: true } );
	execFileSync( 'sh', [ '-c', `git archive --format=tar ${ full } | tar -x -C "${ tree }"` ], { cwd: ROOT } );
	fs.symlinkSync( path.join( ROOT, 'node_modules' ), path.join( tree, 'node_modules' ), 'dir' );
	const hasOwnRelease = fs.existsSync( path.join( tree, 'scripts', 'release.ts' ) );
	if ( hasOwnRelease ) {
		// A commit with `npm run release` builds its own artifacts, as its release manager did.
		execFileSync( 'npm', [ 'run', 'release', '--silent', '--', `--out=${ out }` ], {
			cwd: tree,
			stdio: [ 'ignore', 'inherit', 'inherit' ],
		} );
		return state;
	}
	const work = path.join( dir, 'work' );
	await Promise.all( [
		buildAdmin( tree, path.join( work, 'admin-build' ) ),
		buildSidecar( tree, path.join( work, 'sidecar-build' ) ),
	] );
	stagePlugin( tree, path.join( work, 'admin-build' ), path.join( work, 'plugin' ), { requireReadme: false } );
	fs.mkdirSync( out, { recursive: true } );
	zipPlugin(
		path.join( work, 'plugin' ),
		PLUGIN_SLUG,
		state.zip,
		new Date(
			Number(
				execFileSync( 'git', [ 'log', '-1', '--format=%ct', full ], { cwd: ROOT, encoding: 'utf8' } ).trim()
			) * 1000
		)
	);
	await stageSidecar( {
		root: tree,
		version,
		compiled: path.join( work, 'sidecar-build' ),
		stageDir: path.join( work, 'sidecar' ),
		legacy: true,
	} );
	const tgz = await packSidecar( path.join( work, 'sidecar' ), out );
	writeChecksums( [ state.zip, tgz ], path.join( out, 'SHA256SUMS' ) );
	fs.rmSync( work, { recursive: true, force: true } );
	return state;
}

/**
 * The environment of a shell on a machine with Node and nothing of this repository: this
 * process's, minus what `npm test` and this checkout add (npm_* variables, node_modules/.bin
 * on PATH, ts-node's and Node's module settings). The machine's own network settings (proxies,
 * CA certificates) stay, as they would on a server.
 */
export function cleanEnv( extra: Record< string, string > = {} ): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for ( const [ name, value ] of Object.entries( process.env ) ) {
		if (
			value === undefined ||
			/^(npm_|TS_NODE_|JEST_|SIDECAR_|E2E_|RELEASE_)/i.test( name ) ||
			[ 'NODE_OPTIONS', 'NODE_PATH', 'INIT_CWD', 'NODE_ENV' ].includes( name )
		) {
			continue;
		}
		env[ name ] =
			name === 'PATH'
				? value
						.split( path.delimiter )
						.filter( ( dir ) => ! path.resolve( dir ).startsWith( ROOT + path.sep ) )
						.join( path.delimiter )
				: value;
	}
	return { ...env, ...extra };
}

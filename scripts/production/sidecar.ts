import { spawnSync } from 'child_process';
import fs from 'fs';
import path from 'path';
import { waitForSidecar } from '../lib/sidecar-process';
import type { ProductionLayout } from './layout';
import type { ReleaseArtifacts } from './release';
import { spawnDetached, stopService, type ServiceProcess } from './services';

/**
 * The sidecar FROM THE RELEASE TARBALL: `npm install -g --prefix <prefix> <tgz>` into a
 * prefix of its own (as `npm install -g` puts it in /usr/local on a server), then its bin
 * `service-integration-sidecar` runs it. Nothing from this checkout's sidecar/ is used.
 */
export const SIDECAR_BIN_NAME = 'service-integration-sidecar';

/**
 * One prefix per tarball checksum: the same bytes install the same files, so a second start
 * with an unchanged tarball reuses the install (better-sqlite3 compiles for ~70 s here);
 * a changed tarball, or `fresh`, gets a new prefix.
 */
export function installSidecar( layout: ProductionLayout, artifacts: ReleaseArtifacts, fresh: boolean ): { prefix: string; bin: string; reused: boolean } {
	const checksum = artifacts.checksums[ path.basename( artifacts.sidecarTarball ) ] as string;
	const prefix = path.join( layout.sidecar.dir, `prefix-${ checksum.slice( 0, 16 ) }` );
	const bin = path.join( prefix, 'bin', SIDECAR_BIN_NAME );
	const marker = path.join( prefix, '.installed-from' );
	// Older prefixes (other tarballs) go.
	for ( const entry of fs.existsSync( layout.sidecar.dir ) ? fs.readdirSync( layout.sidecar.dir ) : [] ) {
		if ( entry.startsWith( 'prefix-' ) && path.join( layout.sidecar.dir, entry ) !== prefix ) {
			fs.rmSync( path.join( layout.sidecar.dir, entry ), { recursive: true, force: true } );
		}
	}
	if ( ! fresh && fs.existsSync( marker ) && fs.existsSync( bin ) ) {
		return { prefix, bin, reused: true };
	}
	fs.rmSync( prefix, { recursive: true, force: true } );
	fs.mkdirSync( prefix, { recursive: true } );
	const result = spawnSync( 'npm', [ 'install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', artifacts.sidecarTarball ], {
		// Outside the checkout, so nothing resolves from this repository's node_modules.
		cwd: prefix,
		encoding: 'utf8',
	} );
	if ( result.status !== 0 || ! fs.existsSync( bin ) ) {
		throw new Error( `npm install -g --prefix ${ prefix } ${ artifacts.sidecarTarball } failed (exit ${ result.status ?? result.signal }):\n${ result.stdout }${ result.stderr }` );
	}
	fs.writeFileSync( marker, `${ artifacts.sidecarTarball }\n${ checksum }\n` );
	return { prefix, bin, reused: false };
}

export function sidecarProcess( layout: ProductionLayout ): ServiceProcess {
	return {
		pidFile: layout.sidecar.pidFile,
		// The bin's path (under this environment's prefix) is in its command line; its data folder in its environment.
		identity: { label: 'the sidecar', cmdline: [ path.join( layout.sidecar.dir, 'prefix-' ) ], environ: [ `SIDECAR_DATA_DIR=${ layout.sidecar.dataDir }` ] },
	};
}

/** How this environment runs its sidecar (also what the e2e suite uses to restart it). */
export interface SidecarCommand {
	command: string;
	args: string[];
	env: Record< string, string >;
	log: string;
	pidFile: string;
}

/**
 * The sidecar's settings as environment variables: its port on loopback, data folder, shared
 * key file, the site's URL (notices) and any extras (the e2e suite's private CIDRs, fast retries).
 */
export function sidecarCommand( layout: ProductionLayout, bin: string, port: number, siteUrl: string, extraEnv: NodeJS.ProcessEnv = {} ): SidecarCommand {
	const env: Record< string, string > = {
		SIDECAR_HOST: '127.0.0.1',
		SIDECAR_PORT: String( port ),
		SIDECAR_DATA_DIR: layout.sidecar.dataDir,
		SIDECAR_SHARED_KEY_FILE: layout.sidecar.sharedKeyFile,
		SIDECAR_WORDPRESS_URL: siteUrl,
	};
	for ( const [ name, value ] of Object.entries( extraEnv ) ) {
		if ( value !== undefined ) {
			env[ name ] = value;
		}
	}
	return { command: bin, args: startArgs( bin ), env, log: layout.sidecar.log, pidFile: layout.sidecar.pidFile };
}

/** `service-integration-sidecar start` when the bin has that command (npm run release's CLI); the provisional bin takes none. */
function startArgs( bin: string ): string[] {
	const help = spawnSync( bin, [ '--help' ], { encoding: 'utf8' } );
	return /^\s+start\b/m.test( help.stdout ?? '' ) ? [ 'start' ] : [];
}

/** Starts the sidecar detached, pid recorded; resolves once /health answers with its pid. */
export async function startSidecarProcess( command: SidecarCommand ): Promise< number > {
	fs.mkdirSync( command.env.SIDECAR_DATA_DIR as string, { recursive: true } );
	const child = spawnDetached( command.command, command.args, command.log, { pidFile: command.pidFile, identity: { label: 'the sidecar', cmdline: [] } }, {
		// PATH for the bin's `#!/usr/bin/env node`; HOME for npm-installed code that looks at it.
		PATH: process.env.PATH,
		HOME: process.env.HOME,
		...command.env,
	} );
	await waitForSidecar( `http://127.0.0.1:${ command.env.SIDECAR_PORT }`, child );
	return child.pid as number;
}

export async function stopSidecarProcess( layout: ProductionLayout ): Promise< string | undefined > {
	return stopService( sidecarProcess( layout ), 15_000 );
}

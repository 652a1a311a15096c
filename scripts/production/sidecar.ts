import { spawnSync } from 'child_process';
import fs from 'fs';
import path from 'path';
import { CACHE_DIR } from '../lib/paths';
import { ensureSharedKey } from '../lib/shared-key';
import { SIDECAR_HEAP_FLAGS } from '../lib/sidecar-command';
import { waitForSidecar } from '../lib/sidecar-process';
import type { ProductionLayout } from './layout';
import type { ReleaseArtifacts } from './release';
import { spawnDetached, stopService, type Database, type ServiceProcess } from './services';

/**
 * The sidecar FROM THE RELEASE TARBALL: `npm install -g --prefix <prefix> <tgz>` into a
 * prefix of its own (as `npm install -g` puts it in /usr/local on a server), then its bin
 * `service-integration-sidecar` runs it. Nothing from this checkout's sidecar/ is used.
 */
export const SIDECAR_BIN_NAME = 'service-integration-sidecar';

/** Where installs of sidecar tarballs are kept, one prefix per tarball checksum, shared by environments. */
export const SIDECAR_INSTALLS = path.join( CACHE_DIR, 'production-sidecar' );

/**
 * One prefix per tarball checksum: the same bytes install the same files, so a later start
 * with an unchanged tarball (any environment) reuses the install; better-sqlite3 compiles from
 * source for 1-6 minutes on this machine. `fresh` installs into a new prefix of the
 * environment's own instead.
 */
export function installSidecar(
	layout: ProductionLayout,
	artifacts: ReleaseArtifacts,
	fresh: boolean
): { prefix: string; bin: string; reused: boolean } {
	const checksum = artifacts.checksums[ path.basename( artifacts.sidecarTarball ) ] as string;
	const prefix = fresh
		? path.join( layout.sidecar.dir, 'prefix' )
		: path.join( SIDECAR_INSTALLS, checksum.slice( 0, 16 ) );
	const bin = path.join( prefix, 'bin', SIDECAR_BIN_NAME );
	const marker = path.join( prefix, '.installed-from' );
	if ( ! fresh && fs.existsSync( marker ) && fs.existsSync( bin ) ) {
		return { prefix, bin, reused: true };
	}
	// Installed beside the final place, then renamed: a concurrent start never sees half an install.
	const staging = `${ prefix }.partial-${ process.pid }`;
	fs.rmSync( staging, { recursive: true, force: true } );
	fs.mkdirSync( staging, { recursive: true } );
	const result = spawnSync(
		'npm',
		[ 'install', '-g', '--prefix', staging, '--no-audit', '--no-fund', artifacts.sidecarTarball ],
		{
			// Outside the checkout, so nothing resolves from this repository's node_modules.
			cwd: staging,
			encoding: 'utf8',
		}
	);
	if ( result.status !== 0 || ! fs.existsSync( path.join( staging, 'bin', SIDECAR_BIN_NAME ) ) ) {
		fs.rmSync( staging, { recursive: true, force: true } );
		throw new Error(
			`npm install -g --prefix ${ staging } ${ artifacts.sidecarTarball } failed (exit ${ result.status ?? result.signal }):\n${ result.stdout }${ result.stderr }`
		);
	}
	fs.writeFileSync( path.join( staging, '.installed-from' ), `${ artifacts.sidecarTarball }\n${ checksum }\n` );
	fs.rmSync( prefix, { recursive: true, force: true } );
	fs.mkdirSync( path.dirname( prefix ), { recursive: true } );
	fs.renameSync( staging, prefix );
	return { prefix, bin, reused: false };
}

/**
 * The environment's sidecar process: a bin installed from a tarball, started with this variable
 * naming the environment (the sidecar ignores it; it tells our process from another).
 */
const OWNER_VARIABLE = 'SERVICE_INTEGRATION_PRODUCTION_ROOT';

/**
 * Which of the environment's sidecars: the one WordPress talks to, or the second instance that
 * runs beside it on the shared store (same config, its own port, log and pid file).
 */
export type SidecarInstance = 'first' | 'peer';

export function sidecarProcess( layout: ProductionLayout, instance: SidecarInstance = 'first' ): ServiceProcess {
	return {
		pidFile: instance === 'first' ? layout.sidecar.pidFile : layout.sidecar.peer.pidFile,
		identity: {
			label: instance === 'first' ? 'the sidecar' : 'the second sidecar',
			cmdline: [ `bin/${ SIDECAR_BIN_NAME }` ],
			environ: [ `${ OWNER_VARIABLE }=${ layout.root }` ],
		},
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

function runBin( bin: string, args: string[] ): string {
	const result = spawnSync( bin, args, {
		encoding: 'utf8',
		env: { PATH: process.env.PATH, HOME: process.env.HOME },
	} );
	if ( result.status !== 0 ) {
		throw new Error(
			`${ SIDECAR_BIN_NAME } ${ args.join( ' ' ) } failed (exit ${ result.status ?? result.signal }):\n${ result.stdout }${ result.stderr }`
		);
	}
	return result.stdout;
}

/** What `init` set up: the wp-config.php lines it printed, the key, and how to start the sidecar. */
export interface SidecarSetup {
	wpConfigLines: string[];
	sharedKey: string;
	/** Arguments of the bin, and settings given by environment (an earlier release without `init` takes them all that way). */
	args: string[];
	env: Record< string, string >;
}

/**
 * `service-integration-sidecar init`, as docs/production.md tells a site owner: writes
 * config.json and a shared key (0600) into the config folder and prints the two lines for
 * wp-config.php, which are used as printed; then `start --config <config.json>` runs it (what
 * the systemd unit runs). A config folder from an earlier start is rewritten (--force) with
 * its key kept. An earlier release's bin (0.1.0, before `init`; the upgrade test installs one)
 * is configured the way it documented: SIDECAR_* environment variables, the same key file.
 */
export function initSidecar( layout: ProductionLayout, bin: string, port: number, siteUrl: string ): SidecarSetup {
	const { sidecar } = layout;
	if ( ! /^\s+init\s/m.test( runBin( bin, [ '--help' ] ) ) ) {
		const sharedKey = ensureSharedKey( sidecar.sharedKeyFile );
		return {
			wpConfigLines: [
				`define( 'SERVICE_INTEGRATION_SIDECAR_URL', 'http://127.0.0.1:${ port }' );`,
				`define( 'SERVICE_INTEGRATION_SIDECAR_KEY', '${ sharedKey }' );`,
			],
			sharedKey,
			args: [],
			env: {
				SIDECAR_HOST: '127.0.0.1',
				SIDECAR_PORT: String( port ),
				SIDECAR_DATA_DIR: sidecar.dataDir,
				SIDECAR_SHARED_KEY_FILE: sidecar.sharedKeyFile,
				SIDECAR_WORDPRESS_URL: siteUrl,
			},
		};
	}
	const out = runBin( bin, [
		'init',
		'--config-dir',
		sidecar.configDir,
		'--host',
		'127.0.0.1',
		'--port',
		String( port ),
		'--data-dir',
		sidecar.dataDir,
		'--wordpress-url',
		siteUrl,
		...( fs.existsSync( sidecar.configFile ) ? [ '--force' ] : [] ),
	] );
	const wpConfigLines = out
		.split( '\n' )
		.filter( ( line ) => /^define\( 'SERVICE_INTEGRATION_SIDECAR_(URL|KEY)'/.test( line ) );
	if ( wpConfigLines.length !== 2 ) {
		throw new Error( `${ SIDECAR_BIN_NAME } init printed no wp-config.php lines:\n${ out }` );
	}
	return {
		wpConfigLines,
		sharedKey: fs.readFileSync( sidecar.sharedKeyFile, 'utf8' ).trim(),
		args: [ 'start', '--config', sidecar.configFile ],
		env: {},
	};
}

/**
 * The command that runs the sidecar, its output appended to the environment's sidecar log.
 * `extraEnv` adds SIDECAR_* settings over the config file's (the e2e suite's private CIDRs and
 * fast retries). NODE_OPTIONS caps the heap as the systemd unit does.
 */
export function sidecarCommand(
	layout: ProductionLayout,
	bin: string,
	setup: SidecarSetup,
	extraEnv: NodeJS.ProcessEnv = {}
): SidecarCommand {
	const env: Record< string, string > = {
		NODE_OPTIONS: SIDECAR_HEAP_FLAGS.join( ' ' ),
		...setup.env,
		[ OWNER_VARIABLE ]: layout.root,
	};
	for ( const [ name, value ] of Object.entries( extraEnv ) ) {
		if ( value !== undefined ) {
			env[ name ] = value;
		}
	}
	return { command: bin, args: setup.args, env, log: layout.sidecar.log, pidFile: layout.sidecar.pidFile };
}

/** Starts the sidecar detached, pid recorded; resolves once /health answers with its pid. */
export async function startSidecarProcess( command: SidecarCommand, url: string ): Promise< number > {
	const child = spawnDetached(
		command.command,
		command.args,
		command.log,
		{ pidFile: command.pidFile, identity: { label: 'the sidecar', cmdline: [] } },
		{
			// PATH for the bin's `#!/usr/bin/env node`; nothing else from this process's environment.
			PATH: process.env.PATH,
			HOME: process.env.HOME,
			...command.env,
		}
	);
	await waitForSidecar( url, child );
	return child.pid as number;
}

/** The second instance's command: the first's, on its own port, log and pid file. */
export function peerCommand( layout: ProductionLayout, command: SidecarCommand, port: number ): SidecarCommand {
	return {
		...command,
		env: { ...command.env, SIDECAR_PORT: String( port ) },
		log: layout.sidecar.peer.log,
		pidFile: layout.sidecar.peer.pidFile,
	};
}

/** A shared store's database as the sidecar's SIDECAR_DATABASE_URL. */
export function sidecarDatabaseUrl( database: Database ): string {
	return `mysql://${ database.user }:${ encodeURIComponent( database.password ) }@${ database.host }:${ database.port }/${ database.name }`;
}

/** Stops the environment's sidecars (the peer, when there is one, then the first). */
export async function stopSidecarProcess( layout: ProductionLayout ): Promise< string | undefined > {
	const stopped: string[] = [];
	for ( const instance of [ 'peer', 'first' ] as const ) {
		const line = await stopService( sidecarProcess( layout, instance ), 15_000 );
		if ( line ) {
			stopped.push( line );
		}
	}
	return stopped.length > 0 ? stopped.join( ', ' ) : undefined;
}

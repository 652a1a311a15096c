import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import path from 'path';
import { ROOT } from './paths';
import { sidecarNodeArgs } from './sidecar-command';

export interface SidecarOptions {
	port: number;
	dataDir: string;
	sharedKeyFile: string;
	logFile?: string;
	extraEnv?: NodeJS.ProcessEnv;
	/**
	 * In a process group of its own, so a Ctrl-C in the terminal that started it does not reach
	 * it (`npm run sidecar -- start`, which exits once the sidecar answers, spawns it so).
	 */
	detached?: boolean;
}

/** The prefix of every sidecar setting's environment variable (sidecar/src/config.ts). */
const SETTING_PREFIX = 'SIDECAR_';

/**
 * The environment the sidecar runs with: `base` (this process's by default), then what every
 * local sidecar gets (loopback, its port, data folder and shared key file), then extraEnv.
 */
export function sidecarEnvironment(
	options: SidecarOptions,
	base: NodeJS.ProcessEnv = process.env
): NodeJS.ProcessEnv {
	return {
		...base,
		TS_NODE_PROJECT: path.join( ROOT, 'tsconfig.json' ),
		SIDECAR_HOST: '127.0.0.1',
		SIDECAR_PORT: String( options.port ),
		SIDECAR_DATA_DIR: options.dataDir,
		SIDECAR_SHARED_KEY_FILE: options.sharedKeyFile,
		...options.extraEnv,
	};
}

/** The sidecar's settings in an environment: its SIDECAR_* variables that have a value. */
export function sidecarSettings( env: NodeJS.ProcessEnv ): Record< string, string > {
	return Object.fromEntries(
		Object.entries( env ).filter(
			( entry ): entry is [ string, string ] =>
				entry[ 0 ].startsWith( SETTING_PREFIX ) && entry[ 1 ] !== undefined
		)
	);
}

/** An environment without any sidecar setting, so that only recorded settings apply to a sidecar started again. */
export function withoutSidecarSettings( env: NodeJS.ProcessEnv ): NodeJS.ProcessEnv {
	return Object.fromEntries( Object.entries( env ).filter( ( [ name ] ) => ! name.startsWith( SETTING_PREFIX ) ) );
}

/** Starts the sidecar as a child process (compiled when built, else through ts-node). */
export function spawnSidecar( options: SidecarOptions, base: NodeJS.ProcessEnv = process.env ): ChildProcess {
	fs.mkdirSync( options.dataDir, { recursive: true } );
	const out = options.logFile ? fs.openSync( options.logFile, 'a' ) : 'inherit';
	return spawn( process.execPath, sidecarNodeArgs(), {
		cwd: ROOT,
		stdio: [ 'ignore', out, out ],
		env: sidecarEnvironment( options, base ),
		detached: options.detached ?? false,
	} );
}

/** Polls /health until the sidecar answers, or fails with the reason. */
export async function waitForSidecar( url: string, child?: ChildProcess, timeoutMs = 30_000 ): Promise< void > {
	const deadline = Date.now() + timeoutMs;
	let lastError = 'no answer yet';
	while ( Date.now() < deadline ) {
		if ( child && child.exitCode !== null ) {
			throw new Error( `the sidecar exited with code ${ child.exitCode } before it was ready` );
		}
		try {
			const response = await fetch( `${ url }/health` );
			const health = ( await response.json() ) as { pid?: number };
			if ( response.ok && ( ! child || health.pid === child.pid ) ) {
				return;
			}
			lastError = response.ok
				? `another process (pid ${ health.pid }) answers on ${ url }: stop it or choose another port`
				: `HTTP ${ response.status }`;
		} catch ( error ) {
			lastError = ( error as Error ).message;
		}
		await new Promise( ( r ) => setTimeout( r, 250 ) );
	}
	throw new Error( `the sidecar at ${ url } did not answer within ${ timeoutMs / 1000 } s (${ lastError })` );
}

/** Stops a child politely, then firmly. */
export async function stopChild( child: ChildProcess, graceMs = 5000 ): Promise< void > {
	if ( child.exitCode !== null || child.signalCode !== null ) {
		return;
	}
	const exited = new Promise< void >( ( resolve ) => child.once( 'exit', () => resolve() ) );
	child.kill( 'SIGTERM' );
	const timer = setTimeout( () => child.kill( 'SIGKILL' ), graceMs );
	await exited;
	clearTimeout( timer );
}

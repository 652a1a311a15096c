import type { ChildProcess } from 'child_process';
import fs from 'fs';
import { stopChild } from '../../scripts/lib/sidecar-process';
import { describeStack, startStack, startStackSidecar, type StackOptions } from '../../scripts/lib/stack';
import { stopWordPress } from '../../scripts/lib/wp-env';
import { startNativeWordPress, stopNativeWordPress } from './native-wordpress';

/**
 * The WordPress + sidecar a benchmark runs against, on either runtime:
 *   playground  what npm start and the tests use (PHP as WebAssembly, one worker)
 *   native      Debian's PHP with its built-in server and several worker processes,
 *               so a route's own cost is not hidden behind Playground's per-request cost
 * Always a fresh database, WordPress's and the sidecar's.
 */
export type BenchRuntime = 'playground' | 'native';

export const RUNTIME_HELP = `  --runtime=<name>     WordPress runtime: playground (default; PHP as WebAssembly in one
                       worker, as npm start runs it) or native (Debian's php8.2-cli built-in
                       server, SQLite, --php-workers worker processes; installs php8.2-cli
                       php8.2-sqlite3 php8.2-mbstring php8.2-xml php8.2-curl with apt-get when run as root)
  --php-workers=<n>    native runtime: PHP_CLI_SERVER_WORKERS, requests served at once (default 4)
`;

export function runtimeFlag( value: string | true | undefined ): BenchRuntime {
	if ( value === undefined ) {
		return 'playground';
	}
	if ( value === 'playground' || value === 'native' ) {
		return value;
	}
	throw new Error( `--runtime must be playground or native, got "${ String( value ) }"` );
}

export interface BenchStackOptions {
	runtime: BenchRuntime;
	name: string;
	wpPort: number;
	sidecarPort: number;
	phpWorkers: number;
	extraPlugins?: Record< string, string >;
	sidecarEnv?: NodeJS.ProcessEnv;
}

export interface BenchStack {
	siteUrl: string;
	sidecar: ChildProcess;
	/** e.g. "native PHP 8.2.36, 4 workers" */
	description: string;
	/** Stops WordPress and the sidecar. */
	stop(): Promise< void >;
	/** Lets the bench exit with both still running (--keep); `stopKeptWordPress` and the sidecar's pid end them later. */
	detach(): void;
}

function stackOptions( options: BenchStackOptions ): StackOptions {
	// The sidecar and its shared key are the same on both runtimes; only WordPress differs.
	return { name: options.name, runtime: 'playground', wpPort: options.wpPort, sidecarPort: options.sidecarPort, freshSite: true, extraPlugins: options.extraPlugins, sidecarEnv: options.sidecarEnv };
}

export async function startBenchStack( options: BenchStackOptions ): Promise< BenchStack > {
	// A fresh sidecar too: a database an earlier sidecar version migrated may not open.
	fs.rmSync( describeStack( stackOptions( options ) ).sidecarDataDir, { recursive: true, force: true } );
	if ( options.runtime === 'playground' ) {
		const stack = await startStack( stackOptions( options ) );
		return {
			siteUrl: stack.siteUrl,
			sidecar: stack.sidecar,
			description: 'Playground (PHP 8.2 as WebAssembly)',
			stop: async () => {
				await stopChild( stack.sidecar );
				await stopWordPress( stack.env, true ).catch( () => undefined );
			},
			detach: () => stack.sidecar.unref(),
		};
	}

	const described = describeStack( stackOptions( options ) );
	const sidecar = await startStackSidecar( stackOptions( options ), described );
	try {
		const wordpress = await startNativeWordPress( {
			name: options.name,
			port: options.wpPort,
			sidecarUrl: described.sidecarUrl,
			sharedKey: described.sharedKey,
			extraPlugins: options.extraPlugins,
			fresh: true,
			workers: options.phpWorkers,
		} );
		return {
			siteUrl: wordpress.siteUrl,
			sidecar,
			description: `native PHP ${ wordpress.phpVersion } (built-in server, ${ options.phpWorkers } workers)`,
			stop: async () => {
				await stopChild( sidecar );
				await wordpress.stop();
			},
			detach: () => sidecar.unref(),
		};
	} catch ( error ) {
		await stopChild( sidecar );
		throw error;
	}
}

/** Stops the WordPress an earlier --keep run of this environment left (the caller stops the sidecar by pid). */
export async function stopKeptWordPress( options: Pick< BenchStackOptions, 'runtime' | 'name' | 'wpPort' | 'sidecarPort' | 'phpWorkers' > ): Promise< void > {
	if ( options.runtime === 'native' ) {
		await stopNativeWordPress( options.name );
		return;
	}
	const { env } = describeStack( stackOptions( options ) );
	await stopWordPress( env, true );
}

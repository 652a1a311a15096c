import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import net from 'net';
import path from 'path';
import { apiClient, type ApiCall } from './api-client';
import { TEST_KEY } from './harness';
import { waitUntil } from '../../support/wait-until';
import { sidecarNodeArgs } from '../../../scripts/lib/sidecar-command';

const ROOT = path.resolve( __dirname, '..', '..', '..' );

export interface SpawnedSidecar {
	child: ChildProcess;
	url: string;
	api: ApiCall;
	exited: Promise< { code: number | null; signal: NodeJS.Signals | null } >;
}

/** A free loopback port (the sidecar cannot report a port 0 choice back to us). */
export async function freePort(): Promise< number > {
	const server = net.createServer();
	await new Promise< void >( ( resolve ) => server.listen( 0, '127.0.0.1', resolve ) );
	const { port } = server.address() as net.AddressInfo;
	await new Promise< void >( ( resolve ) => server.close( () => resolve() ) );
	return port;
}

export interface SidecarProcessOptions {
	dataDir: string;
	port: number;
	logFile: string;
	env?: NodeJS.ProcessEnv;
}

/**
 * The real sidecar as its own process (as `npm start` runs it), with the tests' settings, its
 * output appended to logFile; not waited for (spawnSidecar waits until it answers).
 */
export function launchSidecar( options: SidecarProcessOptions ): Pick< SpawnedSidecar, 'child' | 'exited' > {
	const out = fs.openSync( options.logFile, 'a' );
	const child = spawn( process.execPath, sidecarNodeArgs(), {
		cwd: ROOT,
		stdio: [ 'ignore', out, out ],
		env: {
			...process.env,
			TS_NODE_PROJECT: path.join( ROOT, 'tsconfig.json' ),
			SIDECAR_HOST: '127.0.0.1',
			SIDECAR_PORT: String( options.port ),
			SIDECAR_DATA_DIR: options.dataDir,
			SIDECAR_SHARED_KEY: TEST_KEY,
			SIDECAR_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
			SIDECAR_RETRY_JITTER_RATIO: '0',
			SIDECAR_OVERLOAD_DELAY_SECONDS: '0',
			SIDECAR_LOG_LEVEL: 'info',
			...options.env,
		},
	} );
	fs.closeSync( out );
	const exited = new Promise< { code: number | null; signal: NodeJS.Signals | null } >( ( resolve ) =>
		child.once( 'exit', ( code, signal ) => resolve( { code, signal } ) )
	);
	return { child, exited };
}

/** The real sidecar as its own process (launchSidecar), ready when /health answers. */
export async function spawnSidecar( options: SidecarProcessOptions ): Promise< SpawnedSidecar > {
	const { child, exited } = launchSidecar( options );
	const url = `http://127.0.0.1:${ options.port }`;
	const ready = async () => {
		if ( child.exitCode !== null || child.signalCode !== null ) {
			throw new Error(
				`the sidecar exited before it was ready; log:\n${ fs.readFileSync( options.logFile, 'utf8' ) }`
			);
		}
		try {
			return ( await fetch( `${ url }/health` ) ).ok;
		} catch {
			return false; // not listening yet
		}
	};
	try {
		await waitUntil( ready, 30_000, 'the sidecar answering /health', 50 );
	} catch ( error ) {
		child.kill( 'SIGKILL' );
		throw error;
	}
	return { child, url, api: apiClient( url, TEST_KEY ), exited };
}

import fs from 'fs';
import { spawnSidecar, waitForSidecar } from '../../../scripts/lib/sidecar-process';
import { restartProductionSidecar } from '../../../scripts/production/stack';
import { E2E_ENV_NAME, E2E_SIDECAR_ENV, E2E_SIDECAR_PORT, readState, writeState } from './environment';
import { waitUntil } from '../../support/wait-until';

/** Stops and restarts the suite's sidecar, for "sidecar down" scenarios. */
export async function stopSidecar( signal: NodeJS.Signals = 'SIGTERM' ): Promise< void > {
	const state = readState();
	try {
		process.kill( state.sidecarPid, signal );
	} catch {
		return;
	}
	const gone = () => {
		try {
			process.kill( state.sidecarPid, 0 );
			return false;
		} catch {
			return true;
		}
	};
	await waitUntil( gone, 10_000, `the exit of sidecar pid ${ state.sidecarPid }`, 100 );
}

/**
 * Freezes the suite's sidecar (SIGSTOP), as an overloaded or swapped-out process would be: its
 * port stays open and the kernel still accepts connections, but nothing answers until `thaw`
 * (SIGCONT), after which it handles what it had been sent. Always thaw it (try/finally).
 */
export function freezeSidecar(): { thaw: () => void } {
	const { sidecarPid } = readState();
	process.kill( sidecarPid, 'SIGSTOP' );
	return { thaw: () => process.kill( sidecarPid, 'SIGCONT' ) };
}

export async function startSidecar(): Promise< void > {
	const state = readState();
	if ( state.sidecarCommand ) {
		// The production runtime's sidecar: the one installed from the release tarball.
		writeState( { ...state, sidecarPid: await restartProductionSidecar( E2E_ENV_NAME, state.sidecarCommand ) } );
		return;
	}
	fs.mkdirSync( state.sidecarDataDir, { recursive: true } );
	const child = spawnSidecar( {
		port: E2E_SIDECAR_PORT,
		dataDir: state.sidecarDataDir,
		sharedKeyFile: state.sharedKeyFile,
		logFile: state.sidecarLogFile,
		extraEnv: { SIDECAR_WORDPRESS_URL: state.siteUrl, ...E2E_SIDECAR_ENV },
	} );
	child.unref();
	await waitForSidecar( state.sidecarUrl, child );
	writeState( { ...state, sidecarPid: child.pid as number } );
}

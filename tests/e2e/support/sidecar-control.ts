import fs from 'fs';
import { spawnSidecar, waitForSidecar } from '../../../scripts/lib/sidecar-process';
import { restartProductionSidecar, restartProductionSidecarPeer } from '../../../scripts/production/stack';
import { E2E_ENV_NAME, E2E_SIDECAR_ENV, E2E_SIDECAR_PORT, readState, writeState } from './environment';
import { waitUntil } from '../../support/wait-until';
import { freeze } from '../../support/freeze';

/** The suite's sidecar processes: the one WordPress talks to, and the second on the shared store. */
function sidecarPids(): number[] {
	const { sidecarPid, sidecarPeerPid } = readState();
	return sidecarPeerPid ? [ sidecarPid, sidecarPeerPid ] : [ sidecarPid ];
}

/**
 * Stops the suite's sidecar (both instances on the shared store: none is left to deliver), for
 * "sidecar down" scenarios; startSidecar starts it again.
 */
export async function stopSidecar( signal: NodeJS.Signals = 'SIGTERM' ): Promise< void > {
	for ( const pid of sidecarPids() ) {
		try {
			process.kill( pid, signal );
		} catch {
			continue;
		}
		const gone = () => {
			try {
				process.kill( pid, 0 );
				return false;
			} catch {
				return true;
			}
		};
		await waitUntil( gone, 10_000, `the exit of sidecar pid ${ pid }`, 100 );
	}
}

/**
 * Freezes the suite's sidecar (both instances on the shared store), as an overloaded or
 * swapped-out process would be (tests/support/freeze.ts). Always thaw it (try/finally).
 */
export function freezeSidecar(): Promise< { thaw: () => void } > {
	return freeze( sidecarPids() );
}

export async function startSidecar(): Promise< void > {
	const state = readState();
	if ( state.sidecarCommand ) {
		// The production runtime's sidecar: the one installed from the release tarball.
		const sidecarPid = await restartProductionSidecar( E2E_ENV_NAME, state.sidecarCommand );
		const sidecarPeerPid = state.sidecarPeerPid ? await restartProductionSidecarPeer( E2E_ENV_NAME ) : undefined;
		writeState( { ...state, sidecarPid, sidecarPeerPid } );
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

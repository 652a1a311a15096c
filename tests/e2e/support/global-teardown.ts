import { recordPid } from '../../../scripts/lib/processes';
import { describeStack, sidecarPidFile, stopLeftovers } from '../../../scripts/lib/stack';
import { stopWordPress } from '../../../scripts/lib/wp-env';
import { recordSidecarPid, stopProduction } from '../../../scripts/production/stack';
import { E2E_ENV_NAME, E2E_RUNTIME, E2E_SIDECAR_PORT, E2E_WP_PORT, readState } from './environment';

/**
 * Runs after every e2e run, passed or failed: nothing is left running. The sidecar and the
 * Playground server are found by the pids their start recorded (each checked to still be ours).
 */
export default async function globalTeardown(): Promise< void > {
	if ( E2E_RUNTIME === 'production' ) {
		// A sidecar a test restarted (sidecar-control.ts) is the one the state names; stopProduction
		// checks its command line (the tarball's install prefix) before signalling it.
		try {
			const { sidecarPid, sidecarPeerPid } = readState();
			recordSidecarPid( E2E_ENV_NAME, sidecarPid );
			if ( sidecarPeerPid ) {
				recordSidecarPid( E2E_ENV_NAME, sidecarPeerPid, 'peer' );
			}
		} catch {
			// No state: setup failed before writing it (and stopped what it started).
		}
		await stopProduction( E2E_ENV_NAME );
		return;
	}
	const { env } = describeStack( {
		name: E2E_ENV_NAME,
		runtime: 'playground',
		wpPort: E2E_WP_PORT,
		sidecarPort: E2E_SIDECAR_PORT,
	} );
	await stopWordPress( env, true ).catch( () => undefined );
	await stopLeftovers( E2E_ENV_NAME );
	// A test may have restarted the sidecar (sidecar-control.ts); the state holds that one's pid.
	let restarted: number | undefined;
	try {
		restarted = readState().sidecarPid;
	} catch {
		// No state: setup failed before writing it.
	}
	if ( restarted ) {
		recordPid( sidecarPidFile( E2E_ENV_NAME ), restarted );
		await stopLeftovers( E2E_ENV_NAME );
	}
}

import { describeStack } from '../../../scripts/lib/stack';
import { stopWordPress } from '../../../scripts/lib/wp-env';
import { E2E_ENV_NAME, E2E_SIDECAR_PORT, E2E_WP_PORT, readState } from './environment';

/** Runs after every e2e run, passed or failed: nothing is left running. */
export default async function globalTeardown(): Promise< void > {
	try {
		const { sidecarPid } = readState();
		process.kill( sidecarPid, 'SIGTERM' );
	} catch {
		// Already gone.
	}
	const { env } = describeStack( { name: E2E_ENV_NAME, runtime: 'playground', wpPort: E2E_WP_PORT, sidecarPort: E2E_SIDECAR_PORT } );
	await stopWordPress( env, true );
}

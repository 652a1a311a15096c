import type { Runtime } from './wp-env';

/**
 * WordPress Playground (PHP in WebAssembly) by default: it needs nothing but Node and
 * works offline. Docker is opt-in (--runtime=docker or WP_ENV_RUNTIME=docker) because
 * a container reaches the host's loopback sidecar only through extra network set-up.
 */
export function chooseRuntime( requested?: string ): Runtime {
	const wanted = requested ?? process.env.WP_ENV_RUNTIME ?? 'playground';
	if ( wanted === 'docker' || wanted === 'playground' ) {
		return wanted;
	}
	throw new Error( `Unknown runtime "${ wanted }": use playground or docker` );
}

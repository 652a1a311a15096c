/**
 * The one way tests wait for something to become true: ask again every `intervalMs` until the
 * predicate holds, or fail after `timeoutMs` saying what was awaited. Polls of WordPress (a second
 * or more per request under Playground) ask every second; the sidecar's own state every 10 ms.
 * `what` may be a function, to say at the time of failure what was seen.
 */

/** unref'd: a pending wait must not keep jest alive after the test. */
export function sleep( ms: number ): Promise< void > {
	return new Promise( ( resolve ) => setTimeout( resolve, ms ).unref() );
}

export async function waitUntil(
	predicate: () => boolean | Promise< boolean >,
	timeoutMs = 10_000,
	what: string | ( () => string ) = 'condition',
	intervalMs = 10
): Promise< void > {
	const deadline = Date.now() + timeoutMs;
	while ( ! ( await predicate() ) ) {
		if ( Date.now() > deadline ) {
			throw new Error( `${ typeof what === 'function' ? what() : what } not met within ${ timeoutMs } ms` );
		}
		await sleep( intervalMs );
	}
}

/** Human progress lines for long steps; plain text so CI logs stay readable. */
export function step( message: string ): void {
	process.stdout.write( `\n▸ ${ message }\n` );
}

export function done( message: string ): void {
	process.stdout.write( `  ✓ ${ message }\n` );
}

export function fail( message: string ): never {
	process.stderr.write( `\n✗ ${ message }\n` );
	process.exit( 1 );
}

/** Runs `fn` and prints how long it took, so users see slow steps finish. */
export async function timed< T >( label: string, fn: () => Promise< T > ): Promise< T > {
	const started = Date.now();
	const result = await fn();
	done( `${ label } (${ ( ( Date.now() - started ) / 1000 ).toFixed( 1 ) } s)` );
	return result;
}

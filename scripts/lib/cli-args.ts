/**
 * A tiny --flag[=value] parser: the scripts take three or four options each, and
 * a typo must fail loudly instead of being ignored.
 */
export function parseFlags( argv: string[], known: string[] ): Record< string, string | true > {
	const flags: Record< string, string | true > = {};
	for ( const arg of argv ) {
		const match = /^--([a-z-]+)(?:=(.*))?$/.exec( arg );
		if ( ! match || ! known.includes( match[ 1 ] as string ) ) {
			throw new Error( `Unknown argument "${ arg }". Known: ${ known.map( ( k ) => '--' + k ).join( ', ' ) }` );
		}
		flags[ match[ 1 ] as string ] = match[ 2 ] ?? true;
	}
	return flags;
}

export function portFlag( value: string | true | undefined, fallback: number, name: string ): number {
	if ( value === undefined ) {
		return fallback;
	}
	const port = Number( value );
	if ( ! Number.isInteger( port ) || port < 1 || port > 65535 ) {
		throw new Error( `--${ name } must be a port number (1-65535), got "${ String( value ) }"` );
	}
	return port;
}

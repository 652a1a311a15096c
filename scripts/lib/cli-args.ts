import { DEFAULT_ENV } from './paths';

/**
 * A tiny --flag[=value] parser: the scripts take three or four options each, and
 * a typo must fail loudly instead of being ignored.
 */
export function parseFlags( argv: string[], known: string[] ): Record< string, string | true > {
	const flags: Record< string, string | true > = {};
	for ( const arg of argv ) {
		const match = /^--([a-z-]+)(?:=(.*))?$/.exec( arg );
		if ( ! arg.startsWith( '-' ) ) {
			throw new Error( `Unexpected "${ arg }": an option takes its value after "=", as in --name=value.` );
		}
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

type Flags = Record< string, string | true >;

/** `--env=<name>`: an environment folder under .cache/environments/ (default DEFAULT_ENV). */
export function envFlag( flags: Flags ): string {
	const value = flags.env;
	if ( value === undefined ) {
		return DEFAULT_ENV;
	}
	if ( value === true || ! /^[A-Za-z0-9_-]+$/.test( value ) ) {
		throw new Error(
			`--env must name an environment folder (letters, digits, - and _), got "${ String( value ) }"`
		);
	}
	return value;
}

/** `--name=<integer>` within [min, max], or the fallback when absent. */
export function intFlag( flags: Flags, name: string, fallback: number, min: number, max: number ): number {
	const value = flags[ name ];
	if ( value === undefined ) {
		return fallback;
	}
	const n = Number( value );
	if ( value === true || value === '' || ! Number.isInteger( n ) || n < min || n > max ) {
		throw new Error( `--${ name } must be an integer from ${ min } to ${ max }, got "${ String( value ) }"` );
	}
	return n;
}

/** `--name=<a>,<b>,…`: integers within [min, max], or the fallback when absent. */
export function intListFlag( flags: Flags, name: string, fallback: number[], min: number, max: number ): number[] {
	const value = flags[ name ];
	if ( value === undefined ) {
		return fallback;
	}
	const list = value === true ? [] : value.split( ',' ).map( Number );
	if ( list.length === 0 || list.some( ( n ) => ! Number.isInteger( n ) || n < min || n > max ) ) {
		throw new Error(
			`--${ name } must be a comma-separated list of integers from ${ min } to ${ max }, got "${ String( value ) }"`
		);
	}
	return list;
}

/** `--name=<text>` (may be empty), or undefined when absent; `--name` alone is an error. */
export function textFlag( flags: Flags, name: string ): string | undefined {
	const value = flags[ name ];
	if ( value === true ) {
		throw new Error( `--${ name } needs a value: --${ name }=<...>` );
	}
	return value;
}

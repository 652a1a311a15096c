/**
 * The sub-arrays a generated PHP file would otherwise spell out more than once (the endpoint
 * object in five answers, one field in several requests), so that it can print each once, as a
 * function, and call it where it recurs. Found greedily, largest first: once a part is shared,
 * what it contains is counted once, in its definition.
 */
export type Json = null | boolean | number | string | Json[] | { [ key: string ]: Json };

/** A shared part: its name, its value, and where it was first met. */
export interface SharedPart {
	name: string;
	value: { [ key: string ]: Json };
	/** The keys that lead to where it was first met. */
	path: string[];
}

function isObject( value: Json ): value is { [ key: string ]: Json } {
	return value !== null && typeof value === 'object' && ! Array.isArray( value );
}

/** Lines the printer gives a value: one per entry of each object, plus its closing line. */
function printedLines( value: Json ): number {
	if ( Array.isArray( value ) ) {
		return value.reduce< number >( ( sum, item ) => sum + printedLines( item ) - 1, 1 );
	}
	if ( isObject( value ) ) {
		return Object.values( value ).reduce< number >( ( sum, item ) => sum + printedLines( item ), 2 );
	}
	return 1;
}

/**
 * Finds the shared parts of $roots.
 *
 * @param roots  The values the file prints, by name (the first key of every path).
 * @param nameOf The names a part that recurs may take, best first, from the keys that lead to
 *               where it is first met and its value; none when the part should stay inline.
 * @param given  Parts shared whatever their count (views that others extend), by their JSON.
 */
export function findSharedParts(
	roots: { [ key: string ]: Json },
	nameOf: ( path: string[], value: { [ key: string ]: Json } ) => string[],
	given: Map< string, SharedPart > = new Map()
): Map< string, SharedPart > {
	const shared = new Map< string, SharedPart >( given );
	for (;;) {
		const counts = new Map< string, { value: { [ key: string ]: Json }; path: string[]; uses: number } >();
		const visit = ( value: Json, path: string[], isDefinition: boolean ): void => {
			if ( isObject( value ) && ! isDefinition ) {
				const json = JSON.stringify( value );
				const seen = counts.get( json ) ?? { value, path, uses: 0 };
				seen.uses++;
				counts.set( json, seen );
				if ( shared.has( json ) ) {
					return;
				}
			}
			if ( Array.isArray( value ) ) {
				value.forEach( ( item ) => visit( item, path, false ) );
			} else if ( isObject( value ) ) {
				for ( const [ child, item ] of Object.entries( value ) ) {
					visit( item, [ ...path, child ], false );
				}
			}
		};
		Object.entries( roots ).forEach( ( [ name, root ] ) => visit( root, [ name ], true ) );
		for ( const part of shared.values() ) {
			visit( part.value, part.path, true );
		}
		let best: { json: string; value: { [ key: string ]: Json }; path: string[]; uses: number } | null = null;
		for ( const [ json, seen ] of counts ) {
			if ( shared.has( json ) || seen.uses < 2 || nameOf( seen.path, seen.value ).length === 0 ) {
				continue;
			}
			if ( ! best || printedLines( seen.value ) > printedLines( best.value ) ) {
				best = { json, ...seen };
			}
		}
		if ( ! best ) {
			return shared;
		}
		const taken = new Set( [ ...shared.values() ].map( ( part ) => part.name ) );
		const names = nameOf( best.path, best.value );
		const last = names[ names.length - 1 ] as string;
		let name = names.find( ( candidate ) => ! taken.has( candidate ) ) ?? last;
		for ( let n = 2; taken.has( name ); n++ ) {
			name = `${ last }_${ n }`;
		}
		shared.set( best.json, { name, value: best.value, path: best.path } );
	}
}

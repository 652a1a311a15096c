/**
 * Values as WordPress-style PHP arrays (tabs, `array( … )`, arrows aligned as WordPress Coding
 * Standards want them), for the generated contract (sidecar-contract.ts). Descriptions become
 * translatable strings; a shared part (shared-parts.ts) becomes the expression that reads it.
 */
import { phpLiteral } from './php-literal';
import type { SharedPart } from './shared-parts';

const TEXT_DOMAIN = 'service-integration';

/**
 * WordPress Coding Standards' column limit for aligned array arrows (WordPress-Core sets
 * WordPress.Arrays.MultipleStatementAlignment's maxColumn to 60): a key ending past it is
 * followed by one space, the others line their arrows up one space after the longest of them.
 */
const ARROW_MAX_COLUMN = 60;

/** The spaces between an array key and its arrow, as WordPress.Arrays.MultipleStatementAlignment wants them (tab width 4). */
function arrowSpaces( inner: string, entries: [ string, unknown ][], name: string ): number {
	const firstColumn = inner.length * 4 + 1;
	const lastColumn = ( key: string ) => firstColumn + phpLiteral( key ).length - 1;
	const aligned = entries
		.map( ( [ key ] ) => lastColumn( key ) )
		.filter( ( column ) => column + 2 <= ARROW_MAX_COLUMN );
	if ( lastColumn( name ) + 2 > ARROW_MAX_COLUMN || aligned.length === 0 ) {
		return 1;
	}
	return Math.max( ...aligned ) + 1 - lastColumn( name );
}

/** How the printed code reads a shared part. */
export type PartReader = ( part: SharedPart ) => string;

/** The parts a value is printed with, and how each is read. */
export interface Sharing {
	parts: Map< string, SharedPart >;
	read: PartReader;
}

export const NO_SHARING: Sharing = { parts: new Map(), read: () => '' };

/** Whether $part's entries stand in $entries from $start on, in order. */
function standsAt( entries: [ string, unknown ][], part: SharedPart, start: number ): boolean {
	return Object.entries( part.value ).every(
		( [ name, item ], index ) =>
			entries[ start + index ]?.[ 0 ] === name &&
			JSON.stringify( entries[ start + index ]?.[ 1 ] ) === JSON.stringify( item )
	);
}

/** A shared part found inside a larger value, and where its entries start. */
interface PartWithin {
	part: SharedPart;
	start: number;
}

/**
 * The largest shared part of two entries or more whose entries stand, in a row, in a properties
 * map that has more (a view that extends another, as the endpoint with its new secret, or a
 * route's properties that add to a view on both sides), so that the map is printed as that part
 * merged with the rest.
 */
function partInProperties( entries: [ string, unknown ][], json: string, sharing: Sharing ): PartWithin | undefined {
	let best: PartWithin | undefined;
	for ( const [ partJson, part ] of sharing.parts ) {
		const size = Object.keys( part.value ).length;
		if (
			partJson === json ||
			size < 2 ||
			size >= entries.length ||
			( best && size <= Object.keys( best.part.value ).length )
		) {
			continue;
		}
		for ( let start = 0; start + size <= entries.length; start++ ) {
			if ( standsAt( entries, part, start ) ) {
				best = { part, start };
				break;
			}
		}
	}
	return best;
}

/**
 * The largest shared schema with a description that a schema starts with and adds to (a request
 * argument that is a field of the answers with limits of its own), so that the schema is printed
 * as that part plus the rest and its description stays one translatable string.
 */
function extendedSchema( entries: [ string, unknown ][], json: string, sharing: Sharing ): SharedPart | undefined {
	let best: SharedPart | undefined;
	for ( const [ partJson, part ] of sharing.parts ) {
		const size = Object.keys( part.value ).length;
		const described =
			typeof part.value.description === 'string' && Object.keys( part.value )[ 0 ] === 'description';
		if ( partJson === json || ! described || size >= entries.length || ! standsAt( entries, part, 0 ) ) {
			continue;
		}
		if ( ! best || size > Object.keys( best.value ).length ) {
			best = part;
		}
	}
	return best;
}

/** A properties map as the shared part within it merged with the entries before and after it. */
function mergedProperties(
	entries: [ string, unknown ][],
	within: PartWithin,
	indent: string,
	sharing: Sharing
): string {
	const inner = indent + '\t';
	const end = within.start + Object.keys( within.part.value ).length;
	const rest = ( from: number, to: number ) =>
		from < to ? [ phpArray( Object.fromEntries( entries.slice( from, to ) ), inner, sharing ) ] : [];
	const pieces = [ ...rest( 0, within.start ), sharing.read( within.part ), ...rest( end, entries.length ) ];
	return pieces.some( ( piece ) => piece.includes( '\n' ) )
		? `array_merge(\n${ pieces.map( ( piece ) => `${ inner }${ piece }` ).join( ',\n' ) }\n${ indent })`
		: `array_merge( ${ pieces.join( ', ' ) } )`;
}

/**
 * A schema that is a description, a type and at most one more key, as one line: a call of the
 * contract's property() (which builds the same array, in the same order). WordPress Coding
 * Standards keep an associative array of two entries or more on several lines; most of the
 * contract's properties are of this shape, so each reads as one line, not four or five.
 * Undefined for any other value.
 */
function propertyCall( entries: [ string, unknown ][], indent: string, sharing: Sharing ): string | undefined {
	const [ description, type, ...rest ] = entries;
	if ( description?.[ 0 ] !== 'description' || type?.[ 0 ] !== 'type' || rest.length > 1 ) {
		return undefined;
	}
	const args = [
		phpArray( type[ 1 ], indent, sharing ),
		phpArray( description[ 1 ], indent, sharing, 'description' ),
	];
	if ( rest.length === 1 ) {
		args.push( phpArray( Object.fromEntries( rest ), indent, sharing ) );
	}
	const call = `self::property( ${ args.join( ', ' ) } )`;
	return call.includes( '\n' ) ? undefined : call;
}

/** A single-entry array on one line, as WordPress Coding Standards allow it (undefined if its value spans lines). */
function oneEntryArray( entries: [ string, unknown ][], indent: string, sharing: Sharing ): string | undefined {
	const [ entry ] = entries;
	if ( entries.length !== 1 || ! entry ) {
		return undefined;
	}
	const line = `array( ${ phpLiteral( entry[ 0 ] ) } => ${ phpArray( entry[ 1 ], indent, sharing, entry[ 0 ] ) } )`;
	return line.includes( '\n' ) ? undefined : line;
}

/**
 * A value as PHP. $key is the key it is printed under; $definition says it is the body of
 * its own shared part (printed whole, not read from itself).
 */
export function phpArray( value: unknown, indent: string, sharing: Sharing, key?: string, definition = false ): string {
	if ( Array.isArray( value ) ) {
		return `array( ${ value.map( ( item ) => phpArray( item, indent, sharing ) ).join( ', ' ) } )`;
	}
	if ( value !== null && typeof value === 'object' ) {
		const json = JSON.stringify( value );
		const part = definition ? undefined : sharing.parts.get( json );
		if ( part ) {
			return sharing.read( part );
		}
		const entries = Object.entries( value );
		if ( entries.length === 0 ) {
			// A request without fields (endpoint.test): WordPress Coding Standards want `array()`.
			return 'array()';
		}
		const within = key === 'properties' ? partInProperties( entries, json, sharing ) : undefined;
		if ( within ) {
			return mergedProperties( entries, within, indent, sharing );
		}
		const base = definition || key === 'properties' ? undefined : extendedSchema( entries, json, sharing );
		if ( base ) {
			const added = Object.fromEntries( entries.slice( Object.keys( base.value ).length ) );
			return `${ sharing.read( base ) } + ${ phpArray( added, indent, sharing ) }`;
		}
		const compact = definition
			? undefined
			: ( propertyCall( entries, indent, sharing ) ?? oneEntryArray( entries, indent, sharing ) );
		if ( compact ) {
			return compact;
		}
		const inner = indent + '\t';
		const lines = entries.map(
			( [ name, item ] ) =>
				`${ inner }${ phpLiteral( name ) }${ ' '.repeat( arrowSpaces( inner, entries, name ) ) }=> ${ phpArray(
					item,
					inner,
					sharing,
					name
				) },`
		);
		return `array(\n${ lines.join( '\n' ) }\n${ indent })`;
	}
	if ( key === 'description' ) {
		return `__( ${ phpLiteral( value ) }, '${ TEXT_DOMAIN }' )`;
	}
	return value === null ? 'null' : phpLiteral( value );
}

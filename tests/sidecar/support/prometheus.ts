/// <reference path="./parse-prometheus-text-format.d.ts" />
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from 'parse-prometheus-text-format';

/** A scrape, parsed, with lookups that read a missing series as 0 (a counter not yet incremented). */
export class Scrape {
	readonly families: Map< string, ParsedFamily >;

	constructor( readonly text: string ) {
		this.families = new Map( parsePrometheusTextFormat( text ).map( ( family ) => [ family.name, family ] ) );
	}

	family( name: string ): ParsedFamily | undefined {
		return this.families.get( name );
	}

	/** The sample whose labels include all of `labels`, if exactly one does. */
	sample( name: string, labels: Record< string, string > = {} ): ParsedSample | undefined {
		const matches = ( this.families.get( name )?.metrics ?? [] ).filter( ( sample ) =>
			Object.entries( labels ).every( ( [ key, value ] ) => sample.labels?.[ key ] === value )
		);
		if ( matches.length > 1 ) {
			throw new Error( `${ name } ${ JSON.stringify( labels ) } matches ${ matches.length } series` );
		}
		return matches[ 0 ];
	}

	/** A counter's or gauge's value; 0 when the series does not exist. */
	value( name: string, labels: Record< string, string > = {} ): number {
		const sample = this.sample( name, labels );
		return sample?.value === undefined ? 0 : Number( sample.value );
	}

	/**
	 * One series of a histogram (count, sum, buckets); undefined when it does not exist.
	 * parse-prometheus-text-format 1.1 merges every series of a labelled histogram into one
	 * and drops their count and sum, so the lines of this series are cut out of the text,
	 * their labels (but le) removed, and parsed on their own.
	 */
	histogram( name: string, labels: Record< string, string > = {} ): ParsedSample | undefined {
		const pairs = Object.entries( labels ).map( ( [ key, value ] ) => `${ key }="${ value }"` );
		const series = new RegExp( `^${ name }_(bucket|sum|count)(\\{[^}]*\\})? ` );
		const lines = this.text
			.split( '\n' )
			.filter( ( line ) => series.test( line ) && pairs.every( ( pair ) => line.includes( pair ) ) )
			.map( ( line ) => {
				let cut = line;
				for ( const pair of pairs ) {
					cut = cut.replace( pair, '' );
				}
				return cut.replace( /\{,+/, '{' ).replace( /,+\}/, '}' ).replace( /,,+/g, ',' ).replace( '{}', '' );
			} );
		if ( lines.length === 0 ) {
			return undefined;
		}
		const [ family ] = parsePrometheusTextFormat( [ `# TYPE ${ name } histogram`, ...lines, '' ].join( '\n' ) );
		return family?.metrics[ 0 ];
	}

	/** A histogram's observation count; 0 when the series does not exist. */
	count( name: string, labels: Record< string, string > = {} ): number {
		const sample = this.histogram( name, labels );
		return sample?.count === undefined ? 0 : Number( sample.count );
	}
}

/** GET /metrics with an optional bearer token. */
export async function scrape(
	baseUrl: string,
	token?: string
): Promise< { status: number; text: string; contentType: string | null } > {
	const response = await fetch(
		`${ baseUrl }/metrics`,
		token === undefined ? {} : { headers: { authorization: `Bearer ${ token }` } }
	);
	return {
		status: response.status,
		text: await response.text(),
		contentType: response.headers.get( 'content-type' ),
	};
}

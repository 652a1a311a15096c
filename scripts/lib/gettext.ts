/**
 * Just enough gettext to check translations without a library: reading .po/.pot text and
 * .mo binaries into entries keyed the way gettext looks them up (msgctxt + EOT + msgid).
 */

export interface PoEntry {
	context: string | null;
	msgid: string;
	plural: string | null;
	/** One string, or one a plural form (msgstr[0], msgstr[1], ...). */
	msgstr: string[];
	/** `#,` flags: fuzzy, php-format, ... */
	flags: string[];
	/** `#:` references: includes/Admin/class-site-health.php:138, build/index.js:1, ... */
	references: string[];
	/** `#.` comments for translators, as make-pot copies them from the source. */
	extracted: string[];
}

export interface PoFile {
	headers: Record< string, string >;
	/** Every entry but the header and the obsolete (`#~`) ones, in file order. */
	entries: PoEntry[];
}

/** How gettext, the .mo format and WordPress's JSON key an entry: `context\u0004msgid`, or msgid alone. */
export function entryKey( entry: { context: string | null; msgid: string } ): string {
	return entry.context === null ? entry.msgid : `${ entry.context }\u0004${ entry.msgid }`;
}

/** A readable name for messages: `"msgid"`, with its context when it has one. */
export function describeEntry( entry: { context: string | null; msgid: string; plural?: string | null } ): string {
	const plural = entry.plural ? ` / plural ${ JSON.stringify( entry.plural ) }` : '';
	return `${ JSON.stringify( entry.msgid ) }${ plural }${ entry.context === null ? '' : ` (context ${ JSON.stringify( entry.context ) })` }`;
}

const ESCAPES: Record< string, string > = {
	n: '\n',
	t: '\t',
	r: '\r',
	'"': '"',
	'\\': '\\',
	a: '\x07',
	b: '\b',
	f: '\f',
	v: '\v',
};

function unquote( text: string, where: string ): string {
	const match = /^"((?:[^"\\]|\\.)*)"$/.exec( text.trim() );
	if ( ! match ) {
		throw new Error( `${ where }: expected a quoted string, got ${ text.trim() }` );
	}
	return ( match[ 1 ] as string ).replace( /\\([0-7]{1,3}|.)/g, ( _all, code: string ) =>
		/^[0-7]+$/.test( code ) ? String.fromCharCode( parseInt( code, 8 ) ) : ( ESCAPES[ code ] ?? code )
	);
}

function parseHeaders( text: string ): Record< string, string > {
	const headers: Record< string, string > = {};
	for ( const line of text.split( '\n' ) ) {
		const colon = line.indexOf( ':' );
		if ( colon > 0 ) {
			headers[ line.slice( 0, colon ).trim() ] = line.slice( colon + 1 ).trim();
		}
	}
	return headers;
}

/** Parses a .po or .pot file (UTF-8). Throws on what it cannot read, naming the line. */
export function parsePo( text: string, name = 'PO file' ): PoFile {
	const entries: PoEntry[] = [];
	let headers: Record< string, string > = {};
	let current: PoEntry | null = null;
	let field: { key: 'msgctxt' | 'msgid' | 'msgid_plural' | 'msgstr'; index: number } | null = null;
	let comments: Pick< PoEntry, 'flags' | 'references' | 'extracted' > = { flags: [], references: [], extracted: [] };

	const finish = () => {
		if ( current ) {
			if ( current.msgid === '' && current.context === null ) {
				headers = parseHeaders( current.msgstr[ 0 ] ?? '' );
			} else {
				entries.push( current );
			}
		}
		current = null;
		field = null;
	};
	const fresh = (): PoEntry => {
		const entry: PoEntry = { context: null, msgid: '', plural: null, msgstr: [], ...comments };
		comments = { flags: [], references: [], extracted: [] };
		return entry;
	};

	text.split( /\r?\n/ ).forEach( ( raw, index ) => {
		const where = `${ name }:${ index + 1 }`;
		const line = raw.trim();
		if ( line === '' || line.startsWith( '#~' ) ) {
			// An empty line ends an entry; obsolete entries are not entries.
			if ( line === '' ) {
				finish();
			}
			return;
		}
		if ( line.startsWith( '#' ) ) {
			if ( current && field && field.key === 'msgstr' ) {
				finish();
			}
			if ( line.startsWith( '#,' ) ) {
				comments.flags.push(
					...line
						.slice( 2 )
						.split( ',' )
						.map( ( flag ) => flag.trim() )
						.filter( Boolean )
				);
			} else if ( line.startsWith( '#:' ) ) {
				comments.references.push( ...line.slice( 2 ).trim().split( /\s+/ ).filter( Boolean ) );
			} else if ( line.startsWith( '#.' ) ) {
				comments.extracted.push( line.slice( 2 ).trim() );
			}
			return;
		}
		const keyword = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$/.exec( line );
		if ( keyword ) {
			const key = keyword[ 1 ]?.startsWith( 'msgstr' )
				? 'msgstr'
				: ( keyword[ 1 ] as 'msgctxt' | 'msgid' | 'msgid_plural' );
			if ( ( key === 'msgctxt' || key === 'msgid' ) && current && field && field.key === 'msgstr' ) {
				finish();
			}
			if ( ! current ) {
				current = fresh();
			}
			const entry: PoEntry = current;
			const value = unquote( keyword[ 3 ] as string, where );
			const formIndex = keyword[ 2 ] === undefined ? 0 : Number( keyword[ 2 ] );
			field = { key, index: formIndex };
			if ( key === 'msgctxt' ) {
				entry.context = value;
			} else if ( key === 'msgid' ) {
				entry.msgid = value;
			} else if ( key === 'msgid_plural' ) {
				entry.plural = value;
			} else {
				entry.msgstr[ formIndex ] = value;
			}
			return;
		}
		if ( line.startsWith( '"' ) && current && field ) {
			const entry: PoEntry = current;
			const value = unquote( line, where );
			if ( field.key === 'msgctxt' ) {
				entry.context = ( entry.context ?? '' ) + value;
			} else if ( field.key === 'msgid' ) {
				entry.msgid += value;
			} else if ( field.key === 'msgid_plural' ) {
				entry.plural = ( entry.plural ?? '' ) + value;
			} else {
				entry.msgstr[ field.index ] = ( entry.msgstr[ field.index ] ?? '' ) + value;
			}
			return;
		}
		throw new Error( `${ where }: cannot read ${ JSON.stringify( raw ) }` );
	} );
	finish();
	return { headers, entries };
}

export interface MoFile {
	headers: Record< string, string >;
	/** entryKey => translations (one, or one per plural form); msgid_plural is not a key. */
	translations: Map< string, { plural: string | null; msgstr: string[] } >;
}

/** Parses a .mo file (either byte order). */
export function parseMo( buffer: Buffer ): MoFile {
	const magic = buffer.readUInt32LE( 0 );
	let read: ( offset: number ) => number;
	if ( magic === 0x950412de ) {
		read = ( offset ) => buffer.readUInt32LE( offset );
	} else if ( magic === 0xde120495 ) {
		read = ( offset ) => buffer.readUInt32BE( offset );
	} else {
		throw new Error( 'not a .mo file (bad magic number)' );
	}
	const count = read( 8 );
	const originals = read( 12 );
	const translated = read( 16 );
	const text = ( table: number, index: number ) => {
		const length = read( table + index * 8 );
		const offset = read( table + index * 8 + 4 );
		return buffer.toString( 'utf8', offset, offset + length );
	};
	const translations: MoFile[ 'translations' ] = new Map();
	let headers: Record< string, string > = {};
	for ( let index = 0; index < count; index++ ) {
		const [ key, plural ] = text( originals, index ).split( '\0' ) as [ string, string | undefined ];
		const msgstr = text( translated, index ).split( '\0' );
		if ( key === '' ) {
			headers = parseHeaders( msgstr[ 0 ] ?? '' );
		} else {
			translations.set( key, { plural: plural ?? null, msgstr } );
		}
	}
	return { headers, translations };
}

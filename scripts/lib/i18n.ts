/**
 * The plugin's translations (plugin/languages/, see its README): the .pot made by WP-CLI's
 * `i18n make-pot` from the PHP and the built admin page, one .po per locale, and what
 * WordPress loads, made from each .po by WP-CLI: the .mo (PHP strings) and the admin
 * page's JSON. `npm run i18n` rebuilds them (scripts/i18n.ts); the unit test
 * tests/release/translations.test.ts and `npm run i18n -- --check` check them with
 * translationProblems(). Everything runs offline: WP-CLI's phar from ../shared/builds
 * (scripts/lib/builds.ts) with the PHP CLI, and for merging, gettext's msgmerge.
 */
import { spawnSync } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { wpCliPhar } from './builds';
import { describeEntry, entryKey, parseMo, parsePo, type PoEntry, type PoFile } from './gettext';
import { PLUGIN_DIR } from './paths';

export const TEXT_DOMAIN = 'service-integration';
export const LOCALES = [ 'fr_FR' ] as const;
export type Locale = ( typeof LOCALES )[ number ];

/** Where the admin page's script lives inside the plugin: WordPress names its JSON after this path's MD5. */
export const SCRIPT_PATH = 'build/index.js';

/** What make-pot leaves out of the plugin folder: the TypeScript (the strings come from the build). */
export const MAKE_POT_EXCLUDE = 'admin/src,node_modules';

export function languagesDir( pluginDir = PLUGIN_DIR ): string {
	return path.join( pluginDir, 'languages' );
}

export function potFile( pluginDir = PLUGIN_DIR ): string {
	return path.join( languagesDir( pluginDir ), `${ TEXT_DOMAIN }.pot` );
}

export function poFile( locale: string, pluginDir = PLUGIN_DIR ): string {
	return path.join( languagesDir( pluginDir ), `${ TEXT_DOMAIN }-${ locale }.po` );
}

export function moFile( locale: string, pluginDir = PLUGIN_DIR ): string {
	return path.join( languagesDir( pluginDir ), `${ TEXT_DOMAIN }-${ locale }.mo` );
}

/** `service-integration-fr_FR-<md5 of "build/index.js">.json`, the name load_script_textdomain() looks for. */
export function jsonFileName( locale: string ): string {
	return `${ TEXT_DOMAIN }-${ locale }-${ crypto.createHash( 'md5' ).update( SCRIPT_PATH ).digest( 'hex' ) }.json`;
}

export function jsonFile( locale: string, pluginDir = PLUGIN_DIR ): string {
	return path.join( languagesDir( pluginDir ), jsonFileName( locale ) );
}

/** Runs WP-CLI (its i18n commands need no WordPress); throws with its output when it fails. */
export function wpCli( args: string[], cwd: string ): { stdout: string; stderr: string } {
	const result = spawnSync( 'php', [ wpCliPhar(), '--allow-root', ...args ], {
		cwd,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	} );
	if ( result.error ) {
		throw new Error(
			( result.error as NodeJS.ErrnoException ).code === 'ENOENT'
				? 'WP-CLI needs the PHP CLI (Debian: apt-get install php8.2-cli)'
				: `wp ${ args.join( ' ' ) }: ${ result.error.message }`
		);
	}
	if ( result.status !== 0 ) {
		throw new Error(
			`wp ${ args.join( ' ' ) } failed (exit ${ result.status }):\n${ result.stdout }${ result.stderr }`
		);
	}
	return { stdout: result.stdout, stderr: result.stderr };
}

/**
 * `wp i18n make-pot` on a plugin folder whose build/ holds the admin page's build; the
 * warnings it prints (a placeholder without a translators comment, ...) are returned.
 */
export function makePot( pluginDir: string, outFile: string, exclude = MAKE_POT_EXCLUDE ): string[] {
	// The plugin is not on wordpress.org, where WP-CLI would send bug reports by default: they go to
	// the header's Plugin URI, and nowhere (an empty header) while the plugin has no public page.
	const main = fs.readFileSync( path.join( pluginDir, `${ TEXT_DOMAIN }.php` ), 'utf8' );
	const pluginUri = /^\s*\*\s*Plugin URI:\s*(\S+)\s*$/m.exec( main )?.[ 1 ] ?? '';
	const { stderr } = wpCli(
		[
			'i18n',
			'make-pot',
			'.',
			outFile,
			`--exclude=${ exclude }`,
			`--slug=${ TEXT_DOMAIN }`,
			`--headers=${ JSON.stringify( { 'Report-Msgid-Bugs-To': pluginUri } ) }`,
		],
		pluginDir
	);
	return stderr
		.split( '\n' )
		.filter( ( line ) => line.startsWith( 'Warning:' ) )
		.map( ( line ) => line.replace( /^Warning:\s*/, '' ) );
}

/** The .mo of a .po, made by `wp i18n make-mo` into outDir; returns its path. */
export function makeMo( po: string, outDir: string ): string {
	wpCli( [ 'i18n', 'make-mo', po, outDir ], path.dirname( po ) );
	return path.join( outDir, path.basename( po ).replace( /\.po$/, '.mo' ) );
}

/** The JSON files of a .po's script strings, made by `wp i18n make-json --no-purge` into outDir. */
export function makeJson( po: string, outDir: string ): string[] {
	const before = new Set( fs.existsSync( outDir ) ? fs.readdirSync( outDir ) : [] );
	wpCli( [ 'i18n', 'make-json', po, outDir, '--no-purge' ], path.dirname( po ) );
	const prefix = path.basename( po ).replace( /\.po$/, '-' );
	return fs
		.readdirSync( outDir )
		.filter( ( name ) => name.startsWith( prefix ) && name.endsWith( '.json' ) && ! before.has( name ) )
		.map( ( name ) => path.join( outDir, name ) );
}

/** Entries by key, so two catalogues can be compared. */
export function byKey( file: PoFile ): Map< string, PoEntry > {
	return new Map( file.entries.map( ( entry ) => [ entryKey( entry ), entry ] ) );
}

export function readPo( file: string ): PoFile {
	return parsePo( fs.readFileSync( file, 'utf8' ), path.basename( file ) );
}

/** printf placeholders (%s, %1$d, %%, ...) as a sorted list, so their order in a sentence does not matter. */
export function placeholders( text: string ): string[] {
	return ( text.match( /%(?:\d+\$)?[-+ 0'#]*\d*(?:\.\d+)?[bcdeEfFgGosuxX%]/g ) ?? [] ).sort();
}

/** HTML and createInterpolateElement tags (<code>, </strong>, <run/>), sorted. */
export function tags( text: string ): string[] {
	return ( text.match( /<\/?[a-zA-Z][^<>]*>/g ) ?? [] ).sort();
}

export interface Problems {
	/** In the sources (the fresh .pot) but not in the .po, or with no translation there. */
	untranslated: string[];
	fuzzy: string[];
	/** A translation whose placeholders or tags differ from the English. */
	mismatched: string[];
	/** The .po's header is not French's (Language, Plural-Forms). */
	header: string[];
	/** The committed .pot does not list what the sources hold (npm run i18n rewrites it). */
	staleTemplate: string[];
	/** The .mo or JSON is missing or differs from what WP-CLI makes of the .po. */
	staleCompiled: string[];
}

export const PLURAL_FORMS: Record< Locale, string > = { fr_FR: 'nplurals=2; plural=(n > 1);' };

/** What is wrong with one locale's .po against the sources' strings (a fresh .pot). */
export function poProblems(
	locale: Locale,
	fresh: PoFile,
	po: PoFile
): Omit< Problems, 'staleTemplate' | 'staleCompiled' > {
	const problems = {
		untranslated: [] as string[],
		fuzzy: [] as string[],
		mismatched: [] as string[],
		header: [] as string[],
	};
	if ( po.headers.Language !== locale ) {
		problems.header.push( `Language is ${ JSON.stringify( po.headers.Language ) }, expected "${ locale }"` );
	}
	if ( ( po.headers[ 'Plural-Forms' ] ?? '' ).replace( /\s+/g, ' ' ) !== PLURAL_FORMS[ locale ] ) {
		problems.header.push(
			`Plural-Forms is ${ JSON.stringify( po.headers[ 'Plural-Forms' ] ) }, expected "${ PLURAL_FORMS[ locale ] }"`
		);
	}
	const translated = byKey( po );
	for ( const source of fresh.entries ) {
		const name = describeEntry( source );
		const entry = translated.get( entryKey( source ) );
		const forms = source.plural === null ? 1 : 2;
		if (
			! entry ||
			( entry.plural ?? null ) !== source.plural ||
			entry.msgstr.length < forms ||
			entry.msgstr.slice( 0, forms ).some( ( text ) => ! text )
		) {
			problems.untranslated.push( name );
			continue;
		}
		if ( entry.flags.includes( 'fuzzy' ) ) {
			problems.fuzzy.push( name );
			continue;
		}
		entry.msgstr.slice( 0, forms ).forEach( ( text, form ) => {
			const english = form === 0 ? source.msgid : ( source.plural as string );
			const expected = { placeholders: placeholders( english ), tags: tags( english ) };
			const actual = { placeholders: placeholders( text ), tags: tags( text ) };
			if ( JSON.stringify( expected ) !== JSON.stringify( actual ) ) {
				problems.mismatched.push(
					`${ name }${ forms > 1 ? ` [form ${ form }]` : '' }: ${ JSON.stringify( text ) } has ${ JSON.stringify( actual ) }, the English ${ JSON.stringify( expected ) }`
				);
			}
		} );
	}
	return problems;
}

/** Keys and contents of two catalogues, as a list of differences (for the .pot, the .mo and the JSON). */
function differences(
	expected: Map< string, unknown >,
	actual: Map< string, unknown >,
	labels: { missing: string; extra: string; changed: string }
): string[] {
	const found: string[] = [];
	for ( const [ key, value ] of expected ) {
		if ( ! actual.has( key ) ) {
			found.push( `${ labels.missing }: ${ JSON.stringify( key ) }` );
		} else if ( JSON.stringify( actual.get( key ) ) !== JSON.stringify( value ) ) {
			found.push( `${ labels.changed }: ${ JSON.stringify( key ) }` );
		}
	}
	for ( const key of actual.keys() ) {
		if ( ! expected.has( key ) ) {
			found.push( `${ labels.extra }: ${ JSON.stringify( key ) }` );
		}
	}
	return found;
}

/**
 * The committed .pot against a fresh one: the same strings, plural forms, translator comments
 * and files each string is used in (make-json puts a string in the JSON of the scripts the .po
 * names for it). Line numbers are left out: they move with every edit and matter to nobody.
 */
export function templateProblems( fresh: PoFile, committed: PoFile ): string[] {
	const shape = ( file: PoFile ) =>
		new Map(
			file.entries.map( ( entry ) => [
				entryKey( entry ),
				{
					plural: entry.plural,
					comments: entry.extracted,
					files: [
						...new Set( entry.references.map( ( reference ) => reference.replace( /:\d+$/, '' ) ) ),
					].sort(),
				},
			] )
		);
	return differences( shape( fresh ), shape( committed ), {
		missing: 'not in the committed .pot',
		extra: 'no longer in the sources',
		changed: 'plural, translator comment or the files using it changed',
	} );
}

/**
 * The committed .mo and JSON against what WP-CLI makes of the committed .po now (in a
 * temporary folder): missing, extra or different translations, and JSON files that should not
 * be there. Content, not modification times: after a git checkout those say nothing.
 */
export function compiledProblems( locale: Locale, pluginDir = PLUGIN_DIR ): string[] {
	const problems: string[] = [];
	const po = poFile( locale, pluginDir );
	const tmp = fs.mkdtempSync( path.join( os.tmpdir(), 'si-i18n-check-' ) );
	try {
		const mo = moFile( locale, pluginDir );
		if ( ! fs.existsSync( mo ) ) {
			problems.push( `${ path.basename( mo ) } is missing` );
		} else {
			const made = parseMo( fs.readFileSync( makeMo( po, tmp ) ) ).translations;
			const committed = parseMo( fs.readFileSync( mo ) ).translations;
			problems.push(
				...differences( made, committed, {
					missing: `${ path.basename( mo ) } lacks`,
					extra: `${ path.basename( mo ) } has a string the .po does not`,
					changed: `${ path.basename( mo ) } translates differently`,
				} )
			);
		}
		const made = makeJson( po, tmp );
		const expectedNames = made.map( ( file ) => path.basename( file ) );
		if ( ! expectedNames.includes( jsonFileName( locale ) ) ) {
			problems.push(
				`make-json made no ${ jsonFileName( locale ) } (no string of ${ SCRIPT_PATH } in the .po?)`
			);
		}
		const prefix = `${ TEXT_DOMAIN }-${ locale }-`;
		const committedNames = fs
			.readdirSync( languagesDir( pluginDir ) )
			.filter( ( name ) => name.startsWith( prefix ) && name.endsWith( '.json' ) );
		for ( const name of committedNames.filter( ( committed ) => ! expectedNames.includes( committed ) ) ) {
			problems.push( `${ name }: no script of the .po has this name` );
		}
		for ( const file of made ) {
			const committed = path.join( languagesDir( pluginDir ), path.basename( file ) );
			if ( ! fs.existsSync( committed ) ) {
				problems.push( `${ path.basename( file ) } is missing` );
				continue;
			}
			const messages = ( json: string ) =>
				new Map(
					Object.entries(
						(
							JSON.parse( fs.readFileSync( json, 'utf8' ) ) as {
								locale_data: { messages: Record< string, unknown > };
							}
						 ).locale_data.messages
					)
				);
			problems.push(
				...differences( messages( file ), messages( committed ), {
					missing: `${ path.basename( file ) } lacks`,
					extra: `${ path.basename( file ) } has a string the .po does not`,
					changed: `${ path.basename( file ) } translates differently`,
				} )
			);
		}
	} finally {
		fs.rmSync( tmp, { recursive: true, force: true } );
	}
	return problems;
}

/** The strings of the sources, as make-pot finds them in a plugin folder with a fresh build/. */
export function freshTemplate( pluginDir: string, exclude = MAKE_POT_EXCLUDE ): { pot: PoFile; warnings: string[] } {
	const tmp = fs.mkdtempSync( path.join( os.tmpdir(), 'si-i18n-pot-' ) );
	try {
		const out = path.join( tmp, `${ TEXT_DOMAIN }.pot` );
		const warnings = makePot( pluginDir, out, exclude );
		return { pot: readPo( out ), warnings };
	} finally {
		fs.rmSync( tmp, { recursive: true, force: true } );
	}
}

/** Every problem of the committed translations against the sources' strings (`fresh`). */
export function translationProblems( fresh: PoFile, pluginDir = PLUGIN_DIR ): Record< Locale, Problems > {
	const committedPot = fs.existsSync( potFile( pluginDir ) ) ? readPo( potFile( pluginDir ) ) : null;
	const staleTemplate = committedPot
		? templateProblems( fresh, committedPot )
		: [ `${ path.basename( potFile( pluginDir ) ) } is missing` ];
	const result = {} as Record< Locale, Problems >;
	for ( const locale of LOCALES ) {
		if ( ! fs.existsSync( poFile( locale, pluginDir ) ) ) {
			result[ locale ] = {
				untranslated: fresh.entries.map( describeEntry ),
				fuzzy: [],
				mismatched: [],
				header: [ `${ path.basename( poFile( locale, pluginDir ) ) } is missing` ],
				staleTemplate,
				staleCompiled: [],
			};
			continue;
		}
		result[ locale ] = {
			...poProblems( locale, fresh, readPo( poFile( locale, pluginDir ) ) ),
			staleTemplate,
			staleCompiled: compiledProblems( locale, pluginDir ),
		};
	}
	return result;
}

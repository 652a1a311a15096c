/**
 * npm run i18n: rebuilds the plugin's translations in plugin/languages/ from the sources, or
 * with --check only says what is missing or stale (what the unit test checks).
 */
import { spawnSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { parseFlags } from './lib/cli-args';
import { PLUGIN_DIR, ROOT } from './lib/paths';
import { done, fail, step } from './lib/progress';

const HELP = `Usage: npm run i18n [-- --check]

Rebuilds the plugin's translations in plugin/languages/ (its README says how WordPress loads them):
  1. the admin page (npm run build:admin), when its sources changed since the last build: the
     script's strings are read from build/index.js, the file WordPress loads
  2. service-integration.pot: wp i18n make-pot from plugin/, admin/src left out; rewritten only
     when the strings, plurals or translator comments changed
  3. service-integration-fr_FR.po: the .pot merged in with msgmerge (Debian's gettext): a new string
     comes in untranslated, or "fuzzy" with the translation of a close old one; strings gone from
     the sources are dropped
  4. service-integration-fr_FR.mo (wp i18n make-mo) and service-integration-fr_FR-<md5>.json (wp i18n
     make-json --no-purge; <md5> is that of "build/index.js")
Then lists what needs a translator: strings without a translation, fuzzy ones, and translations
whose placeholders (%s, %1$d) or tags differ from the English. Translate them in the .po (remove
the "fuzzy" flag of those you checked) and run it again.

WP-CLI is ../shared/builds/wp-cli-2.10.0.phar (SERVICE_INTEGRATION_BUILDS_DIR elsewhere), run
with the PHP CLI; nothing goes to the network.

Options:
  --check   Change nothing: list what is untranslated, fuzzy, mismatched or stale (the .pot, .mo
            or JSON against the sources and the .po) and exit 1 if anything is. The unit test
            tests/release/translations.test.ts checks the same.
  --help
`;

function onPath( command: string ): boolean {
	return ( process.env.PATH ?? '' )
		.split( path.delimiter )
		.some( ( dir ) => dir !== '' && fs.existsSync( path.join( dir, command ) ) );
}

/** Runs a gettext tool; throws with its output when it fails. */
function gettext( command: string, args: string[] ): void {
	const result = spawnSync( command, args, { cwd: ROOT, encoding: 'utf8' } );
	if ( result.status !== 0 ) {
		throw new Error(
			`${ command } ${ args.join( ' ' ) } failed (exit ${ result.status ?? result.signal }):\n${ result.stdout }${ result.stderr }`
		);
	}
}

function list( title: string, items: string[] ): void {
	if ( items.length === 0 ) {
		return;
	}
	process.stdout.write( `  ✗ ${ title } (${ items.length }):\n` );
	for ( const item of items ) {
		process.stdout.write( `      ${ item }\n` );
	}
}

async function main(): Promise< void > {
	let flags: Record< string, string | true >;
	try {
		flags = parseFlags( process.argv.slice( 2 ), [ 'help', 'check' ] );
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	if ( flags.help ) {
		process.stdout.write( HELP );
		return;
	}
	const check = flags.check === true;
	const [ i18n, { BUILD_TARGETS, buildStale }, { ensureDebianPackages } ] = await Promise.all( [
		import( './lib/i18n' ),
		import( './lib/build-freshness' ),
		import( './lib/debian-packages' ),
	] );
	const relative = ( file: string ) => path.relative( ROOT, file );

	step( 'Admin page build (the script strings are read from plugin/build/index.js)' );
	const built = buildStale(
		ROOT,
		BUILD_TARGETS.filter( ( target ) => target.script === 'build:admin' )
	);
	done( built.length ? 'rebuilt: its sources had changed' : 'up to date' );

	step( 'Strings of the sources: wp i18n make-pot' );
	const tmp = fs.mkdtempSync( path.join( os.tmpdir(), 'si-i18n-' ) );
	try {
		const freshPot = path.join( tmp, `${ i18n.TEXT_DOMAIN }.pot` );
		const warnings = i18n.makePot( PLUGIN_DIR, freshPot );
		const fresh = i18n.readPo( freshPot );
		done( `${ fresh.entries.length } strings in the PHP and ${ i18n.SCRIPT_PATH }` );
		for ( const warning of warnings ) {
			process.stdout.write( `  ! ${ warning }\n` );
		}

		if ( check ) {
			step( 'Checking the committed translations against them' );
			const problems = i18n.translationProblems( fresh );
			let count = 0;
			for ( const locale of i18n.LOCALES ) {
				const found = problems[ locale ];
				list( `${ locale }: untranslated`, found.untranslated );
				list( `${ locale }: fuzzy`, found.fuzzy );
				list( `${ locale }: placeholders or tags differ from the English`, found.mismatched );
				list( `${ locale }: .po header`, found.header );
				list( `${ locale }: .mo or JSON not what the .po gives`, found.staleCompiled );
				count += Object.entries( found )
					.filter( ( [ kind ] ) => kind !== 'staleTemplate' )
					.reduce( ( sum, [ , items ] ) => sum + items.length, 0 );
			}
			list( `${ path.basename( i18n.potFile() ) }: not what the sources hold`, problems.fr_FR.staleTemplate );
			count += problems.fr_FR.staleTemplate.length;
			if ( count > 0 ) {
				return fail( `${ count } problem(s): run npm run i18n, translate what it lists, run it again.` );
			}
			done( `every string has its ${ i18n.LOCALES.join( ', ' ) } translation, and every file is up to date` );
			return;
		}

		const pot = i18n.potFile();
		const potChanged = ! fs.existsSync( pot ) || i18n.templateProblems( fresh, i18n.readPo( pot ) ).length > 0;
		if ( potChanged ) {
			fs.copyFileSync( freshPot, pot );
			done( `${ relative( pot ) } written` );
		} else {
			done( `${ relative( pot ) } unchanged (same strings; its date left as it was)` );
		}

		ensureDebianPackages( {
			need: 'npm run i18n merges the .po files with msgmerge, msginit and msgattrib',
			packages: [ 'gettext' ],
			present: () => [ 'msgmerge', 'msginit', 'msgattrib' ].every( onPath ),
			howToInstall: 'Install them with `sudo apt-get install -y gettext`.',
		} );
		for ( const locale of i18n.LOCALES ) {
			const po = i18n.poFile( locale );
			step( `${ relative( po ) }: new strings merged in` );
			if ( ! fs.existsSync( po ) ) {
				gettext( 'msginit', [
					'--no-translator',
					'--no-wrap',
					`--locale=${ locale }.UTF-8`,
					'-i',
					pot,
					'-o',
					po,
				] );
				// msginit writes the language ("fr"); the checks, like WordPress's file names, use the locale.
				fs.writeFileSync(
					po,
					fs.readFileSync( po, 'utf8' ).replace( /^"Language: [^"\\]*\\n"$/m, `"Language: ${ locale }\\n"` )
				);
				done( 'made with msginit (every string untranslated)' );
			} else {
				gettext( 'msgmerge', [ '--quiet', '--update', '--backup=none', '--no-wrap', '--previous', po, pot ] );
				gettext( 'msgattrib', [ '--no-obsolete', '--no-wrap', '-o', po, po ] );
				done( 'msgmerge' );
			}

			step( `${ relative( po ) }: compiled with wp i18n make-mo and make-json --no-purge` );
			const mo = i18n.makeMo( po, i18n.languagesDir() );
			done( relative( mo ) );
			const jsonDir = path.join( tmp, locale );
			fs.mkdirSync( jsonDir );
			const made = i18n.makeJson( po, jsonDir );
			// A JSON of another script name (an older build layout) would be loaded by nobody.
			for ( const old of fs.readdirSync( i18n.languagesDir() ) ) {
				if ( old.startsWith( `${ i18n.TEXT_DOMAIN }-${ locale }-` ) && old.endsWith( '.json' ) ) {
					fs.rmSync( path.join( i18n.languagesDir(), old ) );
				}
			}
			for ( const file of made ) {
				fs.copyFileSync( file, path.join( i18n.languagesDir(), path.basename( file ) ) );
				done( relative( path.join( i18n.languagesDir(), path.basename( file ) ) ) );
			}

			const found = i18n.poProblems( locale, fresh, i18n.readPo( po ) );
			const translated = fresh.entries.length - found.untranslated.length - found.fuzzy.length;
			step( `${ locale }: ${ translated } of ${ fresh.entries.length } strings translated` );
			list( 'untranslated', found.untranslated );
			list( 'fuzzy (check the translation, then remove the flag)', found.fuzzy );
			list( 'placeholders or tags differ from the English', found.mismatched );
			list( '.po header', found.header );
			if ( translated === fresh.entries.length && found.mismatched.length + found.header.length === 0 ) {
				done( 'complete' );
			} else {
				process.stdout.write( `  Translate these in ${ relative( po ) }, then run npm run i18n again.\n` );
			}
		}
	} finally {
		fs.rmSync( tmp, { recursive: true, force: true } );
	}
}

main().catch( ( error: Error ) => fail( error.message ) );

import fs from 'fs';
import os from 'os';
import path from 'path';
import { BUILD_TARGETS, isStale } from '../../scripts/lib/build-freshness';
import type { PoFile } from '../../scripts/lib/gettext';
import { freshTemplate, LOCALES, poFile, readPo, translationProblems, type Problems } from '../../scripts/lib/i18n';
import { ROOT } from '../../scripts/lib/paths';
import { buildAdmin, stagePlugin } from '../../scripts/lib/release-build';

/**
 * Every string of the plugin has its French, and what WordPress loads is what the .po gives.
 * The strings are those of the current sources: WP-CLI's make-pot on the plugin folder as the
 * release ships it (the PHP, and the admin page's build, whose strings are the ones WordPress
 * loads). plugin/build is used when it is newer than its sources (npm test builds it first);
 * else the admin page is built into a temporary folder (about 20 s). Offline: WP-CLI's phar
 * from ../shared/builds and the PHP CLI. `npm run i18n` fixes what this finds, apart from the
 * translations themselves, which it lists.
 */
describe( 'translations', () => {
	let work: string;
	let fresh: PoFile;
	let warnings: string[];
	let problems: Record< string, Problems >;

	beforeAll( async () => {
		work = fs.mkdtempSync( path.join( os.tmpdir(), 'si-i18n-test-' ) );
		const admin = BUILD_TARGETS.find( ( target ) => target.script === 'build:admin' );
		let built = path.join( ROOT, 'plugin', 'build' );
		if ( ! admin || ! fs.existsSync( path.join( built, 'index.js' ) ) || isStale( ROOT, admin ) ) {
			built = path.join( work, 'build' );
			await buildAdmin( ROOT, built );
		}
		const staged = path.join( work, 'plugin' );
		stagePlugin( ROOT, built, staged );
		( { pot: fresh, warnings } = freshTemplate( staged, 'node_modules' ) );
		problems = translationProblems( fresh );
	}, 240_000 );

	afterAll( () => {
		if ( work ) {
			fs.rmSync( work, { recursive: true, force: true } );
		}
	} );

	it( 'make-pot finds the strings of the PHP and of the admin page, each placeholder explained to translators', () => {
		expect( fresh.entries.length ).toBeGreaterThan( 500 );
		const files = new Set(
			fresh.entries.flatMap( ( entry ) => entry.references.map( ( ref ) => ref.split( ':' )[ 0 ] ) )
		);
		expect( files ).toContain( 'build/index.js' );
		expect( files ).toContain( 'includes/Manufacturing/class-manufacturing-order-type.php' );
		// "contains placeholders but has no translators: comment", or two different comments for one string.
		expect( warnings ).toEqual( [] );
	} );

	describe.each( LOCALES )( '%s', ( locale ) => {
		it( 'every string (and plural) of the sources has a translation, none fuzzy', () => {
			expect( { untranslated: problems[ locale ]?.untranslated, fuzzy: problems[ locale ]?.fuzzy } ).toEqual( {
				untranslated: [],
				fuzzy: [],
			} );
		} );

		it( 'each translation keeps the placeholders and tags of the English', () => {
			expect( problems[ locale ]?.mismatched ).toEqual( [] );
		} );

		it( "the .po's header names the locale and French's plural forms", () => {
			expect( problems[ locale ]?.header ).toEqual( [] );
		} );

		it( 'the .mo and the admin page JSON are what WP-CLI makes of the .po now', () => {
			expect( problems[ locale ]?.staleCompiled ).toEqual( [] );
		} );
	} );

	it( 'the committed .pot lists the strings of the sources, with their plurals, translator comments and files', () => {
		expect( problems[ LOCALES[ 0 ] ]?.staleTemplate ).toEqual( [] );
	} );

	it( 'French typography: apostrophe ’, guillemets « », a no-break space before : ; ! ? » and after «', () => {
		const po = readPo( poFile( 'fr_FR' ) );
		const found: string[] = [];
		for ( const entry of po.entries ) {
			for ( const text of entry.msgstr ) {
				const rules: Array< [ RegExp, string ] > = [
					[ /\p{L}'\p{L}/u, "a straight apostrophe (')" ],
					[ /"/, 'a straight quote (")' ],
					[ / [:;!?»]/, 'a plain space before : ; ! ? or »' ],
					[ /«(?!\u00a0)/, '« without a no-break space after it' ],
					[ /(?<!\u00a0)»/, '» without a no-break space before it' ],
					[ /\p{L}[;!?]/u, 'no space before ; ! or ?' ],
				];
				for ( const [ pattern, what ] of rules ) {
					if ( pattern.test( text ) ) {
						found.push( `${ JSON.stringify( entry.msgid ) }: ${ what } in ${ JSON.stringify( text ) }` );
					}
				}
			}
		}
		expect( found ).toEqual( [] );
	} );
} );

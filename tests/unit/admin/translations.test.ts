import fs from 'fs';
import path from 'path';

/**
 * Translations reach the admin page only if the plugin says where they live and that
 * place exists: the header's Text Domain and Domain Path, load_plugin_textdomain() for
 * the PHP strings, and wp_set_script_translations() for the script, both on that folder.
 */
const PLUGIN = path.resolve( __dirname, '../../../plugin' );
const read = ( file: string ) => fs.readFileSync( path.join( PLUGIN, file ), 'utf8' );

describe( 'translations wiring', () => {
	const main = read( 'service-integration.php' );
	const domainPath = /^\s*\*\s*Domain Path:\s*(\S+)\s*$/m.exec( main )?.[ 1 ];

	test( 'the plugin header names the text domain and a Domain Path that exists', () => {
		expect( main ).toMatch( /^\s*\*\s*Text Domain:\s*service-integration\s*$/m );
		expect( domainPath ).toBe( '/languages' );
		expect( fs.statSync( path.join( PLUGIN, domainPath as string ) ).isDirectory() ).toBe( true );
	} );

	test( 'PHP strings and the admin script load their translations from that folder', () => {
		expect( main ).toMatch(
			/load_plugin_textdomain\(\s*'service-integration',\s*false,\s*dirname\(\s*plugin_basename\(\s*__FILE__\s*\)\s*\)\s*\.\s*'\/languages'\s*\)/
		);
		expect( read( 'includes/Admin/class-admin-page.php' ) ).toMatch(
			/wp_set_script_translations\(\s*self::HANDLE,\s*'service-integration',\s*plugin_dir_path\(\s*PLUGIN_FILE\s*\)\s*\.\s*'languages'\s*\)/
		);
	} );
} );

import fs from 'fs';
import path from 'path';

const ROOT = path.resolve( __dirname, '..', '..' );

/**
 * package.json's engines.node, ">=MAJOR.MINOR": the one Node version. scripts/check-node.js reads it,
 * and the sidecar's npm package gets it as its own engines (scripts/lib/release-build.ts).
 */
const ENGINES = (
	JSON.parse( fs.readFileSync( path.join( ROOT, 'package.json' ), 'utf8' ) ) as {
		engines: { node: string };
	}
 ).engines.node;

/** Where a site owner or a developer reads which Node the project needs. */
const PAGES = [
	'docs/production.md',
	'docs/testing.md',
	'README.md',
	'plugin/readme.txt',
	'sidecar/packaging/README.md',
];

/** "Node.js 20.19 or newer", "Node 20.19+", "Node 20.19 is the oldest…": every MAJOR.MINOR named after "Node". */
function nodeVersionsIn( text: string ): string[] {
	return [ ...text.matchAll( /\bNode(?:\.js)? (\d+\.\d+)(?=\+| or newer| is the oldest)/g ) ].map(
		( match ) => match[ 1 ] as string
	);
}

describe( 'one Node.js version everywhere', () => {
	const wanted = /^>=(\d+\.\d+)$/.exec( ENGINES )?.[ 1 ];

	it( 'package.json engines.node is ">=MAJOR.MINOR"', () => {
		expect( wanted ).toMatch( /^\d+\.\d+$/ );
	} );

	it.each( PAGES )( '%s names that version, and no other', ( page ) => {
		const named = nodeVersionsIn( fs.readFileSync( path.join( ROOT, page ), 'utf8' ) );
		expect( named.length ).toBeGreaterThan( 0 );
		expect( [ ...new Set( named ) ] ).toEqual( [ wanted ] );
	} );
} );

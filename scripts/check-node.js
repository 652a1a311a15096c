#!/usr/bin/env node
/**
 * Runs before npm start and npm test (plain JavaScript, so it answers in milliseconds on any
 * Node): stops with a clear message when this Node is older than package.json's engines.node,
 * the oldest version every development dependency supports.
 */
'use strict';
const { engines } = require( '../package.json' );

const wanted = /^>=\s*(\d+)\.(\d+)/.exec( engines.node );
if ( ! wanted ) {
	throw new Error( `package.json engines.node must read ">=MAJOR.MINOR", got "${ engines.node }"` );
}
const [ major, minor ] = process.versions.node.split( '.' ).map( Number );
const [ needMajor, needMinor ] = [ Number( wanted[ 1 ] ), Number( wanted[ 2 ] ) ];
if ( major < needMajor || ( major === needMajor && minor < needMinor ) ) {
	process.stderr.write(
		`✗ Node.js ${ process.versions.node } is too old for this project: it needs Node.js ${ needMajor }.${ needMinor } or newer (package.json "engines").\n` +
			`  Install a newer Node.js (for example the current 20.x or 22.x LTS), then run npm install again.\n`
	);
	process.exit( 1 );
}

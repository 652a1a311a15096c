#!/usr/bin/env node
/**
 * The production runtime's system cron: what `* * * * * curl -fsS -o /dev/null <site>/wp-cron.php`
 * in a crontab does (docs/production.md), without a cron daemon: requests wp-cron.php every
 * <seconds> (60 like cron; the e2e suite asks for less) and appends one line per run to <log>.
 * The site has DISABLE_WP_CRON, so nothing else runs WP-Cron unless a test calls wp-cron.php.
 * Plain JavaScript: it outlives the script that starts it and needs nothing but Node.
 *
 * Usage: node cron-loop.js <site url> <seconds> <log file>
 */
'use strict';
const fs = require( 'fs' );

const [ url, seconds, log ] = process.argv.slice( 2 );
const interval = Number( seconds ) * 1000;
if ( ! url || ! log || ! ( interval > 0 ) ) {
	process.stderr.write( 'Usage: node cron-loop.js <site url> <seconds> <log file>\n' );
	process.exit( 2 );
}

function write( line ) {
	fs.appendFileSync( log, `${ new Date().toISOString() } ${ line }\n` );
}

let stopping = false;
process.on( 'SIGTERM', () => {
	stopping = true;
	write( 'stopped' );
	process.exit( 0 );
} );

async function tick() {
	const started = Date.now();
	try {
		// wp-cron.php without ?doing_wp_cron takes WordPress's cron lock itself.
		const response = await fetch( `${ url }/wp-cron.php`, { signal: AbortSignal.timeout( 300_000 ) } );
		await response.arrayBuffer();
		write( `wp-cron.php HTTP ${ response.status } ${ Date.now() - started } ms` );
	} catch ( error ) {
		write( `wp-cron.php failed: ${ error.message }` );
	}
}

( async () => {
	write( `started: ${ url }/wp-cron.php every ${ interval / 1000 } s` );
	while ( ! stopping ) {
		await new Promise( ( resolve ) => setTimeout( resolve, interval ) );
		await tick();
	}
} )();

import fs from 'fs';
import path from 'path';
import { readState } from './environment';
import { readFileFrom } from '../../../scripts/lib/file-tail';

/**
 * WordPress's debug.log of the e2e site. WP_DEBUG_DISPLAY is off, so a PHP warning never
 * reaches a response body; WP_DEBUG_LOG writes it into wp-content of the folder the site's
 * WordPress lives in, which global setup records (a copy of the default core or of
 * WORDPRESS_DIR, or WP_ENV_CORE's folder).
 */
export const DEBUG_LOG = path.join( readState().wordpressDir, 'wp-content', 'debug.log' );

const PHP_PROBLEM = /PHP (Warning|Notice|Deprecated|Fatal error|Parse error|Strict Standards)/;

/** Where the log ends now; pass it to the functions below after the requests under test. */
export function debugLogMark(): number {
	if ( ! fs.existsSync( path.dirname( DEBUG_LOG ) ) ) {
		throw new Error( `No wp-content folder at ${ path.dirname( DEBUG_LOG ) }: the debug log would never be seen` );
	}
	return fs.existsSync( DEBUG_LOG ) ? fs.statSync( DEBUG_LOG ).size : 0;
}

/** Everything logged since the mark. */
export function debugLogSince( mark: number ): string {
	return readFileFrom( DEBUG_LOG, mark );
}

/** PHP warnings, notices, deprecations and fatal errors logged since the mark. */
export function phpProblemsSince( mark: number ): string[] {
	return debugLogSince( mark )
		.split( '\n' )
		.filter( ( line ) => PHP_PROBLEM.test( line ) );
}

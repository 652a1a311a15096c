import { spawn } from 'child_process';
import path from 'path';
import { wordpressBuild } from '../../../scripts/lib/builds';
import { startMariaDb, type RunningMariaDb } from '../../support/mariadb';

/**
 * The plugin's stores on WordPress's real wpdb and a real MariaDB: starts Debian's mariadbd
 * (tests/support/mariadb.ts), then runs the PHPUnit suite of tests/php/db on it with the
 * connection and the unpacked WordPress build in environment variables (tests/php/db/bootstrap.php
 * installs WordPress in the empty database and creates the plugin's tables with their own
 * schema code). PHPUnit's own report is the failure message when a test fails.
 */

const SUITE = path.join( __dirname, 'phpunit.xml' );

let database: RunningMariaDb;

beforeAll( async () => {
	database = await startMariaDb( { name: 'php_stores' } );
}, 120_000 );

afterAll( async () => {
	await database?.stop();
} );

function runPhpunit( env: NodeJS.ProcessEnv ): Promise< { status: number | null; output: string } > {
	return new Promise( ( resolve, reject ) => {
		const child = spawn( 'phpunit', [ '-c', SUITE ], { env: { ...process.env, ...env } } );
		let output = '';
		child.stdout.on( 'data', ( chunk: Buffer ) => ( output += chunk.toString() ) );
		child.stderr.on( 'data', ( chunk: Buffer ) => ( output += chunk.toString() ) );
		child.once( 'error', reject );
		child.once( 'close', ( status ) => resolve( { status, output } ) );
	} );
}

test( 'the stores keep and return their data on MariaDB, and answer its errors as errors (PHPUnit, tests/php/db)', async () => {
	const url = new URL( database.url );
	const { status, output } = await runPhpunit( {
		SERVICE_INTEGRATION_TEST_WORDPRESS: wordpressBuild(),
		SERVICE_INTEGRATION_TEST_DB_HOST: `${ url.hostname }:${ url.port }`,
		SERVICE_INTEGRATION_TEST_DB_NAME: url.pathname.slice( 1 ),
		SERVICE_INTEGRATION_TEST_DB_USER: decodeURIComponent( url.username ),
		SERVICE_INTEGRATION_TEST_DB_PASSWORD: decodeURIComponent( url.password ),
	} );
	// PHPUnit's own count in the log: jest counts this suite as one test.
	process.stdout.write( `  tests/php/db: ${ output.match( /^(OK|Tests:) .*$/m )?.[ 0 ] ?? 'no summary' }\n` );
	// A suite that ran no test, or stopped before its summary, is a failure too.
	expect( { status, summary: /^OK \(\d+ tests?, \d+ assertions?\)$/m.test( output ), output } ).toEqual( {
		status: 0,
		summary: true,
		output,
	} );
} );

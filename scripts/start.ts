/**
 * npm start: a real WordPress with the plugin active, plus the sidecar, in the foreground.
 * Ctrl-C (or `npm stop` from another terminal) stops both.
 */
import fs from 'fs';
import path from 'path';
import { buildStale } from './lib/build-freshness';
import { parseFlags, portFlag } from './lib/cli-args';
import { environmentDir, ROOT } from './lib/paths';
import { done, fail, step } from './lib/progress';
import { chooseSite, SITE_CHOICE_HELP, type SiteChoice } from './lib/site-choice';
import type { Stack } from './lib/stack';

/** Loopback: what a local environment's outbound webhooks may reach besides the internet. */
const LOCAL_RECEIVERS = '127.0.0.0/8,::1/128';

const HELP = `Usage: npm start [-- --runtime=playground|docker] [--port=8888] [--sidecar-port=8787]

Builds the admin page and the sidecar when their sources changed since the last build, starts WordPress (through @wordpress/env) with the Service Integration plugin active
and the sidecar beside it, then prints the URLs and logins. Stays in the foreground:
Ctrl-C, or \`npm stop\` in another terminal, stops both.

By default the site runs WordPress 7.1 with WooCommerce 10.0.2 (HPOS) from the builds in
../shared/builds, unpacked once under .cache/builds; where they are missing, WordPress 6.5.5 from
the npm registry without a shop. The core tree is copied into .cache/environments/dev/wordpress,
where the site's SQLite database lives.

Environment:
${ SITE_CHOICE_HELP }  WP_ENV_RUNTIME     playground (default, no Docker needed) or docker
  SERVICE_INTEGRATION_SIDECAR_KEY
                     the PHP <-> sidecar shared key; generated and kept in
                     .cache/environments/dev/shared-key when not set
  SIDECAR_ALLOW_PRIVATE_CIDRS
                     addresses outbound webhooks may go to besides the public internet
                     (comma-separated CIDRs). Default here: ${ LOCAL_RECEIVERS }, so receivers
                     on this machine (a local n8n, a test script) work; an installed sidecar
                     allows none unless told
  Any other SIDECAR_* setting is passed to the sidecar (npm run sidecar -- --help lists them).
`;

const ENV_NAME = 'dev';
export const RUN_FILE = path.join( environmentDir( ENV_NAME ), 'running.json' );

async function main(): Promise< void > {
	let flags: Record< string, string | true >;
	try {
		flags = parseFlags( process.argv.slice( 2 ), [ 'help', 'runtime', 'port', 'sidecar-port' ] );
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	if ( flags.help ) {
		process.stdout.write( HELP );
		return;
	}
	if ( fs.existsSync( RUN_FILE ) ) {
		const running = JSON.parse( fs.readFileSync( RUN_FILE, 'utf8' ) ) as { pid: number };
		if ( isAlive( running.pid ) ) {
			return fail( `Already running (pid ${ running.pid }). Stop it with \`npm stop\` first.` );
		}
	}
	try {
		const built = buildStale( ROOT );
		if ( built.length ) {
			done( `built: ${ built.join( ', ' ) }` );
		}
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	// Loaded once --help is answered: they take a second or two to load.
	const [
		{ ensureAdminApplicationPassword, LOCAL_ADMIN },
		{ chooseRuntime },
		{ stopChild },
		{ describeCommerce, describeWordPress, startStack },
		{ stopWordPress },
	] = await Promise.all( [
		import( './lib/admin-application-password' ),
		import( './lib/runtime' ),
		import( './lib/sidecar-process' ),
		import( './lib/stack' ),
		import( './lib/wp-env' ),
	] );

	let runtime: ReturnType< typeof chooseRuntime >;
	let site: SiteChoice;
	try {
		runtime = chooseRuntime( typeof flags.runtime === 'string' ? flags.runtime : undefined );
		site = chooseSite();
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	if ( site.note ) {
		done( site.note );
	}
	const logFile = path.join( environmentDir( ENV_NAME ), 'sidecar.log' );
	fs.mkdirSync( path.dirname( logFile ), { recursive: true } );

	let stack: Stack;
	try {
		stack = await startStack( {
			name: ENV_NAME,
			runtime,
			wpPort: portFlag( flags.port, 8888, 'port' ),
			sidecarPort: portFlag( flags[ 'sidecar-port' ], 8787, 'sidecar-port' ),
			woocommerceDir: site.woocommerceDir,
			wordpressDir: site.wordpressDir,
			orderStorage: site.orderStorage,
			sidecarLogFile: logFile,
			sidecarEnv: { SIDECAR_ALLOW_PRIVATE_CIDRS: process.env.SIDECAR_ALLOW_PRIVATE_CIDRS ?? LOCAL_RECEIVERS },
		} );
	} catch ( error ) {
		return fail( `Could not start: ${ ( error as Error ).message }` );
	}

	fs.writeFileSync( RUN_FILE, JSON.stringify( { pid: process.pid, sidecarPid: stack.sidecar.pid, runtime } ) );
	const adminPasswordFile = path.join( environmentDir( ENV_NAME ), 'admin-application-password' );
	let adminPassword: string;
	try {
		adminPassword = await ensureAdminApplicationPassword( stack.siteUrl, adminPasswordFile );
	} catch ( error ) {
		adminPassword = `(none: ${ ( error as Error ).message })`;
	}
	printSummary(
		stack,
		logFile,
		{ password: adminPassword, file: adminPasswordFile },
		{ admin: LOCAL_ADMIN, wordpress: describeWordPress( stack ), commerce: describeCommerce( stack ) }
	);

	let stopping = false;
	const shutdown = async ( reason: string, code: number ) => {
		if ( stopping ) {
			return;
		}
		stopping = true;
		step( `Stopping (${ reason })` );
		await stopChild( stack.sidecar );
		done( 'sidecar stopped' );
		await stopWordPress( stack.env ).catch( ( error ) =>
			process.stderr.write( `${ ( error as Error ).message }\n` )
		);
		done( 'WordPress stopped' );
		fs.rmSync( RUN_FILE, { force: true } );
		process.exit( code );
	};
	process.on( 'SIGINT', () => void shutdown( 'Ctrl-C', 0 ) );
	process.on( 'SIGTERM', () => void shutdown( 'npm stop', 0 ) );
	stack.sidecar.on(
		'exit',
		( exitCode ) => void shutdown( `the sidecar exited with code ${ exitCode }; see ${ logFile }`, 1 )
	);
}

function isAlive( pid: number ): boolean {
	try {
		process.kill( pid, 0 );
		return true;
	} catch {
		return false;
	}
}

function printSummary(
	stack: Stack,
	logFile: string,
	admin: { password: string; file: string },
	about: { admin: { login: string; password: string }; wordpress: string; commerce: string }
): void {
	const receivers = process.env.SIDECAR_ALLOW_PRIVATE_CIDRS ?? LOCAL_RECEIVERS;
	const lines = [
		'',
		'Service Integration is running.',
		'',
		`  WordPress        ${ stack.siteUrl }/`,
		`  wp-admin         ${ stack.siteUrl }/wp-admin/   (user: ${ about.admin.login }, password: ${ about.admin.password })`,
		`  Admin API login  ${ about.admin.login }:${ admin.password }   (an application password, kept in ${ admin.file })`,
		`  Plugin page      ${ stack.siteUrl }/wp-admin/admin.php?page=service-integration`,
		`  REST API         ${ stack.siteUrl }/wp-json/service-integration/v1/`,
		`  Sidecar          ${ stack.sidecarUrl }   (health: ${ stack.sidecarUrl }/health)`,
		`  Sidecar log      ${ logFile }`,
		`  Shared key file  ${ stack.sharedKeyFile }`,
		`  WordPress core   ${ about.wordpress }`,
		`  Commerce         ${ about.commerce }`,
		`  Local receivers  outbound webhooks may go to ${ receivers } (SIDECAR_ALLOW_PRIVATE_CIDRS;`,
		'                   an installed sidecar allows only public addresses unless told)',
		'',
		'  Browsers are logged in as admin automatically; API calls are not. Try:',
		`    curl -u '${ about.admin.login }:${ admin.password }' ${ stack.siteUrl }/wp-json/service-integration/v1/sidecar/status`,
		'  The service account for automations: npm run service-account -- create, then -- password.',
		'',
		'Stop with Ctrl-C, or `npm stop` in another terminal.',
		'',
	];
	process.stdout.write( lines.join( '\n' ) );
}

void main();

/**
 * npm start: a real WordPress with the plugin active, plus the sidecar, in the foreground.
 * Ctrl-C (or `npm stop` from another terminal) stops both.
 */
import fs from 'fs';
import net from 'net';
import path from 'path';
import { buildStale } from './lib/build-freshness';
import { envFlag, parseFlags, portFlag } from './lib/cli-args';
import { commandFor, emptyEnvironment, forgetSidecarStopped, readRunning, shown } from './lib/dev-environment';
import { adminPasswordFile, environmentDir, LOCAL_MU_PLUGINS_DIR, ROOT, runFile, siteCopyDir } from './lib/paths';
import { portsInUse } from './lib/ports';
import { done, fail, step } from './lib/progress';
import { chooseSite, SITE_CHOICE_HELP, type SiteChoice } from './lib/site-choice';
import type { Stack } from './lib/stack';

/** Loopback: what a local environment's outbound webhooks may reach besides the internet. */
const LOCAL_RECEIVERS = '127.0.0.0/8,::1/128';

/** WordPress's address unless --host says otherwise (wp-env.ts's DEFAULT_WORDPRESS_HOST; that module loads slowly). */
const DEFAULT_HOST = '127.0.0.1';

const HELP = `Usage: npm start [-- [--fresh] [--runtime=playground|docker] [--port=8888] [--sidecar-port=8787] [--host=127.0.0.1] [--env=dev]]

Builds the admin page and the sidecar when their sources changed since the last build, starts WordPress (through @wordpress/env) with the Service Integration plugin active
and the sidecar beside it, then prints the URLs and logins. Stays in the foreground:
Ctrl-C, or \`npm stop\` in another terminal, stops both.

By default the site runs WordPress 7.1 with WooCommerce 10.0.2 (HPOS) from the builds in
../shared/builds, unpacked once under .cache/builds; where they are missing, WordPress 6.5.5 from
the npm registry without a shop. The core tree is copied into .cache/environments/dev/wordpress,
where the site's SQLite database lives. The site and the sidecar's data (endpoints, inbound
sources, deliveries in .cache/environments/dev/sidecar-data) survive restarts. Started with another
WordPress core, the site is kept with its sidecar's data in .cache/environments/dev/kept-site-<time>/
(and comes back when that core is asked for again). WP-CLI on the site: npm run wp -- <command>.

Options:
  --fresh            start from a clean site AND a clean sidecar: empties the site (its copy of
                     WordPress with the SQLite database), the sidecar's data and the admin
                     application password of the old site (Playground runtime only)
  --runtime          playground (default, no Docker needed) or docker
  --port             WordPress's port (default 8888)
  --sidecar-port     the sidecar's port (default 8787)
  --host             the address WordPress listens on (default 127.0.0.1: this machine only).
                     --host=0.0.0.0 opens it to every interface, e.g. for a phone on your
                     network; every browser that reaches it is logged in as administrator
                     (Playground runtime; the sidecar always listens on 127.0.0.1)
  --env=<name>       another environment under .cache/environments/ (default dev), e.g. a second
                     site beside the first, on other ports

The sidecar alone, while WordPress keeps running (its outbox holds order events meanwhile):
  npm run sidecar -- stop | start | status    (npm run sidecar -- stop --help, and so on)

Must-use plugins of your own: put .php files in local-mu-plugins/ (git-ignored); the site loads
them on every request. .cache/environments/dev/wordpress/wp-content/mu-plugins/ is NOT loaded:
the local environment's own must-use plugins (scripts/wp-env/mu-plugins) are mounted there.

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

async function main(): Promise< void > {
	let flags: Record< string, string | true >;
	let name: string;
	try {
		flags = parseFlags( process.argv.slice( 2 ), [
			'help',
			'runtime',
			'port',
			'sidecar-port',
			'fresh',
			'env',
			'host',
		] );
		name = envFlag( flags );
		if ( flags.fresh !== undefined && flags.fresh !== true ) {
			throw new Error( `--fresh takes no value, got "--fresh=${ flags.fresh }"` );
		}
		if ( flags.host !== undefined && ( flags.host === true || net.isIP( flags.host ) === 0 ) ) {
			throw new Error( `--host must be an IP address (127.0.0.1, 0.0.0.0, ::), got "${ String( flags.host ) }"` );
		}
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	if ( flags.help ) {
		process.stdout.write( HELP );
		return;
	}
	const running = readRunning( name );
	if ( running ) {
		return fail(
			`Already running (pid ${ running.pid }). Stop it with \`${ commandFor( name, 'npm stop' ) }\` first.`
		);
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
		{ describeCommerce, describeWordPress, sidecarIdentity, sidecarPidFile, startStack, stopLeftovers },
		{ stopWordPress },
		{ superviseSidecar },
		{ stopRecordedProcess },
	] = await Promise.all( [
		import( './lib/admin-application-password' ),
		import( './lib/runtime' ),
		import( './lib/sidecar-process' ),
		import( './lib/stack' ),
		import( './lib/wp-env' ),
		import( './lib/dev-sidecar' ),
		import( './lib/processes' ),
	] );

	let runtime: ReturnType< typeof chooseRuntime >;
	let site: SiteChoice;
	let wpPort: number;
	let sidecarPort: number;
	try {
		runtime = chooseRuntime( typeof flags.runtime === 'string' ? flags.runtime : undefined );
		site = chooseSite();
		wpPort = portFlag( flags.port, 8888, 'port' );
		sidecarPort = portFlag( flags[ 'sidecar-port' ], 8787, 'sidecar-port' );
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	const wpHost = typeof flags.host === 'string' ? flags.host : DEFAULT_HOST;
	// What an interrupted start of this environment left would hold its own ports.
	for ( const line of await stopLeftovers( name ) ) {
		done( line );
	}
	const taken = await portsInUse(
		[
			{ port: wpPort, host: wpHost, what: 'WordPress', option: '--port' },
			{ port: sidecarPort, host: '127.0.0.1', what: 'the sidecar', option: '--sidecar-port' },
		],
		`npm start -- --env=<name> --port=<port> --sidecar-port=<port> (npm start -- --help)`
	);
	if ( taken ) {
		return fail( taken );
	}
	if ( flags.fresh ) {
		// Docker keeps the database in its volumes, and WP_ENV_CORE is a folder of the user's:
		// neither is ours to empty.
		if ( runtime !== 'playground' || process.env.WP_ENV_CORE ) {
			return fail(
				runtime !== 'playground'
					? "--fresh empties the Playground runtime's site; with --runtime=docker, reset the database with `npx wp-env clean all`"
					: `--fresh would not empty WP_ENV_CORE=${ process.env.WP_ENV_CORE } (a folder of yours, mounted as it is): unset it, or empty its database yourself`
			);
		}
		done( emptyEnvironment( name ) );
	}
	if ( site.note ) {
		done( site.note );
	}
	const logFile = path.join( environmentDir( name ), 'sidecar.log' );
	fs.mkdirSync( path.dirname( logFile ), { recursive: true } );
	fs.mkdirSync( LOCAL_MU_PLUGINS_DIR, { recursive: true } );
	warnAboutShadowedMuPlugins( name );
	// A stop on purpose belongs to the npm start that saw it, not to this one.
	forgetSidecarStopped( name );

	let stack: Stack;
	try {
		stack = await startStack( {
			name,
			runtime,
			wpPort,
			sidecarPort,
			wpHost,
			woocommerceDir: site.woocommerceDir,
			wordpressDir: site.wordpressDir,
			orderStorage: site.orderStorage,
			localMuPluginsDir: LOCAL_MU_PLUGINS_DIR,
			sidecarStartCommand: commandFor( name, 'npm run sidecar -- start' ),
			sidecarLogFile: logFile,
			sidecarEnv: { SIDECAR_ALLOW_PRIVATE_CIDRS: process.env.SIDECAR_ALLOW_PRIVATE_CIDRS ?? LOCAL_RECEIVERS },
		} );
	} catch ( error ) {
		return fail( `Could not start: ${ ( error as Error ).message }` );
	}

	fs.writeFileSync( runFile( name ), JSON.stringify( { pid: process.pid, runtime } ) );
	const passwordFile = adminPasswordFile( name );
	let adminPassword: string;
	try {
		adminPassword = await ensureAdminApplicationPassword( stack.siteUrl, passwordFile );
	} catch ( error ) {
		adminPassword = `(none: ${ ( error as Error ).message })`;
	}
	printSummary( stack, logFile, { password: adminPassword, file: passwordFile }, name, {
		admin: LOCAL_ADMIN,
		wordpress: describeWordPress( stack ),
		commerce: describeCommerce( stack ),
	} );

	let stopping = false;
	// Set once the watch on the sidecar starts, below; shutdown ends it first.
	let unwatch: () => void = () => undefined;
	const shutdown = async ( reason: string, code: number ) => {
		if ( stopping ) {
			return;
		}
		stopping = true;
		unwatch();
		step( `Stopping (${ reason })` );
		await stopChild( stack.sidecar );
		// One started again by `npm run sidecar -- start` is no child of ours: found by its pid file.
		await stopRecordedProcess( sidecarPidFile( name ), sidecarIdentity( stack.sidecarDataDir ) );
		forgetSidecarStopped( name );
		done( 'sidecar stopped' );
		await stopWordPress( stack.env ).catch( ( error ) =>
			process.stderr.write( `${ ( error as Error ).message }\n` )
		);
		done( 'WordPress stopped' );
		fs.rmSync( runFile( name ), { force: true } );
		process.exit( code );
	};
	process.on( 'SIGINT', () => void shutdown( 'Ctrl-C', 0 ) );
	process.on( 'SIGTERM', () => void shutdown( 'npm stop', 0 ) );
	unwatch = superviseSidecar( name, stack.sidecar, {
		stopped: () =>
			done(
				`the sidecar is stopped (npm run sidecar -- stop); WordPress keeps running and order events wait in the outbox. Start it again: ${ commandFor( name, 'npm run sidecar -- start' ) }`
			),
		started: ( pid ) => done( `the sidecar runs again (pid ${ pid }, started by npm run sidecar -- start)` ),
		crashed: ( reason ) => void shutdown( `${ reason }; see ${ logFile }`, 1 ),
	} );
}

/**
 * Files put in the site's own wp-content/mu-plugins are hidden by the folder the local
 * environment mounts there: say so, and where they belong, rather than let them be ignored.
 */
function warnAboutShadowedMuPlugins( name: string ): void {
	const hidden = path.join( siteCopyDir( name ), 'wp-content', 'mu-plugins' );
	const files = fs.existsSync( hidden ) ? fs.readdirSync( hidden ).filter( ( file ) => file.endsWith( '.php' ) ) : [];
	if ( files.length ) {
		done(
			`not loaded: ${ files.join( ', ' ) } in ${ shown( hidden ) } (the local environment's own must-use plugins are mounted there); move them to ${ shown( LOCAL_MU_PLUGINS_DIR ) }/`
		);
	}
}

/** Where the site answers: this machine only, unless --host opened it. */
function listensOn( stack: Stack ): string {
	const host = stack.env.host ?? DEFAULT_HOST;
	if ( stack.env.runtime !== 'playground' ) {
		return 'ports published by Docker';
	}
	return host === DEFAULT_HOST
		? `listens on ${ host } only; --host=0.0.0.0 opens it to your network`
		: `listens on ${ host }: every browser that reaches it is logged in as administrator`;
}

function printSummary(
	stack: Stack,
	logFile: string,
	admin: { password: string; file: string },
	name: string,
	about: { admin: { login: string; password: string }; wordpress: string; commerce: string }
): void {
	const receivers = process.env.SIDECAR_ALLOW_PRIVATE_CIDRS ?? LOCAL_RECEIVERS;
	const lines = [
		'',
		'Service Integration is running.',
		'',
		`  WordPress        ${ stack.siteUrl }/   (${ listensOn( stack ) })`,
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
		`  Must-use plugins your own .php files in ${ shown( LOCAL_MU_PLUGINS_DIR ) }/ are loaded too`,
		'',
		'  Browsers are logged in as admin automatically; API calls are not. Try:',
		`    curl -u '${ about.admin.login }:${ admin.password }' ${ stack.siteUrl }/wp-json/service-integration/v1/sidecar/status`,
		'  The service account for automations: npm run service-account -- create, then -- password.',
		`  The sidecar alone, WordPress running on: ${ commandFor( name, 'npm run sidecar -- stop' ) } (then -- start, -- status).`,
		'',
		`Stop with Ctrl-C, or \`${ commandFor( name, 'npm stop' ) }\` in another terminal.`,
		'',
	];
	process.stdout.write( lines.join( '\n' ) );
}

void main();

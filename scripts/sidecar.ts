/**
 * npm run sidecar: without a command, a sidecar in the foreground (as this script always ran);
 * with `stop`, `start` or `status`, the sidecar of the environment `npm start` runs, stopped and
 * started while WordPress keeps running (scripts/lib/dev-environment.ts).
 */
import { spawn } from 'child_process';
import os from 'os';
import { buildStale, BUILD_TARGETS } from './lib/build-freshness';
import { envFlag, parseFlags } from './lib/cli-args';
import { commandFor, readRunning, shown } from './lib/dev-environment';
import { ROOT, runFile } from './lib/paths';
import { done, fail, step } from './lib/progress';
import { SIDECAR_BUILD_MAIN, SIDECAR_HEAP_FLAGS } from './lib/sidecar-command';

/** status's exit code for a sidecar that is stopped (as an init script's status says "not running"). */
const EXIT_STOPPED = 3;

const ENV_OPTION = `  --env=<name>  the environment under .cache/environments/ (npm start -- --env=<name>); default: dev`;

const HELP: Record< 'overview' | Command, string > = {
	overview: `Usage: npm run sidecar [-- <the sidecar's options>]
       npm run sidecar -- start|stop|status [--env=dev] [--help]

Without a command: builds the sidecar when its sources changed (npm run build:sidecar) and runs
one in the foreground, configured by SIDECAR_* environment variables and --config only (its
options and settings follow below). Ctrl-C stops it.

With a command: the sidecar of the environment \`npm start\` runs, while WordPress keeps running.
While it is stopped, the plugin's outbox holds order events (delivered once it is back) and
inbound webhook senders get 503 with Retry-After and send again later.
  stop    stops it; npm start keeps running and says so
  start   starts it again, detached, exactly as npm start did; npm stop stops it with the rest
  status  says whether it runs, with its pid and URL
${ ENV_OPTION }
Each command takes --help. Exit codes: 0 done (status: running), 1 an error (e.g. npm start is
not running), ${ EXIT_STOPPED } (status) stopped.
`,
	stop: `Usage: npm run sidecar -- stop [--env=dev]

Stops the sidecar of the environment \`npm start\` runs (SIGTERM: deliveries in flight finish,
up to SIDECAR_SHUTDOWN_GRACE_MS). WordPress keeps running and npm start prints that the sidecar
is stopped: the plugin's outbox holds order events until it is back, and inbound webhook
senders get 503 with Retry-After and send again later. Start it again: npm run sidecar -- start.
${ ENV_OPTION }
Exit codes: 0 stopped (or already stopped), 1 npm start is not running or the stop failed.
`,
	start: `Usage: npm run sidecar -- start [--env=dev]

Starts the sidecar of the environment \`npm start\` runs again (after npm run sidecar -- stop),
detached, so it keeps running after this command ends, with exactly the settings npm start gave
it: port, data folder, shared key file, log file and every SIDECAR_* setting, as npm start
recorded them in .cache/environments/<env>/sidecar-launch.json (this shell's SIDECAR_* variables
are not used). Builds it first when its sources changed. Its pid is recorded in
.cache/environments/<env>/sidecar.pid: npm stop, or Ctrl-C in npm start's terminal, stops it with
the rest, and npm start ends if it crashes.
${ ENV_OPTION }
Exit codes: 0 running (started, or already running), 1 npm start is not running or the sidecar
did not answer /health (its log says why).
`,
	status: `Usage: npm run sidecar -- status [--env=dev]

Says whether the sidecar of the environment \`npm start\` runs is running, with its pid and URL,
and whether it answers /health.
${ ENV_OPTION }
Exit codes: 0 running, ${ EXIT_STOPPED } stopped, 1 npm start is not running.
`,
};

const COMMANDS = [ 'start', 'stop', 'status' ] as const;
type Command = ( typeof COMMANDS )[ number ];

function isCommand( arg: string | undefined ): arg is Command {
	return ( COMMANDS as readonly string[] ).includes( arg ?? '' );
}

/** Compiles the sidecar when its sources are newer than its build, as npm start does. */
function buildSidecar(): void {
	const built = buildStale(
		ROOT,
		BUILD_TARGETS.filter( ( target ) => target.script === 'build:sidecar' )
	);
	if ( built.length ) {
		done( `built: ${ built.join( ', ' ) }` );
	}
}

/** The sidecar in the foreground, with the arguments given: what `npm run sidecar` has always been. */
function foreground( args: string[] ): void {
	if ( args.includes( '--help' ) ) {
		process.stdout.write( HELP.overview + '\nThe sidecar in the foreground:\n\n' );
	}
	try {
		buildSidecar();
	} catch ( error ) {
		fail( ( error as Error ).message );
	}
	const child = spawn(
		process.execPath,
		[ ...SIDECAR_HEAP_FLAGS, '--enable-source-maps', SIDECAR_BUILD_MAIN, ...args ],
		{ cwd: ROOT, stdio: 'inherit' }
	);
	// A signal sent to this process only (kill, a supervisor) reaches the sidecar too; its
	// shutdown ignores a second one, as when Ctrl-C reaches both. SIGHUP reopens its log file.
	for ( const name of [ 'SIGINT', 'SIGTERM', 'SIGHUP' ] as const ) {
		process.on( name, () => child.kill( name ) );
	}
	// A shell's convention for a process ended by a signal: 128 + its number.
	child.on( 'exit', ( code, signal ) =>
		process.exit( code ?? 128 + ( signal ? os.constants.signals[ signal ] : 0 ) )
	);
}

async function health( url: string ): Promise< string > {
	try {
		const response = await fetch( `${ url }/health`, { signal: AbortSignal.timeout( 5000 ) } );
		await response.arrayBuffer();
		return response.ok ? 'answers /health' : `/health answers HTTP ${ response.status }`;
	} catch ( error ) {
		return `does not answer /health: ${ ( error as Error ).message }`;
	}
}

async function run( command: Command, name: string ): Promise< number > {
	// Loaded once --help is answered and the arguments are known good.
	const control = await import( './lib/dev-sidecar' );
	const again = commandFor( name, 'npm run sidecar -- start' );
	if ( command === 'status' ) {
		const status = control.sidecarStatus( name );
		if ( status.pid === undefined ) {
			process.stdout.write( `The sidecar is stopped (its URL: ${ status.url }). Start it: ${ again }\n` );
			return EXIT_STOPPED;
		}
		process.stdout.write(
			`The sidecar is running: pid ${ status.pid }, ${ status.url } (${ await health( status.url ) }); log: ${ status.logFile ?? 'none' }\n`
		);
		return 0;
	}
	if ( command === 'stop' ) {
		step( 'Stopping the sidecar; WordPress keeps running' );
		const pid = await control.stopEnvironmentSidecar( name );
		done(
			pid === undefined
				? `the sidecar was already stopped; start it again: ${ again }`
				: `sidecar stopped (pid ${ pid }); order events wait in the outbox. Start it again: ${ again }`
		);
		return 0;
	}
	const { url, logFile } = control.sidecarStatus( name );
	step( `Starting the sidecar on ${ url }, as npm start did` );
	buildSidecar();
	const { pid, already } = await control.startEnvironmentSidecar( name );
	done(
		already
			? `the sidecar was already running (pid ${ pid }, ${ url })`
			: `sidecar answers /health (pid ${ pid }, ${ url }); log: ${ logFile ?? 'none' }`
	);
	return 0;
}

async function main(): Promise< void > {
	const [ first, ...rest ] = process.argv.slice( 2 );
	if ( ! isCommand( first ) ) {
		foreground( process.argv.slice( 2 ) );
		return;
	}
	let flags: Record< string, string | true >;
	let name: string;
	try {
		flags = parseFlags( rest, [ 'help', 'env' ] );
		name = envFlag( flags );
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	if ( flags.help ) {
		process.stdout.write( HELP[ first ] );
		return;
	}
	if ( ! readRunning( name ) ) {
		return fail(
			`npm start is not running (${ shown( runFile( name ) ) } names no live process). Start the environment with ${ commandFor(
				name,
				'npm start'
			) }; a sidecar on its own, in the foreground: npm run sidecar`
		);
	}
	try {
		process.exitCode = await run( first, name );
	} catch ( error ) {
		fail( ( error as Error ).message );
	}
}

void main();

/**
 * npm stop: stops what `npm start` started, even when that terminal is gone, and whatever a
 * start that failed or was killed half-way left running (found by the pids each start records
 * in the environment's folder as soon as it launches a process, each checked to still be ours).
 */
import fs from 'fs';
import path from 'path';
import { envFlag, parseFlags } from './lib/cli-args';
import { environmentDir, runFile as runFileOf } from './lib/paths';
import { done, fail, step } from './lib/progress';

const HELP = `Usage: npm stop [-- --env=dev]

Stops the WordPress environment and the sidecar started by \`npm start\` (also one started
again by \`npm run sidecar -- start\`), and anything
a failed or interrupted start left running (sidecar, wp-env, Playground server), and the
production runtime's processes of an environment of that name (nginx, PHP-FPM, MariaDB,
the sidecar, the cron loop).
--env names another environment under .cache/environments/ (e.g. an e2e run's
E2E_ENV_NAME whose process was killed); default: dev.
`;

async function main(): Promise< void > {
	let flags: Record< string, string | true >;
	let name: string;
	try {
		flags = parseFlags( process.argv.slice( 2 ), [ 'help', 'env' ] );
		name = envFlag( flags );
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	if ( flags.help ) {
		process.stdout.write( HELP );
		return;
	}
	// Loaded once --help is answered: they take a second or two to load.
	const [ { describeStack, stopLeftovers }, { stopWordPress }, { stopProduction } ] = await Promise.all( [
		import( './lib/stack' ),
		import( './lib/wp-env' ),
		import( './production/stack' ),
	] );
	const runFile = runFileOf( name );
	let stoppedStart = false;
	if ( fs.existsSync( runFile ) ) {
		const running = JSON.parse( fs.readFileSync( runFile, 'utf8' ) ) as {
			pid: number;
			runtime: 'playground' | 'docker';
		};
		step( 'Asking `npm start` to stop' );
		if ( signal( running.pid, 'SIGTERM' ) && ( await waitForExit( running.pid, 30_000 ) ) ) {
			done( 'npm start stopped' );
		} else {
			// The start process is gone or stuck: its WordPress is stopped through wp-env below.
			signal( running.pid, 'SIGKILL' );
			const { env } = describeStack( { name, runtime: running.runtime, wpPort: 8888, sidecarPort: 8787 } );
			await stopWordPress( env ).catch( ( error ) =>
				process.stderr.write( `${ ( error as Error ).message }\n` )
			);
		}
		fs.rmSync( runFile, { force: true } );
		stoppedStart = true;
	}

	const leftovers = await stopLeftovers( name );
	for ( const line of leftovers ) {
		done( `stopped ${ line }, left by an earlier start` );
	}
	// The production runtime of the same name (an E2E_RUNTIME=production run that was killed
	// before its teardown, or `npm run production -- start --env=<name>`).
	const production = fs.existsSync( path.join( environmentDir( name ), 'production' ) )
		? await stopProduction( name )
		: [];
	for ( const line of production ) {
		done( `stopped ${ line } (production runtime)` );
	}
	if ( ! stoppedStart && leftovers.length === 0 && production.length === 0 ) {
		process.stdout.write(
			`Nothing is running (no .cache/environments/${ name }/running.json, and no process recorded there is alive).\n`
		);
	}
}

function signal( pid: number, name: NodeJS.Signals | 0 ): boolean {
	try {
		process.kill( pid, name );
		return true;
	} catch {
		return false;
	}
}

async function waitForExit( pid: number, timeoutMs: number ): Promise< boolean > {
	const deadline = Date.now() + timeoutMs;
	while ( Date.now() < deadline ) {
		if ( ! signal( pid, 0 ) ) {
			return true;
		}
		await new Promise( ( r ) => setTimeout( r, 250 ) );
	}
	return false;
}

void main();

/**
 * npm run wp -- <wp-cli arguments>: WP-CLI on the site `npm start` runs (Playground runtime),
 * through Playground's own PHP, since wp-env's `run` does not support that runtime.
 */
import { spawnSync } from 'child_process';
import { envFlag } from './lib/cli-args';
import { fail } from './lib/progress';

const HELP = `Usage: npm run wp -- [--env=dev] <WP-CLI command and options>

Runs WP-CLI (the phar of ../shared/builds) on the site npm start runs, in WordPress Playground's
PHP with the same folders and wp-config constants as the site's server, on the same SQLite
database: running or stopped, both work. About 15 s a command (PHP as WebAssembly boots WordPress
each time). --env picks another environment under .cache/environments/ (default dev); every
other argument goes to WP-CLI, e.g.

  npm run wp -- plugin list
  npm run wp -- service-integration --user=admin outbox status
  npm run wp -- --env=other option get home
`;

async function main(): Promise< void > {
	const args = process.argv.slice( 2 );
	if ( args.length === 0 || args[ 0 ] === '--help' ) {
		process.stdout.write( HELP );
		return;
	}
	const env = args[ 0 ]?.startsWith( '--env=' ) ? ( args.shift() as string ).slice( '--env='.length ) : undefined;
	let command: string[];
	try {
		// Loaded once --help is answered.
		const wpCli = await import( './lib/playground-wp-cli' );
		const name = envFlag( env === undefined ? {} : { env } );
		command = wpCli.playgroundWpCliArgs( wpCli.readPlaygroundSite( name ), wpCli.wpCliPhar(), args );
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	const run = spawnSync( process.execPath, command, { stdio: 'inherit' } );
	process.exitCode = run.status ?? 1;
}

void main();

/**
 * npm stop: stops what `npm start` started, even when that terminal is gone.
 */
import fs from 'fs';
import path from 'path';
import { environmentDir } from './lib/paths';
import { done, step } from './lib/progress';
import { describeStack } from './lib/stack';
import { stopWordPress } from './lib/wp-env';

const HELP = `Usage: npm stop

Stops the WordPress environment and the sidecar started by \`npm start\`.
`;
const RUN_FILE = path.join( environmentDir( 'dev' ), 'running.json' );

async function main(): Promise< void > {
	if ( process.argv.includes( '--help' ) ) {
		process.stdout.write( HELP );
		return;
	}
	if ( ! fs.existsSync( RUN_FILE ) ) {
		process.stdout.write( 'Nothing is running (no .cache/environments/dev/running.json).\n' );
		return;
	}
	const running = JSON.parse( fs.readFileSync( RUN_FILE, 'utf8' ) ) as { pid: number; sidecarPid?: number; runtime: 'playground' | 'docker' };

	step( 'Asking `npm start` to stop' );
	if ( signal( running.pid, 'SIGTERM' ) && ( await waitForExit( running.pid, 30_000 ) ) ) {
		done( 'stopped' );
		return;
	}

	// The start process is gone or stuck: clean up after it.
	signal( running.pid, 'SIGKILL' );
	if ( running.sidecarPid ) {
		signal( running.sidecarPid, 'SIGTERM' );
	}
	const { env } = describeStack( { name: 'dev', runtime: running.runtime, wpPort: 8888, sidecarPort: 8787 } );
	await stopWordPress( env );
	fs.rmSync( RUN_FILE, { force: true } );
	done( 'stopped' );
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

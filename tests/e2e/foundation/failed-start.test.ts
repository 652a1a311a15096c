import { spawn } from 'child_process';
import fs from 'fs';
import path from 'path';
import { environmentDir, ROOT } from '../../../scripts/lib/paths';
import { startStack, type StackOptions } from '../../../scripts/lib/stack';
import { E2E_ENV_NAME, E2E_SIDECAR_PORT, E2E_WP_PORT } from '../support/environment';
import { killProcessesOfEnvironment, processesOfEnvironment, stopEnvironment } from '../support/environment-processes';
import { waitUntil } from '../../support/wait-until';

/**
 * A start that cannot bring WordPress up stops what it launched and says why, and
 * `npm stop` finds what a start killed half-way left running. Each case starts a stack of
 * its own: environment `<E2E_ENV_NAME>-failstart`, on the suite's ports + 4 (past the production
 * runtime's PHP-FPM and MariaDB at WordPress's port + 2 and + 3, so the suite on either runtime,
 * and runs side by side, do not collide), with a test plugin whose activation dies with a PHP fatal error
 * mounted as the commerce plugin (which the local environment activates).
 */
const NAME = `${ E2E_ENV_NAME }-failstart`;
const DIR = environmentDir( NAME );
const FATAL_PLUGIN = path.join( ROOT, 'tests', 'fixtures', 'plugins', 'activation-fatal' );
const OPTIONS: StackOptions = {
	name: NAME,
	runtime: 'playground',
	wpPort: E2E_WP_PORT + 4,
	sidecarPort: E2E_SIDECAR_PORT + 4,
	freshSite: true,
	sidecarLogFile: path.join( DIR, 'sidecar.log' ),
};

function processesOfThisEnvironment(): string[] {
	return processesOfEnvironment( DIR );
}

function npmStop(): Promise< string > {
	return stopEnvironment( NAME );
}

describe( 'a start that fails', () => {
	// Whatever a failing assertion left, before the next test starts the same environment:
	// stop.ts is the code under test, so kill by our own scan.
	afterEach( () => killProcessesOfEnvironment( DIR ) );

	it( 'rejects with the PHP fatal error from the site debug.log and leaves no sidecar or Playground server running', async () => {
		const start = startStack( { ...OPTIONS, woocommerceDir: FATAL_PLUGIN } );
		await expect( start ).rejects.toThrow(
			/PHP Fatal error: .*Call to undefined function service_integration_test_activation_fatal_undefined_function\(\)/
		);
		expect( processesOfThisEnvironment() ).toEqual( [] );
		expect( await npmStop() ).toContain( 'Nothing is running' );
	} );

	it( '`npm stop` stops the sidecar and the Playground server of a start that was killed half-way (no running.json)', async () => {
		const child = spawn(
			process.execPath,
			[
				'-r',
				'ts-node/register/transpile-only',
				path.join( __dirname, 'start-stack-child.ts' ),
				JSON.stringify( OPTIONS ),
			],
			{ cwd: ROOT, stdio: 'ignore', env: { ...process.env, TS_NODE_PROJECT: path.join( ROOT, 'tsconfig.json' ) } }
		);
		const exited = new Promise( ( resolve ) => child.once( 'exit', resolve ) );
		// Killed once the Playground server has been launched, before WordPress answers.
		await waitUntil(
			() => fs.existsSync( path.join( DIR, 'wordpress.pid' ) ),
			60_000,
			'the Playground server launched',
			100
		);
		child.kill( 'SIGKILL' );
		await exited;
		expect( fs.existsSync( path.join( DIR, 'running.json' ) ) ).toBe( false );
		const left = processesOfThisEnvironment();
		expect( left.some( ( line ) => line.includes( 'wp-playground' ) ) ).toBe( true );
		expect( left.some( ( line ) => line.includes( path.join( ROOT, 'sidecar' ) ) ) ).toBe( true );

		const output = await npmStop();
		expect( output ).toMatch( /stopped the sidecar \(pid \d+\)/ );
		expect( output ).toMatch( /stopped the Playground server \(pid \d+\)/ );
		expect( processesOfThisEnvironment() ).toEqual( [] );
	} );
} );

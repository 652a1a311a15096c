import { spawn } from 'child_process';
import fs from 'fs';
import net from 'net';
import path from 'path';
import { step, timed } from '../../scripts/lib/progress';
import { waitForSite } from '../../scripts/lib/wp-env';
import { nativeSiteDir, prepareNativeSite, type NativeSiteOptions } from './native-site';
import { ensurePhp } from './php';

/**
 * WordPress on native PHP, for the benchmarks only: PHP's built-in web server with
 * PHP_CLI_SERVER_WORKERS worker processes, so requests run in parallel as under PHP-FPM,
 * instead of Playground's single WebAssembly worker. One server per environment name;
 * its pid is recorded so a later run (or --stop) can end a server an earlier run left.
 */
export interface NativeWordPressOptions extends NativeSiteOptions {
	/** PHP_CLI_SERVER_WORKERS: requests served at once. */
	workers: number;
	timeoutMs?: number;
}

export interface NativeWordPress {
	siteUrl: string;
	pid: number;
	logFile: string;
	phpVersion: string;
	/** Stops the server and its workers. */
	stop: () => Promise< void >;
}

const HOST = '127.0.0.1';

function pidFile( name: string ): string {
	return path.join( nativeSiteDir( name ), 'php-server.pid' );
}

/** True when `pid` is still a PHP built-in server (not a recycled pid of something else). */
function isPhpServer( pid: number ): boolean {
	try {
		const args = fs.readFileSync( `/proc/${ pid }/cmdline`, 'utf8' ).split( '\0' );
		return args.includes( '-S' ) && path.basename( args[ 0 ] ?? '' ).startsWith( 'php' );
	} catch {
		return false;
	}
}

function groupAlive( pid: number ): boolean {
	try {
		process.kill( -pid, 0 );
		return true;
	} catch {
		return false;
	}
}

/** Ends the server's whole process group (the server and the workers it forked). */
async function killGroup( pid: number ): Promise< void > {
	for ( const signal of [ 'SIGTERM', 'SIGKILL' ] as const ) {
		try {
			process.kill( -pid, signal );
		} catch {
			return;
		}
		const deadline = Date.now() + 3000;
		while ( groupAlive( pid ) && Date.now() < deadline ) {
			await new Promise( ( r ) => setTimeout( r, 100 ) );
		}
		if ( ! groupAlive( pid ) ) {
			return;
		}
	}
}

/** Stops the server an earlier start of environment `name` recorded, if it still runs. */
export async function stopNativeWordPress( name: string ): Promise< void > {
	const file = pidFile( name );
	const pid = fs.existsSync( file ) ? Number( fs.readFileSync( file, 'utf8' ) ) : 0;
	if ( pid > 0 && isPhpServer( pid ) ) {
		await killGroup( pid );
	}
	fs.rmSync( file, { force: true } );
}

function portTaken( port: number ): Promise< boolean > {
	return new Promise( ( resolve ) => {
		const socket = net.connect( { host: HOST, port } );
		socket.once( 'connect', () => {
			socket.destroy();
			resolve( true );
		} );
		socket.once( 'error', () => resolve( false ) );
	} );
}

export async function startNativeWordPress( options: NativeWordPressOptions ): Promise< NativeWordPress > {
	const php = ensurePhp();
	await stopNativeWordPress( options.name );
	if ( await portTaken( options.port ) ) {
		throw new Error(
			`Port ${ options.port } on ${ HOST } is already in use: stop what runs there or choose another --wp-port`
		);
	}

	step(
		`Preparing native WordPress "${ options.name }" (PHP ${ php.version }${ options.fresh ? ', fresh database' : '' })`
	);
	const site = await timed( 'core, SQLite drop-in, wp-config.php, plugins linked, installed', async () =>
		prepareNativeSite( php.binary, options )
	);

	step( `Starting PHP's built-in server on ${ site.siteUrl } with ${ options.workers } workers` );
	const logFile = path.join( site.dir, 'php-server.log' );
	const log = fs.openSync( logFile, 'a' );
	const server = spawn(
		php.binary,
		[ '-S', `${ HOST }:${ options.port }`, '-t', site.docroot, path.join( __dirname, 'router.php' ) ],
		{
			cwd: site.docroot,
			// Its own process group, so stopping it ends the workers it forks too.
			detached: true,
			stdio: [ 'ignore', log, log ],
			env: { ...process.env, PHP_CLI_SERVER_WORKERS: String( options.workers ) },
		}
	);
	fs.closeSync( log );
	const pid = server.pid as number;
	fs.writeFileSync( pidFile( options.name ), String( pid ) );
	let exited: string | undefined;
	server.once( 'exit', ( code, signal ) => {
		exited = `the PHP server exited (${ signal ?? `code ${ code }` }); see ${ logFile }`;
	} );

	const stop = async (): Promise< void > => {
		if ( ! exited ) {
			const gone = new Promise< void >( ( resolve ) => server.once( 'exit', () => resolve() ) );
			await killGroup( pid );
			await gone;
		}
		fs.rmSync( pidFile( options.name ), { force: true } );
	};
	try {
		await timed( 'WordPress answers /wp-json/ with the plugin active', () =>
			waitForSite( site.siteUrl, options.timeoutMs ?? 60_000, () => exited )
		);
	} catch ( error ) {
		await stop();
		throw error;
	}
	server.unref();
	return { siteUrl: site.siteUrl, pid, logFile, phpVersion: php.version, stop };
}

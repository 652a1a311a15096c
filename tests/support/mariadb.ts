import { spawn, spawnSync, type ChildProcess } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import mysql from 'mysql2/promise';
import { waitUntil } from './wait-until';

/**
 * A throwaway MariaDB server for tests and benchmarks: Debian's `mariadbd` (package
 * `mariadb-server`) on a datadir in a temporary folder, on a free loopback port, running as
 * the current user. One database and one user with a random password are created; `url` is
 * what SIDECAR_DATABASE_URL takes. The user may also create databases whose names begin with
 * that name (several independent shared stores on one server). `stop()` kills the server and removes the folder.
 */
export interface RunningMariaDb {
	url: string;
	/** mariadbd's process id (tests freeze it with SIGSTOP). */
	pid: number;
	stop: () => Promise< void >;
}

const MARIADBD = '/usr/sbin/mariadbd';
const INSTALL_DB = '/usr/bin/mariadb-install-db';

async function freeLoopbackPort(): Promise< number > {
	const server = net.createServer();
	await new Promise< void >( ( resolve ) => server.listen( 0, '127.0.0.1', resolve ) );
	const { port } = server.address() as net.AddressInfo;
	await new Promise< void >( ( resolve ) => server.close( () => resolve() ) );
	return port;
}

function currentUser(): string {
	return os.userInfo().username;
}

function writeConfig( dir: string, port: number ): string {
	const config = path.join( dir, 'my.cnf' );
	const lines = [
		'[mariadbd]',
		`datadir = ${ path.join( dir, 'data' ) }`,
		`socket = ${ path.join( dir, 'mariadb.sock' ) }`,
		`pid-file = ${ path.join( dir, 'mariadb.pid' ) }`,
		`log-error = ${ path.join( dir, 'mariadb.log' ) }`,
		`port = ${ port }`,
		'bind-address = 127.0.0.1',
		// mariadbd refuses to run as root unless told to; as anyone else it runs as that user.
		`user = ${ currentUser() }`,
		'skip-name-resolve',
		'character-set-server = utf8mb4',
		'collation-server = utf8mb4_unicode_ci',
		// Small: several of these may run at once on a 2-core test machine.
		'innodb_buffer_pool_size = 64M',
		'innodb_log_file_size = 48M',
		'performance_schema = OFF',
		// A test server holds nothing worth an fsync per commit.
		'innodb_flush_log_at_trx_commit = 2',
		'max_connections = 500',
		'',
	];
	fs.writeFileSync( config, lines.join( '\n' ) );
	return config;
}

async function waitUntilAccepting( child: ChildProcess, socketPath: string, logFile: string ): Promise< void > {
	let lastError = '';
	await waitUntil(
		async () => {
			if ( child.exitCode !== null || child.signalCode !== null ) {
				throw new Error( `mariadbd exited before it accepted connections; log:\n${ readLog( logFile ) }` );
			}
			try {
				const connection = await mysql.createConnection( { socketPath, user: 'root', password: '' } );
				await connection.end();
				return true;
			} catch ( error ) {
				lastError = ( error as Error ).message;
				return false;
			}
		},
		60_000,
		() => `mariadbd accepting connections (${ lastError }); log:\n${ readLog( logFile ) }`,
		100
	);
}

function readLog( file: string ): string {
	try {
		return fs.readFileSync( file, 'utf8' ).slice( -4000 );
	} catch {
		return '(no log)';
	}
}

/**
 * Creates the system tables in dir's data folder. On a loaded machine mariadb-install-db's
 * bootstrap server has been seen to fail now and then (several suites start servers at once):
 * it is tried up to three times on an emptied data folder before the set-up fails with every
 * attempt's output.
 */
function installDataDir( dir: string, config: string ): void {
	const failures: string[] = [];
	for ( let attempt = 1; attempt <= 3; attempt++ ) {
		const init = spawnSync(
			INSTALL_DB,
			[
				`--defaults-file=${ config }`,
				'--auth-root-authentication-method=normal',
				'--skip-test-db',
				`--user=${ currentUser() }`,
			],
			{ encoding: 'utf8' }
		);
		if ( init.status === 0 ) {
			return;
		}
		failures.push(
			`attempt ${ attempt } (exit ${ init.status }):\n${ init.stdout }${ init.stderr }\nlog: ${ readLog( path.join( dir, 'mariadb.log' ) ) }`
		);
		fs.rmSync( path.join( dir, 'data' ), { recursive: true, force: true } );
	}
	fs.rmSync( dir, { recursive: true, force: true } );
	throw new Error( `mariadb-install-db failed:\n${ failures.join( '\n' ) }` );
}

export async function startMariaDb( options: { name?: string } = {} ): Promise< RunningMariaDb > {
	if ( ! fs.existsSync( MARIADBD ) || ! fs.existsSync( INSTALL_DB ) ) {
		throw new Error( `MariaDB is not installed (${ MARIADBD }); apt-get install mariadb-server` );
	}
	const name = ( options.name ?? 'sidecar' ).replace( /[^A-Za-z0-9_]/g, '_' );
	const dir = fs.mkdtempSync( path.join( os.tmpdir(), `mariadb-${ name }-` ) );
	const port = await freeLoopbackPort();
	const config = writeConfig( dir, port );
	const socketPath = path.join( dir, 'mariadb.sock' );
	const logFile = path.join( dir, 'mariadb.log' );

	installDataDir( dir, config );

	const args = [ `--defaults-file=${ config }` ];
	if ( process.getuid?.() === 0 ) {
		args.push( '--user=root' );
	}
	const child = spawn( MARIADBD, args, { stdio: 'ignore' } );
	const exited = new Promise< void >( ( resolve ) => child.once( 'exit', () => resolve() ) );
	const stop = async (): Promise< void > => {
		if ( child.exitCode === null && child.signalCode === null ) {
			child.kill( 'SIGKILL' );
			await exited;
		}
		fs.rmSync( dir, { recursive: true, force: true } );
	};

	try {
		await waitUntilAccepting( child, socketPath, logFile );
		const user = 'sidecar';
		const password = crypto.randomBytes( 12 ).toString( 'hex' );
		const root = await mysql.createConnection( {
			socketPath,
			user: 'root',
			password: '',
			multipleStatements: true,
		} );
		try {
			await root.query(
				[
					`CREATE DATABASE \`${ name }\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
					`CREATE USER '${ user }'@'127.0.0.1' IDENTIFIED BY '${ password }'`,
					`GRANT ALL PRIVILEGES ON \`${ name }%\`.* TO '${ user }'@'127.0.0.1'`,
				].join( '; ' )
			);
		} finally {
			await root.end();
		}
		return { url: `mysql://${ user }:${ password }@127.0.0.1:${ port }/${ name }`, pid: child.pid as number, stop };
	} catch ( error ) {
		await stop();
		throw error;
	}
}

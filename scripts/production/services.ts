import { spawn, spawnSync, type ChildProcess } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { ensureDebianPackages, isRoot } from '../lib/debian-packages';
import { isAlive, isOurProcess, readPid, recordPid, terminate, type ProcessIdentity } from '../lib/processes';
import type { ProductionLayout } from './layout';

/**
 * nginx, PHP-FPM and MariaDB from Debian's packages, each started WITHOUT systemd: the
 * binary itself, in the foreground of a detached process of ours, with a config file of
 * ours under .cache/ (own datadir, pid file, logs and loopback port). Stopped by pid, after
 * /proc/<pid>/cmdline says the process is still the one we started.
 */
export const PRODUCTION_PACKAGES = [
	'nginx',
	'php8.2-fpm',
	'php8.2-mysql',
	'php8.2-curl',
	'php8.2-mbstring',
	'php8.2-xml',
	'php8.2-intl',
	'php8.2-zip',
	'mariadb-server',
	// The CLI runs wp_install() (WP-CLI is in no registry reachable here).
	'php8.2-cli',
];

const BINARIES = {
	nginx: '/usr/sbin/nginx',
	phpFpm: '/usr/sbin/php-fpm8.2',
	mariadbd: '/usr/sbin/mariadbd',
	installDb: '/usr/bin/mariadb-install-db',
	mariadb: '/usr/bin/mariadb',
	/** The CLI runs wp_install() (WP-CLI is in no registry reachable here); php8.2-mysql gives it mysqli too. */
	php: '/usr/bin/php8.2',
};
const PHP_EXTENSIONS = [ 'mysqli', 'curl', 'mbstring', 'dom', 'xml', 'intl' ];
const HOW_TO_INSTALL = `Install them with \`sudo apt-get install -y ${ PRODUCTION_PACKAGES.join( ' ' ) }\`.`;

function missingPieces(): string[] {
	const missing = Object.entries( BINARIES )
		.filter( ( [ , file ] ) => ! fs.existsSync( file ) )
		.map( ( [ , file ] ) => file );
	for ( const binary of [ BINARIES.phpFpm, BINARIES.php ] ) {
		if ( ! fs.existsSync( binary ) ) {
			continue;
		}
		const modules = spawnSync( binary, [ '-m' ], { encoding: 'utf8' } ).stdout.toLowerCase().split( '\n' );
		missing.push(
			...PHP_EXTENSIONS.filter( ( name ) => ! modules.includes( name ) ).map(
				( name ) => `${ path.basename( binary ) }'s ${ name } extension`
			)
		);
	}
	return missing;
}

/** Installs Debian's packages with apt-get when something is missing and this run is root; otherwise says what to install. */
export function ensureProductionPackages(): void {
	const missing = missingPieces();
	ensureDebianPackages( {
		need: `The production runtime needs ${ missing.join( ', ' ) || 'nginx, PHP-FPM and MariaDB' }`,
		packages: [ ...PRODUCTION_PACKAGES ],
		present: () => missingPieces().length === 0,
		howToInstall: HOW_TO_INSTALL,
	} );
}

export function phpCli(): string {
	return BINARIES.php;
}

/** A process of the stack: its pid file, and what its command line must contain to still be ours. */
export interface ServiceProcess {
	pidFile: string;
	identity: ProcessIdentity;
}

export function mariadbProcess( layout: ProductionLayout ): ServiceProcess {
	return {
		pidFile: layout.mariadb.pidFile + '.ours',
		identity: { label: 'MariaDB', cmdline: [ 'mariadbd', `--defaults-file=${ layout.mariadb.config }` ] },
	};
}

/** PHP-FPM's master renames itself "php-fpm: master process (<config>)". */
export function phpFpmProcess( layout: ProductionLayout ): ServiceProcess {
	return {
		pidFile: layout.phpFpm.pidFile + '.ours',
		identity: { label: 'PHP-FPM', cmdline: [ 'php-fpm', layout.phpFpm.config ] },
	};
}

/** nginx's master renames itself "nginx: master process <command line>". */
export function nginxProcess( layout: ProductionLayout ): ServiceProcess {
	return {
		pidFile: layout.nginx.pidFile + '.ours',
		identity: { label: 'nginx', cmdline: [ 'nginx', layout.nginx.config ] },
	};
}

/**
 * Starts a long-running server in its own process group (so a test run's exit does not take
 * it down), output appended to `log`, and records its pid at once.
 */
export function spawnDetached(
	command: string,
	args: string[],
	log: string,
	service: ServiceProcess,
	env: NodeJS.ProcessEnv = process.env
): ChildProcess {
	fs.mkdirSync( path.dirname( log ), { recursive: true } );
	const out = fs.openSync( log, 'a' );
	const child = spawn( command, args, { detached: true, stdio: [ 'ignore', out, out ], env } );
	fs.closeSync( out );
	recordPid( service.pidFile, child.pid );
	child.unref();
	return child;
}

/** Stops a recorded process if it is still ours (SIGTERM, then SIGKILL after `graceMs`). Says what it stopped. */
export async function stopService( service: ServiceProcess, graceMs = 10_000 ): Promise< string | undefined > {
	const pid = readPid( service.pidFile );
	let stopped: string | undefined;
	if ( pid && isOurProcess( pid, service.identity ) ) {
		await terminate( pid, false, graceMs );
		stopped = `${ service.identity.label } (pid ${ pid })`;
	} else if ( pid && isAlive( pid ) ) {
		stopped = `nothing: pid ${ pid } from ${ service.pidFile } is no longer ${ service.identity.label }, left alone`;
	}
	fs.rmSync( service.pidFile, { force: true } );
	return stopped;
}

function lastLines( file: string, count = 15 ): string {
	try {
		return fs.readFileSync( file, 'utf8' ).trimEnd().split( '\n' ).slice( -count ).join( '\n' );
	} catch {
		return '(no log)';
	}
}

export function portOpen( port: number, host = '127.0.0.1' ): Promise< boolean > {
	return new Promise( ( resolve ) => {
		const socket = net.connect( { host, port } );
		socket.once( 'connect', () => {
			socket.destroy();
			resolve( true );
		} );
		socket.once( 'error', () => resolve( false ) );
	} );
}

/** Refuses a port someone else already listens on, before anything starts. */
export async function assertPortsFree( ports: Record< string, number > ): Promise< void > {
	const taken: string[] = [];
	for ( const [ what, port ] of Object.entries( ports ) ) {
		if ( await portOpen( port ) ) {
			taken.push( `${ what } port ${ port }` );
		}
	}
	if ( taken.length > 0 ) {
		throw new Error(
			`Already in use on 127.0.0.1: ${ taken.join( ', ' ) }. Stop what runs there (npm run production -- stop --env=<name>) or choose other ports.`
		);
	}
}

/** Waits until the child listens on the port; fails at once, with its log, if it exits. */
export async function waitForPort(
	child: ChildProcess,
	port: number,
	what: string,
	log: string,
	timeoutMs = 60_000
): Promise< void > {
	const deadline = Date.now() + timeoutMs;
	while ( Date.now() < deadline ) {
		if ( child.exitCode !== null || child.signalCode !== null ) {
			throw new Error(
				`${ what } exited (${ child.exitCode ?? child.signalCode }) before listening on ${ port }. End of ${ log }:\n${ lastLines( log ) }`
			);
		}
		if ( await portOpen( port ) ) {
			return;
		}
		await new Promise( ( r ) => setTimeout( r, 200 ) );
	}
	throw new Error(
		`${ what } did not listen on 127.0.0.1:${ port } within ${ timeoutMs / 1000 } s. End of ${ log }:\n${ lastLines( log ) }`
	);
}

/** The OS user the servers run as: the one running this script (root in CI). */
function currentUser(): string {
	return os.userInfo().username;
}

// ---------------------------------------------------------------- MariaDB

export interface Database {
	name: string;
	user: string;
	password: string;
	host: string;
	port: number;
}

function writeMariadbConfig( layout: ProductionLayout, port: number ): void {
	const { mariadb } = layout;
	const lines = [
		'# Written by scripts/production at every start: edits are lost.',
		'[mariadbd]',
		`datadir = ${ mariadb.datadir }`,
		// Its own temporary tables' folder, not the machine's /tmp that every other server and test shares.
		`tmpdir = ${ mariadb.tmpdir }`,
		`socket = ${ mariadb.socket }`,
		`pid-file = ${ mariadb.pidFile }`,
		`log-error = ${ mariadb.log }`,
		`port = ${ port }`,
		'bind-address = 127.0.0.1',
		// mariadbd refuses to run as root unless told to; as anyone else it runs as that user.
		`user = ${ currentUser() }`,
		'skip-name-resolve',
		'character-set-server = utf8mb4',
		'collation-server = utf8mb4_unicode_ci',
		// A small test server on a shared 2-core machine: Debian's defaults, minus what it does not need.
		'innodb_buffer_pool_size = 128M',
		'performance_schema = OFF',
		'',
		'[client]',
		`socket = ${ mariadb.socket }`,
		`port = ${ port }`,
		'',
	];
	fs.mkdirSync( mariadb.tmpdir, { recursive: true } );
	fs.writeFileSync( mariadb.config, lines.join( '\n' ) );
}

/** Runs SQL as MariaDB's root over the socket (root has no password in this private datadir, reachable only by this OS user); tab-separated rows. */
export function mariadbSql( layout: ProductionLayout, sql: string ): string {
	const result = spawnSync(
		BINARIES.mariadb,
		[ `--defaults-file=${ layout.mariadb.config }`, '-uroot', '--batch', '--skip-column-names', '-e', sql ],
		{ encoding: 'utf8' }
	);
	if ( result.status !== 0 ) {
		throw new Error( `MariaDB refused SQL (${ sql.slice( 0, 80 ) }…): ${ result.stderr.trim() }` );
	}
	return result.stdout;
}

/**
 * Starts MariaDB on a datadir of its own (created with mariadb-install-db on a fresh start),
 * then makes sure the WordPress database and its user exist.
 */
export async function startMariadb( layout: ProductionLayout, port: number, fresh: boolean ): Promise< Database > {
	writeMariadbConfig( layout, port );
	if ( fresh ) {
		fs.rmSync( layout.mariadb.datadir, { recursive: true, force: true } );
	}
	if ( ! fs.existsSync( path.join( layout.mariadb.datadir, 'mysql' ) ) ) {
		fs.mkdirSync( layout.mariadb.datadir, { recursive: true } );
		const init = spawnSync(
			BINARIES.installDb,
			[
				`--defaults-file=${ layout.mariadb.config }`,
				'--auth-root-authentication-method=normal',
				'--skip-test-db',
				`--user=${ currentUser() }`,
			],
			{ encoding: 'utf8' }
		);
		if ( init.status !== 0 ) {
			throw new Error( `mariadb-install-db failed (exit ${ init.status }):\n${ init.stdout }${ init.stderr }` );
		}
	}
	const service = mariadbProcess( layout );
	const child = spawnDetached(
		BINARIES.mariadbd,
		[ `--defaults-file=${ layout.mariadb.config }` ],
		layout.mariadb.log,
		service
	);
	await waitForPort( child, port, 'MariaDB', layout.mariadb.log );

	return ensureDatabase( layout, port, 'wordpress', fresh );
}

/**
 * A database and a user of the same name that sees only it, reached over TCP on loopback as a
 * database server is (WordPress's; the shared store's sidecars'). The password is made once and
 * kept in a 0600 file beside the datadir.
 */
export function ensureDatabase( layout: ProductionLayout, port: number, name: string, fresh: boolean ): Database {
	const passwordFile = path.join( layout.mariadb.dir, `${ name }-password` );
	if ( ! fs.existsSync( passwordFile ) || fresh ) {
		fs.writeFileSync( passwordFile, crypto.randomBytes( 18 ).toString( 'base64url' ), { mode: 0o600 } );
	}
	const database: Database = {
		name,
		user: name,
		password: fs.readFileSync( passwordFile, 'utf8' ).trim(),
		host: '127.0.0.1',
		port,
	};
	mariadbSql(
		layout,
		[
			`CREATE DATABASE IF NOT EXISTS \`${ database.name }\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
			`CREATE USER IF NOT EXISTS '${ database.user }'@'127.0.0.1' IDENTIFIED BY '${ database.password }'`,
			`ALTER USER '${ database.user }'@'127.0.0.1' IDENTIFIED BY '${ database.password }'`,
			`GRANT ALL PRIVILEGES ON \`${ database.name }\`.* TO '${ database.user }'@'127.0.0.1'`,
		].join( '; ' )
	);
	return database;
}

export function mariadbVersion( layout: ProductionLayout ): string {
	return mariadbSql( layout, 'SELECT VERSION()' ).trim();
}

// ---------------------------------------------------------------- PHP-FPM

function writePhpFpmConfig( layout: ProductionLayout, port: number, workers: number ): void {
	const root = isRoot();
	const lines = [
		'; Written by scripts/production at every start: edits are lost.',
		'[global]',
		`pid = ${ layout.phpFpm.pidFile }`,
		`error_log = ${ layout.phpFpm.log }`,
		'daemonize = no',
		'',
		'[wordpress]',
		`listen = 127.0.0.1:${ port }`,
		'listen.allowed_clients = 127.0.0.1',
		// As root (CI), the workers run as root too (php-fpm -R): the docroot under .cache/ is root's.
		// A real server runs them as www-data (docs/production.md).
		...( root ? [ 'user = root', 'group = root' ] : [] ),
		'pm = dynamic',
		`pm.max_children = ${ workers }`,
		'pm.start_servers = 2',
		'pm.min_spare_servers = 1',
		`pm.max_spare_servers = ${ Math.max( 2, workers - 1 ) }`,
		'catch_workers_output = yes',
		'decorate_workers_output = no',
		// Uploading the release zip through wp-admin (Debian's php.ini allows 2 MB).
		'php_value[upload_max_filesize] = 64M',
		'php_value[post_max_size] = 64M',
		'php_value[memory_limit] = 256M',
		// Deliberately NO php_admin_value[error_log]: an admin value cannot be changed at run time,
		// so it would silently override WP_DEBUG_LOG (WordPress's ini_set of error_log fails) and
		// PHP warnings and fatals would go to that file instead of wp-content/debug.log.
		'',
	];
	fs.mkdirSync( layout.phpFpm.dir, { recursive: true } );
	fs.writeFileSync( layout.phpFpm.config, lines.join( '\n' ) );
}

export async function startPhpFpm( layout: ProductionLayout, port: number, workers: number ): Promise< void > {
	writePhpFpmConfig( layout, port, workers );
	const args = [
		'--fpm-config',
		layout.phpFpm.config,
		'--nodaemonize',
		...( isRoot() ? [ '--allow-to-run-as-root' ] : [] ),
	];
	const test = spawnSync( BINARIES.phpFpm, [ ...args, '--test' ], { encoding: 'utf8' } );
	if ( test.status !== 0 ) {
		throw new Error( `php-fpm8.2 --test refused ${ layout.phpFpm.config }:\n${ test.stdout }${ test.stderr }` );
	}
	const child = spawnDetached( BINARIES.phpFpm, args, layout.phpFpm.log, phpFpmProcess( layout ) );
	await waitForPort( child, port, 'PHP-FPM', layout.phpFpm.log );
}

// ---------------------------------------------------------------- nginx

function writeNginxConfig( layout: ProductionLayout, port: number, fpmPort: number ): void {
	const { nginx } = layout;
	const temp = path.join( nginx.dir, 'temp' );
	for ( const sub of [ 'client_body', 'fastcgi', 'proxy', 'uwsgi', 'scgi' ] ) {
		fs.mkdirSync( path.join( temp, sub ), { recursive: true } );
	}
	const config = `# Written by scripts/production at every start: edits are lost.
daemon off;
worker_processes 2;
pid ${ nginx.pidFile };
error_log ${ nginx.errorLog } warn;
${ isRoot() ? 'user root root;' : '' }
events {
	worker_connections 512;
}
http {
	include /etc/nginx/mime.types;
	default_type application/octet-stream;
	access_log ${ nginx.accessLog };
	client_body_temp_path ${ temp }/client_body;
	fastcgi_temp_path ${ temp }/fastcgi;
	proxy_temp_path ${ temp }/proxy;
	uwsgi_temp_path ${ temp }/uwsgi;
	scgi_temp_path ${ temp }/scgi;
	sendfile on;
	keepalive_timeout 65;
	# The plugin zip goes through wp-admin's upload form.
	client_max_body_size 64m;

	server {
		listen 127.0.0.1:${ port };
		server_name localhost 127.0.0.1;
		root ${ layout.wordpress };
		index index.php;

		# What .htaccess files protect under Apache; debug.log may hold paths and SQL.
		location ~ /\\.ht { deny all; }
		location = /wp-content/debug.log { deny all; }
		location = /wp-config.php { deny all; }

		# WordPress's permalinks and /wp-json/: anything that is not a file goes to index.php.
		location / {
			try_files $uri $uri/ /index.php?$args;
		}

		location ~ \\.php$ {
			try_files $uri =404;
			include /etc/nginx/fastcgi_params;
			fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
			# Debian 12's fastcgi_params (seen in nginx 1.22.1-9+deb12u11) sends HTTP_HOST as $host, which
			# drops the port: WordPress on a port other than 80/443 would then answer every page with a
			# 301 to itself (redirect_canonical). This server has one port; the later value wins in PHP.
			fastcgi_param HTTP_HOST $host:$server_port;
			fastcgi_pass 127.0.0.1:${ fpmPort };
			# Some e2e requests (capability sweeps with real WooCommerce) take long on a busy machine.
			fastcgi_read_timeout 300s;
		}
	}
}
`;
	fs.writeFileSync( nginx.config, config );
}

export async function startNginx( layout: ProductionLayout, port: number, fpmPort: number ): Promise< void > {
	writeNginxConfig( layout, port, fpmPort );
	// -e: the error log before the config is read (else /var/log/nginx/error.log); -p: relative paths.
	const args = [ '-c', layout.nginx.config, '-p', layout.nginx.dir + '/', '-e', layout.nginx.errorLog ];
	const test = spawnSync( BINARIES.nginx, [ ...args, '-t' ], { encoding: 'utf8' } );
	if ( test.status !== 0 ) {
		throw new Error( `nginx -t refused ${ layout.nginx.config }:\n${ test.stdout }${ test.stderr }` );
	}
	const child = spawnDetached( BINARIES.nginx, args, layout.nginx.errorLog, nginxProcess( layout ) );
	await waitForPort( child, port, 'nginx', layout.nginx.errorLog );
}

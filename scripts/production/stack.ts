import { spawn, spawnSync } from 'child_process';
import fs from 'fs';
import path from 'path';
import { done, step, timed } from '../lib/progress';
import { readPid, recordPid, type ProcessIdentity } from '../lib/processes';
import { coreTreeVersion } from '../lib/wordpress-core';
import type { OrderStorage, SiteReport } from '../lib/wp-env';
import { productionLayout, type ProductionLayout } from './layout';
import { buildRelease, readReleaseArtifacts, type ReleaseArtifacts } from './release';
import {
	assertPortsFree,
	ensureDatabase,
	ensureProductionPackages,
	mariadbProcess,
	mariadbSql,
	mariadbVersion,
	nginxProcess,
	phpFpmProcess,
	startMariadb,
	startNginx,
	startPhpFpm,
	stopService,
	type ServiceProcess,
} from './services';
import {
	initSidecar,
	installSidecar,
	peerCommand,
	sidecarCommand,
	sidecarDatabaseUrl,
	startSidecarProcess,
	stopSidecarProcess,
	type SidecarCommand,
	type SidecarInstance,
} from './sidecar';
import {
	activatePlugin,
	adminCookie,
	installWordPress,
	PLUGIN_FILE,
	prepareDocroot,
	uploadPluginZip,
	waitForSite,
} from './wordpress';

/**
 * The production runtime: nginx + PHP-FPM + MariaDB from Debian's packages, WordPress on
 * MariaDB, the plugin from the release zip (through wp-admin's upload form), WooCommerce (when
 * the site has a shop), the sidecar from the release tarball, and a system-cron-like loop. All of it under
 * .cache/environments/<name>/production/, on loopback ports, stopped by pid.
 */
export interface ProductionOptions {
	name: string;
	wpPort: number;
	sidecarPort: number;
	fpmPort: number;
	dbPort: number;
	/** Start from empty databases (WordPress's and the sidecar's) and a new copy of core. */
	fresh: boolean;
	/** Release artifacts to install (a folder with the zip, the tarball and SHA256SUMS); default: build them with npm run release. */
	releaseDir?: string;
	wordpressDir?: string;
	woocommerceDir?: string;
	orderStorage: OrderStorage;
	extraPlugins?: Record< string, string >;
	/** A folder of one's own must-use plugins (wordpress.ts). */
	localMuPluginsDir?: string;
	sidecarEnv?: NodeJS.ProcessEnv;
	/** Seconds between two wp-cron.php calls of the cron loop (a crontab's minute: 60). */
	cronSeconds: number;
	/** PHP-FPM's pm.max_children. */
	phpWorkers: number;
	/** Install the sidecar tarball into a new prefix even when this exact tarball was installed before. */
	freshSidecarInstall?: boolean;
	/**
	 * The sidecar's store: SQLite in its data folder (default), or the shared store, a database of
	 * its own on the runtime's MariaDB (docs/production.md, several instances).
	 */
	sidecarStore?: 'sqlite' | 'mariadb';
	/** On the shared store, a second instance beside the first (on `sidecarPeerPort`, default WordPress's port + 5). */
	sidecarInstances?: 1 | 2;
	sidecarPeerPort?: number;
}

export interface ProductionStack {
	name: string;
	siteUrl: string;
	sidecarUrl: string;
	sharedKey: string;
	layout: ProductionLayout;
	sidecar: SidecarCommand & { pid: number; prefix: string };
	/** The sidecars' store, and the second instance on it (it delivers too; WordPress talks to the first). */
	sidecarStore: 'sqlite' | 'mariadb';
	sidecarPeer?: SidecarCommand & { pid: number; url: string };
	release: Pick< ReleaseArtifacts, 'version' | 'pluginZip' | 'sidecarTarball' | 'checksums' >;
	site: SiteReport;
	versions: { nginx: string; php: string; mariadb: string; wordpress: string };
	ports: { wordpress: number; sidecar: number; phpFpm: number; mariadb: number };
	cron: { seconds: number; log: string };
	plugin: 'installed' | 'replaced';
}

export const CRON_LOOP = path.join( __dirname, 'cron-loop.js' );

export function cronProcess( layout: ProductionLayout, siteUrl?: string ): ServiceProcess {
	const identity: ProcessIdentity = {
		label: 'the cron loop',
		cmdline: [ CRON_LOOP, layout.cron.log, ...( siteUrl ? [ siteUrl ] : [] ) ],
	};
	return { pidFile: layout.cron.pidFile, identity };
}

function startCronLoop( layout: ProductionLayout, siteUrl: string, seconds: number ): void {
	const out = fs.openSync( layout.cron.log, 'a' );
	const child = spawn( process.execPath, [ CRON_LOOP, siteUrl, String( seconds ), layout.cron.log ], {
		detached: true,
		stdio: [ 'ignore', out, out ],
	} );
	fs.closeSync( out );
	recordPid( layout.cron.pidFile, child.pid );
	child.unref();
}

function commandVersion( command: string, args: string[], pattern: RegExp ): string {
	const result = spawnSync( command, args, { encoding: 'utf8' } );
	return pattern.exec( `${ result.stdout }${ result.stderr }` )?.[ 1 ] ?? 'unknown';
}

export function readRunning( name: string ): ProductionStack | undefined {
	try {
		return JSON.parse( fs.readFileSync( productionLayout( name ).runningFile, 'utf8' ) ) as ProductionStack;
	} catch {
		return undefined;
	}
}

/** Stops every process of the environment that is still ours, newest first; says what it stopped. */
export async function stopProduction( name: string ): Promise< string[] > {
	const layout = productionLayout( name );
	const lines: string[] = [];
	for ( const stop of [
		() => stopService( cronProcess( layout ), 3000 ),
		() => stopService( nginxProcess( layout ) ),
		() => stopService( phpFpmProcess( layout ) ),
		() => stopSidecarProcess( layout ),
		// MariaDB flushes InnoDB on SIGTERM; give it time before SIGKILL.
		() => stopService( mariadbProcess( layout ), 60_000 ),
	] ) {
		const line = await stop();
		if ( line ) {
			lines.push( line );
		}
	}
	fs.rmSync( layout.runningFile, { force: true } );
	return lines;
}

export async function startProduction( options: ProductionOptions ): Promise< ProductionStack > {
	const layout = productionLayout( options.name );
	const siteUrl = `http://localhost:${ options.wpPort }`;
	const sidecarUrl = `http://127.0.0.1:${ options.sidecarPort }`;

	step( 'Debian packages: nginx, php8.2-fpm (+ mysql, curl, mbstring, xml, intl), mariadb-server' );
	ensureProductionPackages();
	done( 'all present' );

	const leftovers = await stopProduction( options.name );
	if ( leftovers.length > 0 ) {
		done( `stopped what an earlier start left running: ${ leftovers.join( ', ' ) }` );
	}
	await assertPortsFree( {
		WordPress: options.wpPort,
		sidecar: options.sidecarPort,
		...( ( options.sidecarInstances ?? 1 ) > 1
			? { 'second sidecar': options.sidecarPeerPort ?? options.wpPort + 5 }
			: {} ),
		'PHP-FPM': options.fpmPort,
		MariaDB: options.dbPort,
	} );

	const release = options.releaseDir
		? readReleaseArtifacts( path.resolve( options.releaseDir ) )
		: buildRelease( layout.release );
	done(
		`release ${ release.version }: ${ release.pluginZip } and ${ release.sidecarTarball } (SHA256SUMS verified)`
	);

	fs.mkdirSync( layout.root, { recursive: true } );
	if ( options.fresh ) {
		fs.rmSync( layout.sidecar.dataDir, { recursive: true, force: true } );
		fs.rmSync( layout.sidecar.configDir, { recursive: true, force: true } );
		for ( const log of [
			layout.sidecar.log,
			layout.cron.log,
			layout.nginx.errorLog,
			layout.nginx.accessLog,
			layout.phpFpm.log,
			layout.mariadb.log,
		] ) {
			fs.rmSync( log, { force: true } );
		}
	}
	fs.mkdirSync( layout.sidecar.dir, { recursive: true } );

	try {
		step( `Starting MariaDB on 127.0.0.1:${ options.dbPort } (datadir ${ layout.mariadb.datadir })` );
		const database = await timed( 'MariaDB answers', () => startMariadb( layout, options.dbPort, options.fresh ) );

		step( `Installing the sidecar from ${ path.basename( release.sidecarTarball ) } with npm install -g --prefix` );
		const installed = await timed( 'sidecar installed', async () =>
			installSidecar( layout, release, options.freshSidecarInstall ?? false )
		);
		if ( installed.reused ) {
			done( `same tarball as the last start: reused ${ installed.prefix }` );
		}
		step(
			`service-integration-sidecar init --config-dir ${ layout.sidecar.configDir }, then start --config ${ layout.sidecar.configFile }`
		);
		const setup = initSidecar( layout, installed.bin, options.sidecarPort, siteUrl );
		const { wpConfigLines, sharedKey } = setup;
		done(
			setup.args.length
				? 'config.json and shared key written; wp-config.php gets the lines it printed'
				: 'an earlier release without init: configured by SIDECAR_* variables'
		);
		const sidecarStore = options.sidecarStore ?? 'sqlite';
		const sharedStore =
			sidecarStore === 'mariadb' ? ensureDatabase( layout, options.dbPort, 'sidecar', options.fresh ) : undefined;
		const command = sidecarCommand( layout, installed.bin, setup, {
			...( sharedStore ? { SIDECAR_DATABASE_URL: sidecarDatabaseUrl( sharedStore ) } : {} ),
			...options.sidecarEnv,
		} );
		const sidecarPid = await timed( `sidecar answers /health on ${ sidecarUrl }`, () =>
			startSidecarProcess( command, sidecarUrl )
		);
		let sidecarPeer: ProductionStack[ 'sidecarPeer' ];
		if ( ( options.sidecarInstances ?? 1 ) > 1 ) {
			const peerPort = options.sidecarPeerPort ?? options.wpPort + 5;
			const peer = peerCommand( layout, command, peerPort );
			const url = `http://127.0.0.1:${ peerPort }`;
			const pid = await timed( `second sidecar on the shared store answers /health on ${ url }`, () =>
				startSidecarProcess( peer, url )
			);
			sidecarPeer = { ...peer, pid, url };
		}

		step(
			`WordPress ${ options.wordpressDir ? `from ${ options.wordpressDir }` : "(the Playground runtime's core)" } into ${ layout.wordpress }`
		);
		prepareDocroot(
			layout,
			{
				siteUrl,
				database,
				sidecarWpConfig: wpConfigLines,
				wordpressDir: options.wordpressDir,
				woocommerceDir: options.woocommerceDir,
				orderStorage: options.orderStorage,
				extraPlugins: options.extraPlugins,
				localMuPluginsDir: options.localMuPluginsDir,
			},
			options.fresh
		);
		const install = await timed( 'wp_install() on MariaDB (php8.2-cli)', async () =>
			installWordPress( layout, siteUrl )
		);
		if ( ! install.installed ) {
			done( 'already installed: kept the site and its data' );
		}

		step(
			`Starting PHP-FPM on 127.0.0.1:${ options.fpmPort } (${ options.phpWorkers } workers) and nginx on ${ siteUrl }`
		);
		await timed( 'PHP-FPM listens', () => startPhpFpm( layout, options.fpmPort, options.phpWorkers ) );
		await timed( 'nginx listens', () => startNginx( layout, options.wpPort, options.fpmPort ) );

		step( `Cron: wp-cron.php every ${ options.cronSeconds } s (DISABLE_WP_CRON is set)` );
		startCronLoop( layout, siteUrl, options.cronSeconds );
		done( `log: ${ layout.cron.log }` );

		step( 'As the administrator in wp-admin: activate the commerce plugin, upload the plugin zip, activate it' );
		const cookie = await adminCookie( siteUrl );
		if ( options.woocommerceDir ) {
			await timed( 'woocommerce/woocommerce.php active', () =>
				activatePlugin( siteUrl, cookie, 'woocommerce/woocommerce.php' )
			);
		}
		const plugin = await timed(
			`${ path.basename( release.pluginZip ) } uploaded through Plugins > Add New > Upload Plugin`,
			() => uploadPluginZip( siteUrl, cookie, release.pluginZip )
		);
		await timed( `${ PLUGIN_FILE } active`, () => activatePlugin( siteUrl, cookie, PLUGIN_FILE ) );
		const debugLog = path.join( layout.wordpress, 'wp-content', 'debug.log' );
		const site = await timed( 'WordPress answers /wp-json/ with the plugin (and WooCommerce, on a shop)', () =>
			waitForSite(
				siteUrl,
				{ woocommerceDir: options.woocommerceDir, orderStorage: options.orderStorage },
				debugLog
			)
		);

		const stack: ProductionStack = {
			name: options.name,
			siteUrl,
			sidecarUrl,
			sharedKey,
			layout,
			sidecar: { ...command, pid: sidecarPid, prefix: installed.prefix },
			sidecarStore,
			sidecarPeer,
			release: {
				version: release.version,
				pluginZip: release.pluginZip,
				sidecarTarball: release.sidecarTarball,
				checksums: release.checksums,
			},
			site,
			versions: {
				nginx: commandVersion( '/usr/sbin/nginx', [ '-v' ], /nginx\/(\S+)/ ),
				php: commandVersion( '/usr/sbin/php-fpm8.2', [ '-v' ], /PHP (\S+)/ ),
				mariadb: mariadbVersion( layout ),
				wordpress: coreTreeVersion( layout.wordpress ),
			},
			ports: {
				wordpress: options.wpPort,
				sidecar: options.sidecarPort,
				phpFpm: options.fpmPort,
				mariadb: options.dbPort,
			},
			cron: { seconds: options.cronSeconds, log: layout.cron.log },
			plugin,
		};
		fs.writeFileSync( layout.runningFile, JSON.stringify( stack, null, 2 ), { mode: 0o600 } );
		return stack;
	} catch ( error ) {
		step( 'The production runtime did not start: stopping what this start launched' );
		const stopped = await stopProduction( options.name );
		done( stopped.length ? `stopped ${ stopped.join( ', ' ) }` : 'nothing was running' );
		throw error;
	}
}

/** Records a sidecar a test restarted, so stop finds it. */
export function recordSidecarPid( name: string, pid: number, instance: SidecarInstance = 'first' ): void {
	const { sidecar } = productionLayout( name );
	recordPid( instance === 'first' ? sidecar.pidFile : sidecar.peer.pidFile, pid );
}

export function recordedSidecarPid( name: string ): number | undefined {
	return readPid( productionLayout( name ).sidecar.pidFile );
}

export function describeProduction( stack: ProductionStack ): string {
	const { commerce } = stack.site;
	const commerceLine =
		commerce.plugin === 'woocommerce'
			? `WooCommerce ${ commerce.version }, orders in ${ commerce.order_storage === 'hpos' ? 'HPOS tables' : 'posts (legacy)' }`
			: 'no shop (WooCommerce not installed)';
	return [
		`WordPress ${ stack.site.wordpress_version } on nginx ${ stack.versions.nginx }, PHP-FPM ${ stack.versions.php }, MariaDB ${ stack.versions.mariadb }: ${ stack.siteUrl }`,
		`plugin ${ stack.release.version } ${ stack.plugin } from ${ path.basename( stack.release.pluginZip ) }; ${ commerceLine }`,
		`sidecar ${ stack.release.version } from ${ path.basename( stack.release.sidecarTarball ) } at ${ stack.sidecarUrl } (pid ${ stack.sidecar.pid })` +
			( stack.sidecarPeer
				? ` and ${ stack.sidecarPeer.url } (pid ${ stack.sidecarPeer.pid }), both on MariaDB (the shared store)`
				: stack.sidecarStore === 'mariadb'
					? ', on MariaDB (the shared store)'
					: ', on SQLite' ),
		`cron: wp-cron.php every ${ stack.cron.seconds } s; files under ${ stack.layout.root }`,
	].join( '\n  ' );
}

/** Starts an environment's sidecar again with the command its start used (tests stop and restart it). */
export async function restartProductionSidecar(
	name: string,
	command: Pick< SidecarCommand, 'command' | 'args' | 'env' >
): Promise< number > {
	const layout = productionLayout( name );
	const running = readRunning( name );
	return startSidecarProcess(
		{ ...command, log: layout.sidecar.log, pidFile: layout.sidecar.pidFile },
		running?.sidecarUrl ??
			`http://127.0.0.1:${ JSON.parse( fs.readFileSync( layout.sidecar.configFile, 'utf8' ) ).port }`
	);
}

/** Starts an environment's second sidecar again, as its start did. */
export async function restartProductionSidecarPeer( name: string ): Promise< number > {
	const peer = readRunning( name )?.sidecarPeer;
	if ( ! peer ) {
		throw new Error( `${ name } runs no second sidecar` );
	}
	return startSidecarProcess( peer, peer.url );
}

/** Runs SQL on an environment's WordPress database (tests that set up what an older version left). */
export function productionSql( name: string, sql: string ): string {
	return mariadbSql( productionLayout( name ), `USE wordpress; ${ sql }` );
}

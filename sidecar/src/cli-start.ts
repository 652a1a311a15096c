import type { Server } from 'http';
import pino from 'pino';
import { redactDatabaseUrl, type SidecarConfig } from './config';
import { createApp } from './http/app';
import { checkReadiness } from './http/probes';
import { applyServerTimeouts } from './http/server-timeouts';
import { createLogger, type Logger } from './logger';
import { startMetricsListener } from './metrics/listener';
import { storeMetrics } from './metrics/registry';
import { stableInstanceId } from './outbound/dispatcher';
import { createOutboundRuntime } from './outbound/runtime';
import { openDatabase } from './store/sqlite/database';
import { MysqlStore } from './store/mysql/mysql-store';
import { sqliteQueueStore } from './store/sqlite/sqlite-queue-store';
import { type QueueStore } from './store/queue-store';
import { createStores } from './store/sqlite/stores';
import { SIDECAR_VERSION } from './version';

/**
 * Logs go to standard output (the journal, under the systemd unit) unless logFile is set; a
 * log file is appended to and reopened on SIGHUP, so logrotate can move it away.
 */
function openLog( config: SidecarConfig ): Logger {
	if ( ! config.logFile ) {
		return createLogger( config.logLevel );
	}
	// sync: every line is on disk before the process can exit (shutdown ends in process.exit).
	const destination = pino.destination( { dest: config.logFile, append: true, mkdir: true, sync: true } );
	process.on( 'SIGHUP', () => destination.reopen() );
	return createLogger( config.logLevel, destination );
}

/**
 * The store SIDECAR_DATABASE_URL picks: unset, the embedded SQLite file of SIDECAR_DATA_DIR
 * (one process); set, the shared MySQL/MariaDB store (several instances). One that cannot be
 * opened ends the process.
 */
async function openStore( config: SidecarConfig, log: Logger ): Promise< QueueStore > {
	if ( config.databaseUrl !== undefined ) {
		try {
			return await MysqlStore.open( { url: config.databaseUrl } );
		} catch ( error ) {
			// The driver's message names host and user, never the password.
			log.fatal(
				{ err: error, database: redactDatabaseUrl( config.databaseUrl ) },
				'cannot open the shared database'
			);
			process.exit( 1 );
		}
	}
	try {
		const db = openDatabase( {
			dataDir: config.dataDir,
			synchronous: config.sqliteSynchronous,
			cacheSizeMb: config.sqliteCacheMb,
		} );
		return sqliteQueueStore( createStores( db ) );
	} catch ( error ) {
		log.fatal( { err: error, dataDir: config.dataDir }, 'cannot open the database' );
		process.exit( 1 );
	}
}

/** Runs the sidecar until SIGTERM or SIGINT: `service-integration-sidecar start`. */
export function startSidecar( config: SidecarConfig, details: { configFile?: string } = {} ): void {
	const log = openLog( config );
	void openStore( config, log ).then( ( store ) => run( config, log, store, details ) );
}

function run( config: SidecarConfig, log: Logger, store: QueueStore, details: { configFile?: string } ): void {
	// Counters are this instance's; the queue gauges are read from the store at each scrape.
	const metrics = storeMetrics( store, log );
	const instanceId = stableInstanceId( config.port );
	const outbound = createOutboundRuntime( { config, log, store, metrics, instanceId } );
	const { dispatcher } = outbound;
	const app = createApp( { config, log, startedAt: Date.now(), store, dispatcher, metrics } );
	// Not app.listen's callback: Express 5 calls it with the error too, when the port is taken.
	const server: Server = app.listen( config.port, config.host );
	server.once( 'listening', () => {
		const address = server.address();
		const port = typeof address === 'object' && address ? address.port : config.port;
		// Only once the port is this process's: a second process started with the same settings
		// must not take back (recoverInFlight) what the live one has in flight. What a crash left in
		// flight is queued again before anything is sent.
		outbound.start();
		const where =
			config.databaseUrl === undefined
				? { dataDir: config.dataDir }
				: {
						database: redactDatabaseUrl( config.databaseUrl ),
						instance: 'instanceId' in dispatcher ? dispatcher.instanceId : null,
					};
		log.info(
			{ host: config.host, port, version: SIDECAR_VERSION, ...where, configFile: details.configFile ?? null },
			config.databaseUrl === undefined ? 'sidecar listening' : 'sidecar listening (shared store)'
		);
	} );
	applyServerTimeouts( server );
	server.on( 'error', ( error: NodeJS.ErrnoException ) => {
		log.fatal(
			{ err: error, host: config.host, port: config.port },
			error.code === 'EADDRINUSE'
				? `cannot listen: ${ config.host }:${ config.port } is in use by another process (SIDECAR_PORT chooses another port)`
				: `cannot listen on ${ config.host }:${ config.port }`
		);
		process.exit( 1 );
	} );
	const metricsListener = startMetricsListener( config, {
		log,
		metrics,
		readiness: () => checkReadiness( { store, dispatcher, log } ),
	} );

	// Order: finish (or abandon, past the grace period) attempts in flight and notices being
	// sent while the API still answers, then close the server, then the store nothing writes
	// to any more. Unsent notices stay in the database for the next start; on the shared store,
	// an unfinished claim's lease expires for another instance to take.
	let stopping = false;
	const shutdown = async ( signal: string ) => {
		if ( stopping ) {
			return;
		}
		stopping = true;
		log.info( { signal }, 'shutting down' );
		setTimeout( () => process.exit( 1 ), config.shutdownGraceMs + 5000 ).unref();
		await outbound.stop( config.shutdownGraceMs );
		metricsListener.close();
		await new Promise< void >( ( resolve ) => {
			server.close( () => resolve() );
			server.closeIdleConnections();
			setTimeout( () => server.closeAllConnections(), 2000 ).unref();
		} );
		await store.close().catch( () => undefined );
		log.info( 'stopped' );
		process.exit( 0 );
	};
	process.on( 'SIGTERM', () => void shutdown( 'SIGTERM' ) );
	process.on( 'SIGINT', () => void shutdown( 'SIGINT' ) );
}

import type { Server } from 'http';
import pino from 'pino';
import type { SidecarConfig } from './config';
import { createApp } from './http/app';
import { applyServerTimeouts } from './http/server-timeouts';
import { startSharedSidecar } from './cli-start-shared';
import { createLogger, type Logger } from './logger';
import { startMetricsListener } from './metrics/listener';
import { createMetrics } from './metrics/registry';
import { createOutboundRuntime } from './outbound/runtime';
import { openDatabase, type Db } from './store/database';
import { createStores } from './store/stores';
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

/** Runs the sidecar until SIGTERM or SIGINT: `service-integration-sidecar start`. */
export function startSidecar( config: SidecarConfig, details: { configFile?: string } = {} ): void {
	const log = openLog( config );
	if ( config.databaseUrl !== undefined ) {
		void startSharedSidecar( { ...config, databaseUrl: config.databaseUrl }, log, details );
		return;
	}
	let db: Db;
	try {
		db = openDatabase( {
			dataDir: config.dataDir,
			synchronous: config.sqliteSynchronous,
			cacheSizeMb: config.sqliteCacheMb,
		} );
	} catch ( error ) {
		log.fatal( { err: error, dataDir: config.dataDir }, 'cannot open the database' );
		process.exit( 1 );
	}
	const stores = createStores( db );
	const metrics = createMetrics( {
		queue: () => stores.deliveries.queueByEndpoint(),
		onQueueError: ( error ) => log.warn( { err: error }, 'metrics: cannot read the queue' ),
	} );
	const outbound = createOutboundRuntime( { config, log, stores, metrics } );
	outbound.start(); // re-queues what a crash left in flight before anything is sent
	const app = createApp( { config, log, startedAt: Date.now(), stores, dispatcher: outbound.dispatcher, metrics } );
	const server: Server = app.listen( config.port, config.host, () => {
		const address = server.address();
		const port = typeof address === 'object' && address ? address.port : config.port;
		log.info(
			{
				host: config.host,
				port,
				version: SIDECAR_VERSION,
				dataDir: config.dataDir,
				configFile: details.configFile ?? null,
			},
			'sidecar listening'
		);
	} );
	applyServerTimeouts( server );
	server.on( 'error', ( error ) => {
		log.fatal( { err: error }, 'cannot listen' );
		process.exit( 1 );
	} );
	const metricsListener = startMetricsListener( config, { db, dispatcher: outbound.dispatcher, log, metrics } );

	// Order: finish (or abandon, past the grace period) attempts in flight and notices being
	// sent while the API still answers, then close the server, then the database nothing
	// writes to any more. Unsent notices stay in the database for the next start.
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
		db.close();
		log.info( 'stopped' );
		process.exit( 0 );
	};
	process.on( 'SIGTERM', () => void shutdown( 'SIGTERM' ) );
	process.on( 'SIGINT', () => void shutdown( 'SIGINT' ) );
}

import type { Server } from 'http';
import type { SidecarConfig } from './config';
import { redactDatabaseUrl } from './config';
import { checkSharedReadiness } from './http/probes';
import { createSharedApp, sharedMetrics } from './http/shared-app';
import { applyServerTimeouts } from './http/server-timeouts';
import type { Logger } from './logger';
import { startMetricsListener } from './metrics/listener';
import { createSharedRuntime } from './outbound/shared-runtime';
import { MysqlStore } from './store/mysql/mysql-store';
import { SIDECAR_VERSION } from './version';

/**
 * Runs one instance on the shared MySQL/MariaDB store (SIDECAR_DATABASE_URL) until SIGTERM or
 * SIGINT. Several such instances, on as many machines, share endpoints, secrets and the queue.
 */
export async function startSharedSidecar(
	config: SidecarConfig & { databaseUrl: string },
	log: Logger,
	details: { configFile?: string }
): Promise< void > {
	const database = redactDatabaseUrl( config.databaseUrl );
	let store: MysqlStore;
	try {
		store = await MysqlStore.open( { url: config.databaseUrl } );
	} catch ( error ) {
		// The driver's message names host and user, never the password.
		log.fatal( { err: error, database }, 'cannot open the shared database' );
		process.exit( 1 );
	}
	// Counters are this instance's; the queue gauges are read from the shared store at each scrape.
	const metrics = sharedMetrics( store, log );
	const outbound = createSharedRuntime( { config, log, store, metrics } );
	const { dispatcher } = outbound;
	outbound.start();
	const app = createSharedApp( { config, log, startedAt: Date.now(), store, dispatcher, metrics } );
	const server: Server = app.listen( config.port, config.host, () => {
		const address = server.address();
		const port = typeof address === 'object' && address ? address.port : config.port;
		log.info(
			{
				host: config.host,
				port,
				version: SIDECAR_VERSION,
				database,
				instance: dispatcher.instanceId,
				configFile: details.configFile ?? null,
			},
			'sidecar listening (shared store)'
		);
	} );
	applyServerTimeouts( server );
	server.on( 'error', ( error ) => {
		log.fatal( { err: error }, 'cannot listen' );
		process.exit( 1 );
	} );

	const metricsListener = startMetricsListener( config, {
		log,
		metrics,
		readiness: () => checkSharedReadiness( { store, dispatcher, log } ),
	} );

	// Attempts in flight finish (or their leases expire for another instance to take), then the
	// notices being sent, then the server closes, then the pool. Unsent notices stay in the table.
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

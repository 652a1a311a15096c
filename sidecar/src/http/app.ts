import express from 'express';
import { channelAuth } from '../channel/channel-auth';
import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import { mainPortMetricsRouter } from '../metrics/http';
import type { SidecarMetrics } from '../metrics/registry';
import type { Dispatcher } from '../outbound/dispatcher';
import { SqliteQueueStore } from '../store/queue-store';
import type { Stores } from '../store/stores';
import { createAppShell, finishApp } from './app-shell';
import { probesRouter } from './probes';
import { deliveriesRouter } from './routes/deliveries';
import { endpointsRouter } from './routes/endpoints';
import { eventsRouter } from './routes/events';
import { inboundRouter } from './routes/inbound';
import { privacyRouter } from './routes/privacy';
import { replaysRouter } from './routes/replays';
import { statusRouter } from './routes/status';

export interface AppContext {
	config: SidecarConfig;
	log: Logger;
	startedAt: number;
	stores: Stores;
	dispatcher: Pick<
		Dispatcher,
		'wake' | 'ingest' | 'endpointsChanged' | 'firstAttemptAt' | 'noticesCommitted' | 'isRunning'
	>;
	metrics: SidecarMetrics;
}

/**
 * The sidecar's HTTP API. /health and /ready are open (process managers and probes poll them
 * and they say nothing private); /metrics needs its own bearer token (SIDECAR_METRICS_TOKEN)
 * and answers 404 without one; everything under /v1 is for WordPress only, signed both ways.
 */
export function createApp( context: AppContext ): express.Express {
	const { config, log } = context;
	const app = createAppShell( log );

	app.use( probesRouter( { db: context.stores.db, dispatcher: context.dispatcher, log } ) );
	app.use( mainPortMetricsRouter( context.metrics, config.metricsToken ) );

	const api = express.Router();
	api.use( express.raw( { type: () => true, limit: config.maxBodyBytes } ) );
	api.use( channelAuth( config.sharedKey ) );

	api.use( statusRouter( context ) );
	api.use( eventsRouter( context ) );
	// The routes served on both stores take the async QueueStore, here over the embedded stores.
	const queueContext = { ...context, store: new SqliteQueueStore( context.stores ) };
	api.use( endpointsRouter( queueContext ) );
	api.use( replaysRouter( queueContext ) );
	api.use( deliveriesRouter( queueContext ) );
	api.use( inboundRouter( queueContext ) );
	api.use( privacyRouter( queueContext ) );

	app.use( '/v1', api );

	finishApp( app, { log, maxBodyBytes: config.maxBodyBytes, storeMayBeAway: false } );
	return app;
}

import express from 'express';
import { channelAuth } from '../channel/channel-auth';
import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import { mainPortMetricsRouter } from '../metrics/http';
import type { SidecarMetrics } from '../metrics/registry';
import type { QueueStore } from '../store/queue-store';
import { createAppShell, finishApp } from './app-shell';
import { bodyWithinLimit } from './body-limit';
import { checkReadiness, probeRoutes } from './probes';
import type { RouteDispatcher } from './routes/context';
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
	/** The embedded SQLite store or the shared MySQL/MariaDB one: the routes are the same. */
	store: QueueStore;
	dispatcher: RouteDispatcher & { readonly instanceId?: string };
	/** The instance's registry, the one its dispatcher records into (metrics/registry.ts, storeMetrics). */
	metrics: SidecarMetrics;
}

/**
 * The sidecar's HTTP API, on either store. /health and /ready are open (process managers and
 * probes poll them and they say nothing private); /metrics needs its own bearer token
 * (SIDECAR_METRICS_TOKEN) and answers 404 without one; everything under /v1 is for WordPress
 * only, signed both ways. On the shared store, a database that does not answer makes every
 * route that needs it answer 503 with Retry-After: WordPress's outbox keeps the events and
 * sends them again. (Express 5 hands the error of a rejected async handler to the error handler.)
 */
export function createApp( context: AppContext ): express.Express {
	const { config, log, store, dispatcher } = context;
	const app = createAppShell( log );

	app.use(
		probeRoutes( {
			readiness: () => checkReadiness( { store, dispatcher, log } ),
			// Several instances share one database: /health names the one that answered.
			...( store.kind === 'mysql' && dispatcher.instanceId !== undefined
				? { health: { instance: dispatcher.instanceId } }
				: {} ),
		} )
	);
	app.use( mainPortMetricsRouter( context.metrics, config.metricsToken ) );

	const api = express.Router();
	// Read up to twice the limit so that a signed request over it is refused with a signed 413,
	// which WordPress trusts (it then sends a batch again one event at a time, or parks the
	// event); past that, the unsigned 413 of the body reader.
	api.use( express.raw( { type: () => true, limit: 2 * config.maxBodyBytes } ) );
	api.use( channelAuth( config.sharedKey ) );
	api.use( bodyWithinLimit( config.maxBodyBytes ) );

	api.use( statusRouter( context ) );
	api.use( eventsRouter( context ) );
	api.use( endpointsRouter( context ) );
	api.use( replaysRouter( context ) );
	api.use( deliveriesRouter( context ) );
	api.use( inboundRouter( context ) );
	api.use( privacyRouter( context ) );

	app.use( '/v1', api );

	finishApp( app, { log, maxBodyBytes: config.maxBodyBytes, storeMayBeAway: store.kind === 'mysql' } );
	return app;
}

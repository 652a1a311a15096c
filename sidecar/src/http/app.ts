import express, { type NextFunction, type Request, type Response } from 'express';
import { channelAuth } from '../channel/channel-auth';
import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import { mainPortMetricsRouter } from '../metrics/http';
import type { SidecarMetrics } from '../metrics/registry';
import type { Dispatcher } from '../outbound/dispatcher';
import { SqliteQueueStore } from '../store/queue-store';
import type { Stores } from '../store/stores';
import { HttpError, sendError } from './errors';
import { probesRouter } from './probes';
import { deliveriesRouter } from './routes/deliveries';
import { endpointReplayRouter, endpointsRouter } from './routes/endpoints';
import { eventsRouter } from './routes/events';
import { inboundRouter } from './routes/inbound';
import { privacyRouter } from './routes/privacy';
import { statusRouter } from './routes/status';

export interface AppContext {
	config: SidecarConfig;
	log: Logger;
	startedAt: number;
	stores: Stores;
	dispatcher: Pick< Dispatcher, 'wake' | 'endpointsChanged' | 'firstAttemptAt' | 'noticesCommitted' | 'isRunning' >;
	metrics: SidecarMetrics;
}

/**
 * The sidecar's HTTP API. /health and /ready are open (process managers and probes poll them
 * and they say nothing private); /metrics needs its own bearer token (SIDECAR_METRICS_TOKEN)
 * and answers 404 without one; everything under /v1 is for WordPress only, signed both ways.
 */
export function createApp( context: AppContext ): express.Express {
	const { config, log } = context;
	const app = express();
	app.disable( 'x-powered-by' );
	app.set( 'trust proxy', false );

	// Answers are signed and never cached: no ETag (a SHA-1 of every response body otherwise).
	app.set( 'etag', false );

	// The per-request log line is debug: below that level, no listener on every response.
	if ( log.isLevelEnabled( 'debug' ) ) {
		app.use( ( req, res, next ) => {
			const started = process.hrtime.bigint();
			res.on( 'finish', () => {
				log.debug(
					{
						method: req.method,
						path: req.path,
						status: res.statusCode,
						ms: Number( process.hrtime.bigint() - started ) / 1e6,
					},
					'request'
				);
			} );
			next();
		} );
	}

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
	api.use( endpointReplayRouter( context ) );
	api.use( deliveriesRouter( queueContext ) );
	api.use( inboundRouter( context ) );
	api.use( privacyRouter( context ) );

	app.use( '/v1', api );

	app.use( ( _req: Request, res: Response ) => {
		sendError( res, 404, 'not_found', 'No such route on the sidecar.' );
	} );

	app.use( ( error: unknown, req: Request, res: Response, _next: NextFunction ) => {
		if ( error instanceof HttpError ) {
			sendError( res, error.status, error.code, error.message, error.details );
			return;
		}
		const typed = error as { type?: string; status?: number; message?: string };
		if ( typed.type === 'entity.too.large' ) {
			sendError( res, 413, 'body_too_large', `The request body exceeds ${ config.maxBodyBytes } bytes.` );
			return;
		}
		if ( typeof typed.status === 'number' && typed.status >= 400 && typed.status < 500 ) {
			sendError( res, typed.status, 'bad_request', typed.message ?? 'Bad request.' );
			return;
		}
		log.error( { err: error, method: req.method, path: req.path }, 'unhandled error' );
		sendError( res, 500, 'internal_error', 'The sidecar failed to handle this request; see its log.' );
	} );

	return app;
}

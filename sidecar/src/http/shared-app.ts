import express, { Router } from 'express';
import { channelAuth } from '../channel/channel-auth';
import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import { mainPortMetricsRouter } from '../metrics/http';
import { createMetrics, type SidecarMetrics } from '../metrics/registry';
import type { SharedDispatcher } from '../outbound/shared-dispatcher';
import type { QueueStore } from '../store/queue-store';
import { SIDECAR_VERSION } from '../version';
import { createAppShell, finishApp } from './app-shell';
import { parseJsonBody } from './json-body';
import { checkSharedReadiness, probeRoutes } from './probes';
import { deliveriesRouter } from './routes/deliveries';
import { endpointsRouter } from './routes/endpoints';
import { BATCH_SCHEMA, checkBatch, countBatch } from './routes/events';
import { methodNotAllowed } from './routes/helpers';
import { inboundRouter } from './routes/inbound';
import { privacyRouter } from './routes/privacy';
import { replaysRouter } from './routes/replays';
import { eventDetailsView, eventNotFound } from './routes/views';

export interface SharedAppContext {
	config: SidecarConfig;
	log: Logger;
	startedAt: number;
	store: QueueStore;
	dispatcher: Pick<
		SharedDispatcher,
		'wake' | 'endpointsChanged' | 'firstAttemptAt' | 'isRunning' | 'instanceId' | 'noticesCommitted'
	>;
	/**
	 * This instance's registry, the one its dispatcher records into (see sharedMetrics). Without
	 * it (tests that count nothing), one of the app's own: events and inbound verifications only.
	 */
	metrics?: SidecarMetrics;
}

/** The registry of an instance on the shared store: its own counters, the queue gauges read from the shared store. */
export function sharedMetrics( store: Pick< QueueStore, 'queueByEndpoint' >, log: Logger ): SidecarMetrics {
	return createMetrics( {
		queue: () => store.queueByEndpoint(),
		onQueueError: ( error ) => log.warn( { err: error }, 'metrics: cannot read the queue' ),
	} );
}

/**
 * The API of an instance on the shared MySQL/MariaDB store: the hand-over of events, their
 * history, endpoint management, the delivery log and the status, the same routes and answers
 * as on the embedded store, from the same routers; an unknown path answers the same 404.
 * When the database does not answer, every route that needs it answers 503 with Retry-After:
 * WordPress's outbox keeps the events and sends them again. (Express 5 hands the error of a
 * rejected async handler to the error handler.)
 */
export function createSharedApp( context: SharedAppContext ): express.Express {
	const { config, log, store, dispatcher } = context;
	const metrics = context.metrics ?? sharedMetrics( store, log );
	const app = createAppShell( log );
	app.use(
		probeRoutes( {
			readiness: () => checkSharedReadiness( { store, dispatcher, log } ),
			health: { instance: dispatcher.instanceId },
		} )
	);
	// As on the embedded store: behind SIDECAR_METRICS_TOKEN, else a 404 naming the settings.
	app.use( mainPortMetricsRouter( metrics, config.metricsToken ) );

	const api = Router();
	api.use( express.raw( { type: () => true, limit: config.maxBodyBytes } ) );
	api.use( channelAuth( config.sharedKey ) );

	api.get( '/status', async ( _req, res ) => {
		const endpoints = await store.listEndpoints( Date.now() );
		res.json( {
			version: SIDECAR_VERSION,
			uptime_s: Math.round( ( Date.now() - context.startedAt ) / 1000 ),
			queue: await store.countByStatus(),
			endpoints: {
				active: endpoints.filter( ( e ) => e.status === 'active' ).length,
				disabled: endpoints.filter( ( e ) => e.status === 'disabled' ).length,
			},
		} );
	} );

	api.post( '/events', async ( req, res ) => {
		const body = parseJsonBody( req, BATCH_SCHEMA );
		const { events, rejected } = checkBatch( body.events );
		// A valid envelope gets one answer, 202, even when every event is rejected (then nothing is stored).
		const now = Date.now();
		const result =
			events.length > 0
				? await store.insertBatch( events, now, dispatcher.firstAttemptAt( now ) )
				: { accepted: [], duplicates: [], endpointIds: [] };
		if ( events.length > 0 ) {
			// This instance tries the first delivery at once; the others find it at their next poll.
			dispatcher.wake( result.endpointIds );
		}
		countBatch( metrics, events, result.accepted, rejected );
		if ( rejected.length > 0 ) {
			log.warn(
				{ rejected: rejected.map( ( r ) => ( { index: r.index, id: r.id, code: r.code } ) ) },
				'events rejected from a batch'
			);
		}
		res.status( 202 ).json( { accepted: result.accepted, duplicates: result.duplicates, rejected } );
	} );
	api.all( '/events', methodNotAllowed( 'POST' ) );

	api.get( '/events/:id', async ( req, res ) => {
		const event = await store.getEvent( String( req.params.id ) );
		if ( ! event ) {
			throw eventNotFound( String( req.params.id ) );
		}
		res.json( eventDetailsView( event, await store.deliveriesOfEvent( event.id ) ) );
	} );

	// Endpoint management, the delivery log, replays and privacy: the embedded store's routes, on the shared store.
	api.use( endpointsRouter( { config, log, store, dispatcher, metrics } ) );
	api.use( deliveriesRouter( { config, log, store, dispatcher } ) );
	api.use( replaysRouter( { config, log, store, dispatcher } ) );
	api.use( privacyRouter( { config, log, store, dispatcher } ) );
	// Inbound sources, their verification and its log: every instance reads the same rows.
	api.use( inboundRouter( { config, log, store, metrics } ) );

	app.use( '/v1', api );

	finishApp( app, { log, maxBodyBytes: config.maxBodyBytes, storeMayBeAway: true } );
	return app;
}

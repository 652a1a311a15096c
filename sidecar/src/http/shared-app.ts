import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { channelAuth } from '../channel/channel-auth';
import type { SidecarConfig } from '../config';
import type { Logger } from '../logger';
import type { SharedDispatcher } from '../outbound/shared-dispatcher';
import type { QueueStore } from '../store/queue-store';
import { SIDECAR_VERSION } from '../version';
import { HttpError, sendError } from './errors';
import { parseJsonBody } from './json-body';
import { deliveriesRouter } from './routes/deliveries';
import { endpointsRouter } from './routes/endpoints';
import { BATCH_SCHEMA, checkBatch } from './routes/events';
import { methodNotAllowed } from './routes/helpers';
import { eventDetailsView, eventNotFound } from './routes/views';
import { isStoreUnavailable, STORE_RETRY_AFTER_SECONDS } from './store-unavailable';

export interface SharedAppContext {
	config: SidecarConfig;
	log: Logger;
	startedAt: number;
	store: QueueStore;
	dispatcher: Pick< SharedDispatcher, 'wake' | 'endpointsChanged' | 'firstAttemptAt' | 'isRunning' | 'instanceId' >;
}

/** Wraps an async handler so a rejection reaches the error handler (Express 5 does this too; explicit here). */
const handle =
	( fn: ( req: Request, res: Response ) => Promise< void > ) =>
	( req: Request, res: Response, next: NextFunction ) => {
		fn( req, res ).catch( next );
	};

/**
 * The API of an instance on the shared MySQL/MariaDB store: the hand-over of events, their
 * history, endpoint management, the delivery log and the status, the same routes and answers
 * as on the embedded store. Routes the shared store does not serve yet answer 501 (docs/production.md lists them).
 * When the database does not answer, every route that needs it answers 503 with Retry-After:
 * WordPress's outbox keeps the events and sends them again.
 */
export function createSharedApp( context: SharedAppContext ): express.Express {
	const { config, log, store, dispatcher } = context;
	const app = express();
	app.disable( 'x-powered-by' );
	app.set( 'trust proxy', false );

	app.get( '/health', ( _req, res ) => {
		res.set( 'cache-control', 'no-store' ).json( {
			status: 'ok',
			version: SIDECAR_VERSION,
			pid: process.pid,
			instance: dispatcher.instanceId,
		} );
	} );
	app.all( '/health', methodNotAllowed( 'GET' ) );
	app.get(
		'/ready',
		handle( async ( _req, res ) => {
			const checks: { name: string; ok: boolean; message?: string }[] = [];
			try {
				await store.ping();
				checks.push( { name: 'database', ok: true } );
				const { current, latest } = await store.schemaVersion();
				checks.push(
					current === latest
						? { name: 'migrations', ok: true }
						: {
								name: 'migrations',
								ok: false,
								message: `the database schema is at version ${ current }, not ${ latest }`,
							}
				);
			} catch ( error ) {
				log.debug( { err: error }, 'readiness: the shared store does not answer' );
				checks.push( { name: 'database', ok: false, message: 'the shared database does not answer' } );
			}
			checks.push(
				dispatcher.isRunning()
					? { name: 'dispatcher', ok: true }
					: { name: 'dispatcher', ok: false, message: 'the delivery dispatcher is not running' }
			);
			const ready = checks.every( ( check ) => check.ok );
			res.status( ready ? 200 : 503 )
				.set( 'cache-control', 'no-store' )
				.json( {
					status: ready ? 'ready' : 'not_ready',
					checks,
					failed: checks.filter( ( check ) => ! check.ok ).map( ( check ) => check.name ),
				} );
		} )
	);
	app.all( '/ready', methodNotAllowed( 'GET' ) );

	const api = Router();
	api.use( express.raw( { type: () => true, limit: config.maxBodyBytes } ) );
	api.use( channelAuth( config.sharedKey ) );

	api.get(
		'/status',
		handle( async ( _req, res ) => {
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
		} )
	);

	api.post(
		'/events',
		handle( async ( req, res ) => {
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
			if ( rejected.length > 0 ) {
				log.warn(
					{ rejected: rejected.map( ( r ) => ( { index: r.index, id: r.id, code: r.code } ) ) },
					'events rejected from a batch'
				);
			}
			res.status( 202 ).json( { accepted: result.accepted, duplicates: result.duplicates, rejected } );
		} )
	);
	api.all( '/events', methodNotAllowed( 'POST' ) );

	api.get(
		'/events/:id',
		handle( async ( req, res ) => {
			const event = await store.getEvent( String( req.params.id ) );
			if ( ! event ) {
				throw eventNotFound( String( req.params.id ) );
			}
			res.json( eventDetailsView( event, await store.deliveriesOfEvent( event.id ) ) );
		} )
	);

	// Endpoint management and the delivery log: the embedded store's routes, on the shared store.
	api.use( endpointsRouter( { config, log, store, dispatcher } ) );
	api.use( deliveriesRouter( { config, log, store, dispatcher } ) );

	api.use( ( req: Request, res: Response ) => {
		sendError(
			res,
			501,
			'not_on_shared_store',
			`${ req.method } /v1${ req.path } is not served by a sidecar on the shared MySQL/MariaDB store yet (docs/production.md).`
		);
	} );
	app.use( '/v1', api );

	app.use( ( _req: Request, res: Response ) => {
		sendError( res, 404, 'not_found', 'No such route on the sidecar.' );
	} );

	app.use( ( error: unknown, req: Request, res: Response, _next: NextFunction ) => {
		if ( error instanceof HttpError ) {
			sendError( res, error.status, error.code, error.message, error.details );
			return;
		}
		if ( isStoreUnavailable( error ) ) {
			log.warn( { err: error, method: req.method, path: req.path }, 'the shared store does not answer: 503' );
			res.set( 'retry-after', String( STORE_RETRY_AFTER_SECONDS ) );
			sendError(
				res,
				503,
				'store_unavailable',
				'The sidecar cannot reach its database; nothing was stored. Retry later.',
				{ retry_after: STORE_RETRY_AFTER_SECONDS }
			);
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

import { Router, type Request } from 'express';
import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '../../contracts/constants';
import type {
	DeletedView,
	EnabledEndpointView,
	EndpointListView,
	EndpointView,
	EndpointWithSecretView,
	RangeReplayView,
} from '../../contracts/views';
import { generateSecret } from '../../outbound/signing';
import { parseAllowCidrs, validateUrlShape } from '../../outbound/url-guard';
import type { Endpoint } from '../../store/endpoints-store';
import type { QueueStore } from '../../store/queue-store';
import { HttpError } from '../errors';
import { parseJsonBody } from '../json-body';
import type { QueueRouteContext, RouteContext } from './context';
import { iso, methodNotAllowed, parseOptionalJsonBody, requireEventType } from './helpers';
import { endpointView } from './views';

export const DEFAULT_MAX_CONCURRENCY = 4;
export const DEFAULT_ROTATION_GRACE_HOURS = 24;
/** Endpoint health covers the last HEALTH_MAX_ATTEMPTS attempts of the last 24 h. */
export const HEALTH_WINDOW_MS = 24 * 3_600_000;
export const HEALTH_MAX_ATTEMPTS = 100;

const FIELDS = {
	url: z.string().min( 1 ).max( 2048 ),
	event_types: z.array( z.string() ).max( 20 ),
	description: z.string().max( 500 ),
	max_concurrency: z.number().int().min( 1 ).max( 64 ),
	wc_compat_signature: z.boolean(),
};

export const CREATE_SCHEMA = z.strictObject( {
	url: FIELDS.url,
	event_types: FIELDS.event_types.optional(),
	description: FIELDS.description.optional(),
	max_concurrency: FIELDS.max_concurrency.optional(),
	wc_compat_signature: FIELDS.wc_compat_signature.optional(),
} );

const PATCH_SCHEMA = CREATE_SCHEMA.partial().refine(
	( patch ) => Object.keys( patch ).length > 0,
	'give at least one field to change'
);
const ROTATE_SCHEMA = z.strictObject( {
	grace_hours: z
		.number()
		.min( 0 )
		.max( 24 * 30 )
		.optional(),
} );
const DISABLE_SCHEMA = z.strictObject( { reason: z.string().min( 1 ).max( 500 ).optional() } );
const ENABLE_SCHEMA = z.strictObject( { redeliver: z.boolean().optional() } );

export const REPLAY_DEFAULT_LIMIT = 1000;
export const REPLAY_MAX_LIMIT = 10_000;
const REPLAY_FIELDS = {
	from: z.iso.datetime( { offset: true } ),
	to: z.iso.datetime( { offset: true } ),
	types: z.array( z.string() ).min( 1 ).max( 20 ),
	limit: z.number().int().min( 1 ).max( REPLAY_MAX_LIMIT ),
	dry_run: z.boolean(),
};
const REPLAY_SCHEMA = z.strictObject( {
	from: REPLAY_FIELDS.from,
	to: REPLAY_FIELDS.to,
	types: REPLAY_FIELDS.types.optional(),
	limit: REPLAY_FIELDS.limit.optional(),
	dry_run: REPLAY_FIELDS.dry_run.optional(),
} );

/**
 * The replay body, checked field by field: a bad field answers 400 `invalid_<field>`
 * (`invalid_from`, `invalid_to`, `invalid_types`, `invalid_limit`, `invalid_dry_run`) with
 * data.field; an unknown field or a body that is not an object, `invalid_body`.
 */
function parseReplayBody( req: Request ): z.infer< typeof REPLAY_SCHEMA > {
	const raw = Buffer.isBuffer( req.body ) ? req.body.toString( 'utf8' ) : '';
	let data: unknown = {};
	if ( raw.trim() !== '' ) {
		try {
			data = JSON.parse( raw );
		} catch {
			throw new HttpError( 400, 'invalid_json', 'The request body is not valid JSON.' );
		}
	}
	const result = REPLAY_SCHEMA.safeParse( data );
	if ( ! result.success ) {
		const problems = result.error.issues.map(
			( issue ) => `${ issue.path.join( '.' ) || '(body)' }: ${ issue.message }`
		);
		const first = result.error.issues[ 0 ];
		const field = first && first.code !== 'unrecognized_keys' ? String( first.path[ 0 ] ?? '' ) : '';
		if ( field in REPLAY_FIELDS ) {
			throw new HttpError( 400, `invalid_${ field }`, `${ problems[ 0 ] }.`, { field, problems } );
		}
		throw new HttpError( 400, 'invalid_body', `Invalid request body: ${ problems.join( '; ' ) }`, { problems } );
	}
	return result.data;
}

/** The checks of an endpoint's url and event_types, shared by the embedded and the shared store's routes. */
export function endpointFieldChecks( config: RouteContext[ 'config' ] ) {
	const allowCidrs = parseAllowCidrs( config.allowPrivateCidrs.join( ',' ) );
	return {
		// Save-time check; the guarded agents check again at connect time (DNS can change).
		checkedUrl: ( raw: string ): string => {
			const verdict = validateUrlShape( raw, { allowCidrs } );
			if ( ! verdict.ok ) {
				throw new HttpError( 400, verdict.code, `url: ${ verdict.message }.`, { field: 'url' } );
			}
			return verdict.url.href;
		},
		checkedTypes: ( types: string[] ): EventType[] => [
			...new Set( types.map( ( type, index ) => requireEventType( type, `event_types.${ index }` ) ) ),
		],
	};
}

/** The endpoint or 404 endpoint_not_found. */
async function findEndpoint( store: QueueStore, id: string ): Promise< Endpoint > {
	const endpoint = await store.getEndpoint( id, Date.now() );
	if ( ! endpoint ) {
		throw new HttpError( 404, 'endpoint_not_found', `No endpoint with id "${ id }".` );
	}
	return endpoint;
}

/**
 * Endpoint management, on either store: list, create, get, update, delete, rotate-secret,
 * enable, disable. A secret is shown in full only in the answer that creates it.
 */
export function endpointsRouter( context: QueueRouteContext ): Router {
	const { store, dispatcher, config } = context;
	const router = Router();
	const { checkedUrl, checkedTypes } = endpointFieldChecks( config );
	const find = ( id: string ): Promise< Endpoint > => findEndpoint( store, id );
	const view = async ( endpoint: Endpoint ): Promise< EndpointView > =>
		endpointView(
			endpoint,
			await store.endpointHealth( endpoint.id, Date.now() - HEALTH_WINDOW_MS, HEALTH_MAX_ATTEMPTS )
		);

	router
		.route( '/endpoints' )
		.get( async ( _req, res ) => {
			const endpoints = await store.listEndpoints( Date.now() );
			res.json( { endpoints: await Promise.all( endpoints.map( view ) ) } satisfies EndpointListView );
		} )
		.post( async ( req, res ) => {
			const body = parseJsonBody( req, CREATE_SCHEMA );
			const secret = generateSecret();
			const endpoint = await store.createEndpoint(
				{
					url: checkedUrl( body.url ),
					description: body.description ?? '',
					eventTypes: checkedTypes( body.event_types ?? [] ),
					maxConcurrency: body.max_concurrency ?? DEFAULT_MAX_CONCURRENCY,
					wcCompatSignature: body.wc_compat_signature ?? false,
					secret,
				},
				Date.now()
			);
			dispatcher.endpointsChanged();
			context.log.info( { endpoint_id: endpoint.id }, 'endpoint created' );
			res.status( 201 ).json( { ...( await view( endpoint ) ), secret } satisfies EndpointWithSecretView );
		} )
		.all( methodNotAllowed( 'GET', 'POST' ) );

	router
		.route( '/endpoints/:id' )
		.get( async ( req, res ) => {
			res.json( await view( await find( req.params.id ) ) );
		} )
		.patch( async ( req, res ) => {
			await find( req.params.id );
			const body = parseJsonBody( req, PATCH_SCHEMA );
			const endpoint = await store.updateEndpoint(
				req.params.id,
				{
					url: body.url === undefined ? undefined : checkedUrl( body.url ),
					description: body.description,
					eventTypes: body.event_types === undefined ? undefined : checkedTypes( body.event_types ),
					maxConcurrency: body.max_concurrency,
					wcCompatSignature: body.wc_compat_signature,
				},
				Date.now()
			);
			dispatcher.endpointsChanged();
			// Deleted (by another request or instance) since it was found: the same 404.
			res.json( await view( endpoint ?? ( await find( req.params.id ) ) ) );
		} )
		.delete( async ( req, res ) => {
			// Its notices not yet acknowledged go with it, replaced by one endpoint.deleted notice (QueueStore).
			const { deleted, droppedNotices } = await store.deleteEndpoint( req.params.id, Date.now() );
			if ( ! deleted ) {
				throw new HttpError( 404, 'endpoint_not_found', `No endpoint with id "${ req.params.id }".` );
			}
			dispatcher.endpointsChanged();
			dispatcher.noticesCommitted?.();
			context.log.info( { endpoint_id: req.params.id, dropped_notices: droppedNotices }, 'endpoint deleted' );
			res.json( { deleted: true, id: req.params.id } satisfies DeletedView );
		} )
		.all( methodNotAllowed( 'GET', 'PATCH', 'DELETE' ) );

	/** New secret, shown once; the old one keeps signing (a second signature) until the grace period ends. */
	router
		.route( '/endpoints/:id/rotate-secret' )
		.post( async ( req, res ) => {
			await find( req.params.id );
			const body = parseOptionalJsonBody( req, ROTATE_SCHEMA );
			const secret = generateSecret();
			const graceMs = Math.round( ( body.grace_hours ?? DEFAULT_ROTATION_GRACE_HOURS ) * 3_600_000 );
			const endpoint =
				( await store.rotateEndpointSecret( req.params.id, secret, graceMs, Date.now() ) ) ??
				( await find( req.params.id ) );
			dispatcher.endpointsChanged();
			context.log.info(
				{ endpoint_id: endpoint.id, grace_hours: graceMs / 3_600_000 },
				'endpoint secret rotated'
			);
			res.json( { ...( await view( endpoint ) ), secret } satisfies EndpointWithSecretView );
		} )
		.all( methodNotAllowed( 'POST' ) );

	/**
	 * Idempotent. `redeliver` (default: true after an automatic disable, false after the
	 * owner's) queues again what the endpoint missed: deliveries that failed or were
	 * cancelled since its failure streak began, and events that arrived while it was
	 * disabled. `requeued` counts both; `skipped` what was left out without redelivery.
	 */
	router
		.route( '/endpoints/:id/enable' )
		.post( async ( req, res ) => {
			await find( req.params.id );
			const body = parseOptionalJsonBody( req, ENABLE_SCHEMA );
			// Also when it was active already: the endpoint.enabled notice queued with it clears
			// any disabled notice WordPress may still show (QueueStore.enableEndpoint).
			const result = await store.enableEndpoint( req.params.id, Date.now(), body.redeliver );
			dispatcher.endpointsChanged();
			dispatcher.noticesCommitted?.();
			if ( result.enabled ) {
				context.log.info( { endpoint_id: req.params.id, ...result }, 'endpoint enabled' );
			}
			res.json( {
				...( await view( await find( req.params.id ) ) ),
				redelivered: result.redelivered,
				requeued: result.requeued + result.missed,
				skipped: result.skipped,
			} satisfies EnabledEndpointView );
		} )
		.all( methodNotAllowed( 'POST' ) );

	/** Idempotent; queued deliveries are cancelled (enabling with redelivery brings them back). */
	router
		.route( '/endpoints/:id/disable' )
		.post( async ( req, res ) => {
			await find( req.params.id );
			const body = parseOptionalJsonBody( req, DISABLE_SCHEMA );
			const reason = body.reason ?? 'disabled by an administrator';
			if ( await store.disableEndpoint( req.params.id, reason, 'owner', Date.now() ) ) {
				context.metrics?.recordEndpointDisabled( 'owner' );
			}
			dispatcher.endpointsChanged();
			res.json( await view( await find( req.params.id ) ) );
		} )
		.all( methodNotAllowed( 'POST' ) );

	return router;
}

/**
 * Replays to an endpoint a range of past events; on the embedded store only (the shared
 * store answers 501 not_on_shared_store).
 */
export function endpointReplayRouter( context: RouteContext ): Router {
	const { stores, dispatcher } = context;
	const router = Router();
	const find = ( id: string ): Endpoint => {
		const endpoint = stores.endpoints.get( id, Date.now() );
		if ( ! endpoint ) {
			throw new HttpError( 404, 'endpoint_not_found', `No endpoint with id "${ id }".` );
		}
		return endpoint;
	};

	/**
	 * Replays to this endpoint the events of `types` (default: the ones it subscribes to)
	 * received in [from, to), including those it never got a delivery for, in arrival order,
	 * each once per request, at most `limit`. `dry_run` only counts.
	 */
	router
		.route( '/endpoints/:id/replay' )
		.post( ( req, res ) => {
			const endpoint = find( req.params.id );
			const body = parseReplayBody( req );
			const from = Date.parse( body.from );
			const to = Date.parse( body.to );
			if ( from >= to ) {
				throw new HttpError( 400, 'invalid_to', 'to: must be later than from.', { field: 'to' } );
			}
			const types =
				body.types === undefined
					? endpoint.eventTypes
					: [
							...new Set(
								body.types.map( ( type, index ) => requireEventType( type, `types.${ index }` ) )
							),
						];
			if ( endpoint.status !== 'active' ) {
				throw new HttpError(
					409,
					'endpoint_disabled',
					`Endpoint "${ endpoint.id }" is disabled; enable it first.`
				);
			}
			const dryRun = body.dry_run ?? false;
			const result = stores.deliveries.replayRange( {
				endpointId: endpoint.id,
				from,
				to,
				types,
				limit: body.limit ?? REPLAY_DEFAULT_LIMIT,
				dryRun,
				now: Date.now(),
			} );
			if ( ! dryRun ) {
				dispatcher.wake( [ endpoint.id ] );
				context.log.info(
					{ endpoint_id: endpoint.id, from: body.from, to: body.to, types, ...result },
					'events replayed'
				);
			}
			res.json( {
				matched: result.matched,
				queued: result.queued,
				already_queued: result.alreadyQueued,
				more: result.more,
				next_from: iso( result.nextFrom ),
				types: types.length > 0 ? types : EVENT_TYPES,
				dry_run: dryRun,
			} satisfies RangeReplayView );
		} )
		.all( methodNotAllowed( 'POST' ) );

	return router;
}

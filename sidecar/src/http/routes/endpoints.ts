import { Router } from 'express';
import crypto from 'crypto';
import { TEST_EVENT_TYPE, type EventType } from '../../contracts/constants';
import type {
	DeletedView,
	EnabledEndpointView,
	EndpointListView,
	EndpointTestView,
	EndpointView,
	EndpointWithSecretView,
} from '../../contracts/views';
import { generateSecret } from '../../outbound/signing';
import { parseAllowCidrs, validateUrlShape } from '../../outbound/url-guard';
import type { Endpoint } from '../../model/endpoints';
import type { NewEvent } from '../../model/events';
import type { QueueStore } from '../../store/queue-store';
import {
	ENDPOINT_CREATE,
	ENDPOINT_DISABLE,
	ENDPOINT_ENABLE,
	ENDPOINT_ROTATE,
	ENDPOINT_TEST,
	ENDPOINT_UPDATE,
} from '../../contracts/requests';
import { HttpError } from '../errors';
import { parseJsonBody } from '../json-body';
import type { QueueRouteContext, RouteContext } from './context';
import { methodNotAllowed, parseOptionalJsonBody, requireEventType } from './helpers';
import { endpointView } from './views';

export const DEFAULT_MAX_CONCURRENCY = 4;
export const DEFAULT_ROTATION_GRACE_HOURS = 24;
/** Endpoint health covers the last HEALTH_MAX_ATTEMPTS attempts of the last 24 h. */
export const HEALTH_WINDOW_MS = 24 * 3_600_000;
export const HEALTH_MAX_ATTEMPTS = 100;

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
export async function findEndpoint( store: QueueStore, id: string ): Promise< Endpoint > {
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
			const body = parseJsonBody( req, ENDPOINT_CREATE );
			const secret = generateSecret();
			const endpoint = await store.createEndpoint(
				{
					url: checkedUrl( body.url ),
					description: body.description ?? '',
					eventTypes: checkedTypes( body.event_types ?? [] ),
					maxConcurrency: body.max_concurrency ?? DEFAULT_MAX_CONCURRENCY,
					wcCompatSignature: body.wc_compat_signature ?? false,
					resendFailedOnRecovery: body.resend_failed_on_recovery ?? true,
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
			const body = parseJsonBody( req, ENDPOINT_UPDATE );
			const endpoint = await store.updateEndpoint(
				req.params.id,
				{
					url: body.url === undefined ? undefined : checkedUrl( body.url ),
					description: body.description,
					eventTypes: body.event_types === undefined ? undefined : checkedTypes( body.event_types ),
					maxConcurrency: body.max_concurrency,
					wcCompatSignature: body.wc_compat_signature,
					resendFailedOnRecovery: body.resend_failed_on_recovery,
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
			dispatcher.noticesCommitted();
			context.log.info( { endpoint_id: req.params.id, dropped_notices: droppedNotices }, 'endpoint deleted' );
			res.json( { deleted: true, id: req.params.id } satisfies DeletedView );
		} )
		.all( methodNotAllowed( 'GET', 'PATCH', 'DELETE' ) );

	/** New secret, shown once; the old one keeps signing (a second signature) until the grace period ends. */
	router
		.route( '/endpoints/:id/rotate-secret' )
		.post( async ( req, res ) => {
			await find( req.params.id );
			const body = parseOptionalJsonBody( req, ENDPOINT_ROTATE );
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
			const body = parseOptionalJsonBody( req, ENDPOINT_ENABLE );
			// Also when it was active already: the endpoint.enabled notice queued with it clears
			// any disabled notice WordPress may still show (QueueStore.enableEndpoint).
			const result = await store.enableEndpoint( req.params.id, Date.now(), body.redeliver );
			dispatcher.endpointsChanged();
			dispatcher.noticesCommitted();
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
			const body = parseOptionalJsonBody( req, ENDPOINT_DISABLE );
			const reason = body.reason ?? 'disabled by an administrator';
			if ( await store.disableEndpoint( req.params.id, reason, 'owner', Date.now() ) ) {
				context.metrics?.recordEndpointDisabled( 'owner' );
			}
			dispatcher.endpointsChanged();
			res.json( await view( await find( req.params.id ) ) );
		} )
		.all( methodNotAllowed( 'POST' ) );

	/**
	 * A test event to this endpoint only, signed and sent like any event (same headers, same
	 * retries) and shown in its delivery log: what an owner does after adding an endpoint. A
	 * disabled endpoint gets nothing, so it is refused rather than queued for nobody.
	 */
	router
		.route( '/endpoints/:id/test' )
		.post( async ( req, res ) => {
			const endpoint = await find( req.params.id );
			parseOptionalJsonBody( req, ENDPOINT_TEST );
			if ( endpoint.status !== 'active' ) {
				throw new HttpError(
					409,
					'endpoint_disabled',
					`Endpoint "${ endpoint.id }" is disabled; enable it first.`
				);
			}
			const now = new Date();
			const event = testEvent( endpoint.id, now );
			await dispatcher.ingest( [ event ] );
			context.log.info( { endpoint_id: endpoint.id, event_id: event.id }, 'test event queued' );
			res.status( 202 ).json( {
				event_id: event.id,
				endpoint_id: endpoint.id,
				type: TEST_EVENT_TYPE,
			} satisfies EndpointTestView );
		} )
		.all( methodNotAllowed( 'POST' ) );

	return router;
}

/** The test event for an endpoint: a fresh id each time, data that says what it is (docs/api/outbound-webhooks.md). */
export function testEvent( endpointId: string, now: Date ): NewEvent {
	return {
		id: `evt_test_${ crypto.randomBytes( 12 ).toString( 'hex' ) }`,
		type: TEST_EVENT_TYPE,
		timestamp: now.toISOString(),
		orderingKey: null,
		data: {
			endpoint_id: endpointId,
			message: 'A test event sent from WordPress to check that this endpoint receives and verifies webhooks.',
		},
		to: endpointId,
	};
}

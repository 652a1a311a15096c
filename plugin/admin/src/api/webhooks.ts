/**
 * Outbound webhooks: WordPress's admin proxy routes to the sidecar
 * (plugin/includes/Rest/class-sidecar-proxy-routes.php), which pass the sidecar's answers on
 * unchanged: their shapes are the sidecar's own types (sidecar/src/contracts/views.ts).
 */
import type { z } from 'zod';
import type { ENDPOINT_CREATE, RANGE_REPLAY } from '../../../../sidecar/src/contracts/requests';
import type {
	AttemptView,
	DeletedView,
	DeliveryPageView,
	DeliveryView,
	EnabledEndpointView,
	EndpointHealthView,
	EndpointListView,
	EndpointTestView,
	EndpointView,
	EndpointWithSecretView,
	EventDetailsView,
	RangeReplayView,
	RequeuedView,
} from '../../../../sidecar/src/contracts/views';
import { queryString, request } from './client';

export { DELIVERY_STATUSES, EVENT_TYPES } from '../../../../sidecar/src/contracts/constants';
export type { DeliveryStatus, EventType } from '../../../../sidecar/src/contracts/constants';

export type Endpoint = EndpointView;
export type EndpointHealth = EndpointHealthView;
export type EndpointWithSecret = EndpointWithSecretView;
export type EnabledEndpoint = EnabledEndpointView;
export type Delivery = DeliveryView;
export type DeliveryPage = DeliveryPageView;
export type Attempt = AttemptView;
export type EventDetails = EventDetailsView;
export type RangeReplayResult = RangeReplayView;

/** What an endpoint's form sends: the sidecar's own request schema (sidecar/src/contracts/requests.ts). */
export type EndpointInput = z.input< typeof ENDPOINT_CREATE >;

export interface DeliveryFilters {
	endpoint_id?: string;
	type?: string;
	status?: string;
	page?: number;
	per_page?: number;
}

const BASE = '/webhooks';

export async function listEndpoints(): Promise< Endpoint[] > {
	return ( await request< EndpointListView >( 'GET', `${ BASE }/endpoints` ) ).endpoints;
}

export function createEndpoint( input: EndpointInput ): Promise< EndpointWithSecret > {
	return request( 'POST', `${ BASE }/endpoints`, input );
}

export function updateEndpoint( id: string, patch: Partial< EndpointInput > ): Promise< Endpoint > {
	return request( 'PATCH', `${ BASE }/endpoints/${ encodeURIComponent( id ) }`, patch );
}

export function deleteEndpoint( id: string ): Promise< DeletedView > {
	return request( 'DELETE', `${ BASE }/endpoints/${ encodeURIComponent( id ) }` );
}

export function rotateEndpointSecret( id: string, graceHours?: number ): Promise< EndpointWithSecret > {
	return request(
		'POST',
		`${ BASE }/endpoints/${ encodeURIComponent( id ) }/rotate-secret`,
		graceHours === undefined ? {} : { grace_hours: graceHours }
	);
}

/**
 * Without `redeliver`, the sidecar decides: what the endpoint missed is sent again after an
 * automatic disable, not after the owner's own (then `skipped` says how much was left out).
 */
export function enableEndpoint( id: string, redeliver?: boolean ): Promise< EnabledEndpoint > {
	return request(
		'POST',
		`${ BASE }/endpoints/${ encodeURIComponent( id ) }/enable`,
		redeliver === undefined ? {} : { redeliver }
	);
}

/** One signed service_integration.test event to this endpoint only; its delivery shows in the log. */
export function sendTestEvent( id: string ): Promise< EndpointTestView > {
	return request( 'POST', `${ BASE }/endpoints/${ encodeURIComponent( id ) }/test` );
}

export function disableEndpoint( id: string ): Promise< Endpoint > {
	return request( 'POST', `${ BASE }/endpoints/${ encodeURIComponent( id ) }/disable` );
}

export function listDeliveries( filters: DeliveryFilters ): Promise< DeliveryPage > {
	return request( 'GET', `${ BASE }/deliveries${ queryString( { ...filters } ) }` );
}

export function getEvent( id: string ): Promise< EventDetails > {
	return request( 'GET', `${ BASE }/events/${ encodeURIComponent( id ) }` );
}

export function replayEvent( id: string, endpointId?: string ): Promise< RequeuedView > {
	return request(
		'POST',
		`${ BASE }/events/${ encodeURIComponent( id ) }/replay`,
		endpointId ? { endpoint_id: endpointId } : {}
	);
}

/** Requeues every delivery that failed (or was cancelled) since `since` (ISO 8601). */
export function replayFailedSince( since: string, endpointId?: string ): Promise< RequeuedView > {
	return request( 'POST', `${ BASE }/replay`, endpointId ? { since, endpoint_id: endpointId } : { since } );
}

/** A range replay: from (inclusive) and to (exclusive) are ISO 8601 times the sidecar received events at. */
export type RangeReplayInput = z.input< typeof RANGE_REPLAY >;

/** Replays to one endpoint the events of `types` received in [from, to), in order; `dry_run` only counts. */
export function replayEndpointRange( id: string, input: RangeReplayInput ): Promise< RangeReplayResult > {
	return request( 'POST', `${ BASE }/endpoints/${ encodeURIComponent( id ) }/replay`, input );
}

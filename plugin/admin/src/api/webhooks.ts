/**
 * Outbound webhooks: WordPress's admin proxy routes to the sidecar
 * (plugin/includes/Rest/class-webhooks-controller.php); shapes are the sidecar's
 * (sidecar/src/http/routes/{endpoints,deliveries,events,views}.ts).
 */
import { listFrom, queryString, request } from './client';

export const EVENT_TYPES = [ 'order.created', 'order.paid', 'order.refunded' ] as const;
export type EventType = ( typeof EVENT_TYPES )[ number ];

export const DELIVERY_STATUSES = [ 'pending', 'in_flight', 'succeeded', 'failed', 'cancelled' ] as const;
export type DeliveryStatus = ( typeof DELIVERY_STATUSES )[ number ];

export interface EndpointSecretInfo {
	masked: string;
	created_at: string | null;
	expires_at: string | null;
}

/** The sidecar's view of an endpoint's last 100 attempts of the last 24 h. */
export interface EndpointHealth {
	recent_attempts: number;
	/** 0 to 1; null without recent attempts. */
	recent_success_rate: number | null;
	/** The newest failed attempt among them (status null: a network error). */
	last_error: { at: string | null; status: number | null; message: string } | null;
}

export interface Endpoint {
	id: string;
	url: string;
	description: string;
	event_types: string[];
	status: 'active' | 'disabled';
	disabled_reason: string | null;
	disabled_at: string | null;
	/** auto: a 410 or days of failures; owner: disabled from here. */
	disabled_by?: 'auto' | 'owner' | null;
	failing_since: string | null;
	max_concurrency: number;
	wc_compat_signature: boolean;
	secrets: EndpointSecretInfo[];
	created_at: string | null;
	updated_at: string | null;
	health?: EndpointHealth;
}

/** Enabling: how much of what the endpoint missed went out again, or was left out. */
export type EnabledEndpoint = Endpoint & { requeued?: number; skipped?: number; redelivered?: boolean };

/** Creation and rotation answers: the secret in full, this once. */
export type EndpointWithSecret = Endpoint & { secret: string };

export interface EndpointInput {
	url: string;
	event_types: string[];
	description: string;
	wc_compat_signature: boolean;
}

export interface Delivery {
	id: number;
	event_id: string;
	event_type: string;
	endpoint_id: string;
	status: DeliveryStatus;
	attempt_count: number;
	next_attempt_at: string | null;
	last_status_code: number | null;
	last_error: string | null;
	created_at: string | null;
	updated_at: string | null;
}

export interface DeliveryPage {
	deliveries: Delivery[];
	total: number;
	page: number;
	per_page: number;
}

export interface DeliveryFilters {
	endpoint_id?: string;
	type?: string;
	status?: string;
	page?: number;
	per_page?: number;
}

export interface Attempt {
	attempt_number: number;
	started_at: string | null;
	duration_ms: number | null;
	status_code: number | null;
	error_code: string | null;
	response_excerpt: string | null;
	next_attempt_at: string | null;
	trigger: 'scheduled' | 'manual' | string;
}

export interface EventDetails {
	event: {
		id: string;
		type: string;
		timestamp: string;
		ordering_key: string | null;
		received_at: string;
		data: unknown;
	};
	deliveries: Array< Delivery & { attempts: Attempt[] } >;
}

const BASE = '/webhooks';

export async function listEndpoints(): Promise< Endpoint[] > {
	return listFrom< Endpoint >( await request< unknown >( 'GET', `${ BASE }/endpoints` ), 'endpoints' );
}

export function createEndpoint( input: EndpointInput ): Promise< EndpointWithSecret > {
	return request( 'POST', `${ BASE }/endpoints`, input );
}

export function updateEndpoint( id: string, patch: Partial< EndpointInput > ): Promise< Endpoint > {
	return request( 'PATCH', `${ BASE }/endpoints/${ encodeURIComponent( id ) }`, patch );
}

export function deleteEndpoint( id: string ): Promise< { deleted: boolean; id: string } > {
	return request( 'DELETE', `${ BASE }/endpoints/${ encodeURIComponent( id ) }` );
}

export function rotateEndpointSecret( id: string, graceHours?: number ): Promise< EndpointWithSecret > {
	return request( 'POST', `${ BASE }/endpoints/${ encodeURIComponent( id ) }/rotate-secret`, graceHours === undefined ? {} : { grace_hours: graceHours } );
}

/**
 * Without `redeliver`, the sidecar decides: what the endpoint missed is sent again after an
 * automatic disable, not after the owner's own (then `skipped` says how much was left out).
 */
export function enableEndpoint( id: string, redeliver?: boolean ): Promise< EnabledEndpoint > {
	return request( 'POST', `${ BASE }/endpoints/${ encodeURIComponent( id ) }/enable`, redeliver === undefined ? {} : { redeliver } );
}

export function disableEndpoint( id: string ): Promise< Endpoint > {
	return request( 'POST', `${ BASE }/endpoints/${ encodeURIComponent( id ) }/disable` );
}

export async function listDeliveries( filters: DeliveryFilters ): Promise< DeliveryPage > {
	const body = await request< Partial< DeliveryPage > >( 'GET', `${ BASE }/deliveries${ queryString( { ...filters } ) }` );
	return {
		deliveries: listFrom< Delivery >( body, 'deliveries' ),
		total: typeof body.total === 'number' ? body.total : 0,
		page: typeof body.page === 'number' ? body.page : filters.page ?? 1,
		per_page: typeof body.per_page === 'number' ? body.per_page : filters.per_page ?? 20,
	};
}

export function getEvent( id: string ): Promise< EventDetails > {
	return request( 'GET', `${ BASE }/events/${ encodeURIComponent( id ) }` );
}

export function replayEvent( id: string, endpointId?: string ): Promise< { requeued: number } > {
	return request( 'POST', `${ BASE }/events/${ encodeURIComponent( id ) }/replay`, endpointId ? { endpoint_id: endpointId } : {} );
}

/** Requeues every delivery that failed (or was cancelled) since `since` (ISO 8601). */
export function replayFailedSince( since: string, endpointId?: string ): Promise< { requeued: number } > {
	return request( 'POST', `${ BASE }/replay`, endpointId ? { since, endpoint_id: endpointId } : { since } );
}

export interface RangeReplayInput {
	/** ISO 8601, inclusive: when the sidecar received the event. */
	from: string;
	/** ISO 8601, exclusive. */
	to: string;
	types: EventType[];
	limit?: number;
	dry_run?: boolean;
}

export interface RangeReplayResult {
	/** Events in the range, at most the limit. */
	matched: number;
	/** Deliveries queued (new ones, and finished ones queued again). */
	queued: number;
	/** Deliveries already pending or in flight: they go out once. */
	already_queued: number;
	/** Events beyond the limit remain; the next replay starts at next_from. */
	more: boolean;
	next_from: string | null;
	types: EventType[];
	dry_run: boolean;
}

/** Replays to one endpoint the events of `types` received in [from, to), in order; `dry_run` only counts. */
export function replayEndpointRange( id: string, input: RangeReplayInput ): Promise< RangeReplayResult > {
	return request( 'POST', `${ BASE }/endpoints/${ encodeURIComponent( id ) }/replay`, input );
}

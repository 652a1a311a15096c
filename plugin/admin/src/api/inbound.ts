/**
 * Inbound webhooks: the admin routes. Sources and the verification log are the sidecar's
 * (sidecar/src/http/routes/inbound.ts), forwarded by WordPress's proxy routes
 * (plugin/includes/Rest/class-sidecar-proxy-routes.php) with each source's receiving URL added
 * (sidecar/src/contracts/responses.ts); events are WordPress's (their types generated from the
 * routes' schemas, plugin/includes/Rest/Schemas/).
 */
import type { z } from 'zod';
import type { SourceStatus } from '../../../../sidecar/src/contracts/constants';
import type { SOURCE_CREATE } from '../../../../sidecar/src/contracts/requests';
import type {
	ProxiedSourceListView,
	ProxiedSourceView,
	ProxiedSourceWithSecretView,
} from '../../../../sidecar/src/contracts/responses';
import type { DeletedView, InboundLogEntryView, InboundLogPageView } from '../../../../sidecar/src/contracts/views';
import { queryString, request } from './client';
import type { InboundEvent, InboundEventPage } from './generated/views';

export { INBOUND_OUTCOMES, INBOUND_SCHEMES, SOURCE_ID_PATTERN } from '../../../../sidecar/src/contracts/constants';
export type { InboundScheme } from '../../../../sidecar/src/contracts/constants';

export type { InboundEvent, InboundEventPage } from './generated/views';

/** Duplicates are acknowledged to the sender and counted on the stored event (never stored or processed again), so they have no status here. */
export type InboundEventStatus = InboundEvent[ 'status' ];
/** The statuses in the order the filter lists them (each one a status of the generated type). */
export const INBOUND_EVENT_STATUSES = [
	'received',
	'processed',
	'failed',
] as const satisfies readonly InboundEventStatus[];

/** A source as WordPress passes it on: with the URL to give the remote service. */
export type InboundSource = ProxiedSourceView;
export type InboundLogEntry = InboundLogEntryView;
export type InboundLogPage = InboundLogPageView;

/** Creation and rotation answers carry the secret in full, once, when it was generated here. */
export type InboundSourceWithSecret = ProxiedSourceWithSecretView;

/** A new source as the form sends it: the sidecar's own request schema (secret left out: one is generated). */
export type InboundSourceInput = z.input< typeof SOURCE_CREATE >;

const BASE = '/inbound';

export async function listSources(): Promise< InboundSource[] > {
	return ( await request< ProxiedSourceListView >( 'GET', `${ BASE }/sources` ) ).sources;
}

export function createSource( input: InboundSourceInput ): Promise< InboundSourceWithSecret > {
	// An empty secret field means "generate one": the sidecar is not sent an empty secret.
	const { secret, ...fields } = input;
	return request( 'POST', `${ BASE }/sources`, secret ? { ...fields, secret } : fields );
}

export function updateSource(
	id: string,
	patch: { description?: string; status?: SourceStatus }
): Promise< InboundSource > {
	return request( 'PATCH', `${ BASE }/sources/${ encodeURIComponent( id ) }`, patch );
}

export function deleteSource( id: string ): Promise< DeletedView > {
	return request( 'DELETE', `${ BASE }/sources/${ encodeURIComponent( id ) }` );
}

/** A new secret: the remote service's (pasted in) or, when left out, a generated one shown once. */
export function rotateSourceSecret( id: string, secret?: string ): Promise< InboundSourceWithSecret > {
	return request( 'POST', `${ BASE }/sources/${ encodeURIComponent( id ) }/rotate-secret`, secret ? { secret } : {} );
}

export interface InboundEventFilters {
	source?: string;
	status?: string;
	/** Only events delivered more than once. */
	duplicate?: boolean;
	page?: number;
	per_page?: number;
}

export function listInboundEvents( filters: InboundEventFilters ): Promise< InboundEventPage > {
	const { duplicate, ...rest } = filters;
	return request(
		'GET',
		`${ BASE }/events${ queryString( { ...rest, duplicate: duplicate ? 'true' : undefined } ) }`
	);
}

/** Starts a fresh round of processing for a failed event. */
export function retryInboundEvent( id: number ): Promise< InboundEvent > {
	return request( 'POST', `${ BASE }/events/${ id }/retry` );
}

export function listInboundLog( filters: {
	source?: string;
	outcome?: string;
	page?: number;
	per_page?: number;
} ): Promise< InboundLogPage > {
	return request( 'GET', `${ BASE }/log${ queryString( filters ) }` );
}

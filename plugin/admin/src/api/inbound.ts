/**
 * Inbound webhooks: the admin routes (plugin/includes/Rest/class-inbound-sources-controller.php).
 * Sources and the verification log are the sidecar's (sidecar/src/http/routes/inbound.ts),
 * forwarded by WordPress with each source's receiving URL added; events are WordPress's.
 */
import { listFrom, numberFrom, queryString, request } from './client';

export const INBOUND_SCHEMES = [ 'standard-webhooks', 'stripe', 'github', 'shopify', 'woocommerce' ] as const;
export type InboundScheme = ( typeof INBOUND_SCHEMES )[ number ];

/** Duplicates are acknowledged to the sender and counted on the stored event (never stored or processed again), so they have no status here. */
export const INBOUND_EVENT_STATUSES = [ 'received', 'processed', 'failed' ] as const;
export const INBOUND_OUTCOMES = [ 'verified', 'refused' ] as const;

export interface InboundSecretInfo {
	masked: string;
	/** `generated` here, or `provided` by the remote service (pasted in). */
	origin: 'generated' | 'provided' | string;
	created_at: string | null;
	expires_at: string | null;
}

export interface InboundSource {
	id: string;
	scheme: InboundScheme | string;
	status: 'active' | 'disabled' | string;
	description: string;
	tolerance_seconds?: number | null;
	tolerance_is_default?: boolean;
	secrets: InboundSecretInfo[];
	created_at: string | null;
	updated_at: string | null;
	/** The URL to give the remote service (added by WordPress). */
	receiving_url?: string;
}

/** Creation and rotation answers carry the secret in full, once, when it was generated here. */
export type InboundSourceWithSecret = InboundSource & { secret?: string };

export interface InboundSourceInput {
	id: string;
	scheme: string;
	/** The remote service's own secret; left out, one is generated. */
	secret?: string;
	description: string;
}

export interface InboundEvent {
	id: number;
	source: string;
	/** What deduplicates: the provider's signed id, or a digest of the signed body. */
	event_id: string;
	/** The provider's own, unsigned delivery id (GitHub, Shopify), to match their delivery logs. */
	delivery_id?: string | null;
	type: string | null;
	status: 'received' | 'processed' | 'failed' | string;
	attempts: number;
	last_error: string | null;
	received_at: string | null;
	processed_at: string | null;
	next_attempt_at: string | null;
	gave_up: boolean;
	/** Redeliveries of this event acknowledged as duplicates, and when the last one came. */
	duplicate_count: number;
	last_duplicate_at: string | null;
}

export interface InboundEventPage {
	events: InboundEvent[];
	total: number;
	page: number;
	per_page: number;
	counts: Partial< Record< string, number > >;
	/** Duplicate deliveries in all, and on how many events. */
	duplicates: { deliveries: number; events: number };
}

export interface InboundLogEntry {
	id: number;
	at: string | null;
	source: string;
	outcome: 'verified' | 'refused' | string;
	/** The verifier's answer to WordPress: 200 verified, or the refusal's 4xx (which the sender got unchanged). */
	status: number;
	/** What WordPress answered the sender of a verified delivery (202 new, 200 duplicate, 5xx not stored); null until reported. */
	answer_status?: number | null;
	/** Why it was refused. */
	code: string | null;
	event_id: string | null;
}

/** The HTTP status the sender got, or null when WordPress has not reported it (yet). */
export function senderStatus( entry: InboundLogEntry ): number | null {
	if ( entry.outcome === 'refused' ) {
		return entry.status;
	}
	return typeof entry.answer_status === 'number' ? entry.answer_status : null;
}

export interface InboundLogPage {
	entries: InboundLogEntry[];
	total: number;
	page: number;
	per_page: number;
}

const BASE = '/inbound';

function normaliseSource< T extends InboundSource >( source: T ): T {
	return { ...source, secrets: Array.isArray( source.secrets ) ? source.secrets : [], description: source.description ?? '' };
}

export async function listSources(): Promise< InboundSource[] > {
	return listFrom< InboundSource >( await request< unknown >( 'GET', `${ BASE }/sources` ), 'sources' ).map( normaliseSource );
}

export async function createSource( input: InboundSourceInput ): Promise< InboundSourceWithSecret > {
	const body: Record< string, string > = { id: input.id, scheme: input.scheme, description: input.description };
	if ( input.secret ) {
		body.secret = input.secret;
	}
	return normaliseSource( await request< InboundSourceWithSecret >( 'POST', `${ BASE }/sources`, body ) );
}

export async function updateSource( id: string, patch: { description?: string; status?: string } ): Promise< InboundSource > {
	return normaliseSource( await request< InboundSource >( 'PATCH', `${ BASE }/sources/${ encodeURIComponent( id ) }`, patch ) );
}

export function deleteSource( id: string ): Promise< { deleted: boolean; id: string } > {
	return request( 'DELETE', `${ BASE }/sources/${ encodeURIComponent( id ) }` );
}

/** A new secret: the remote service's (pasted in) or, when left out, a generated one shown once. */
export async function rotateSourceSecret( id: string, secret?: string ): Promise< InboundSourceWithSecret > {
	return normaliseSource( await request< InboundSourceWithSecret >( 'POST', `${ BASE }/sources/${ encodeURIComponent( id ) }/rotate-secret`, secret ? { secret } : {} ) );
}

export interface InboundEventFilters {
	source?: string;
	status?: string;
	/** Only events delivered more than once. */
	duplicate?: boolean;
	page?: number;
	per_page?: number;
}

export async function listInboundEvents( filters: InboundEventFilters ): Promise< InboundEventPage > {
	const { duplicate, ...rest } = filters;
	const body = await request< Record< string, unknown > >( 'GET', `${ BASE }/events${ queryString( { ...rest, duplicate: duplicate ? 'true' : undefined } ) }` );
	const duplicates = typeof body.duplicates === 'object' && body.duplicates !== null ? ( body.duplicates as Record< string, unknown > ) : {};
	return {
		events: listFrom< InboundEvent >( body, 'events' ),
		total: numberFrom( body, 'total' ) ?? 0,
		page: numberFrom( body, 'page' ) ?? filters.page ?? 1,
		per_page: numberFrom( body, 'per_page' ) ?? filters.per_page ?? 20,
		counts: typeof body.counts === 'object' && body.counts !== null ? ( body.counts as Record< string, number > ) : {},
		duplicates: { deliveries: numberFrom( duplicates, 'deliveries' ) ?? 0, events: numberFrom( duplicates, 'events' ) ?? 0 },
	};
}

/** Starts a fresh round of processing for a failed event. */
export function retryInboundEvent( id: number ): Promise< InboundEvent > {
	return request( 'POST', `${ BASE }/events/${ id }/retry` );
}

export async function listInboundLog( filters: { source?: string; outcome?: string; page?: number; per_page?: number } ): Promise< InboundLogPage > {
	const body = await request< unknown >( 'GET', `${ BASE }/log${ queryString( filters ) }` );
	return {
		entries: listFrom< InboundLogEntry >( body, 'entries' ),
		total: numberFrom( body, 'total' ) ?? 0,
		page: numberFrom( body, 'page' ) ?? filters.page ?? 1,
		per_page: numberFrom( body, 'per_page' ) ?? filters.per_page ?? 20,
	};
}

import { Router, type Request } from 'express';
import { z } from 'zod';
import {
	FORWARDED_HEADER_PREFIX,
	INBOUND_DEADLINE_HEADER,
	SOURCE_ID_PATTERN,
	type InboundScheme,
	type SecretOrigin,
} from '../../contracts/constants';
import type {
	DeletedView,
	InboundLogEntryView,
	InboundLogPageView,
	InboundSourceListView,
	InboundSourceView,
	InboundSourceWithSecretView,
} from '../../contracts/views';
import type { InboundLogEntry, InboundSource } from '../../model/inbound';
import { checkInbound } from '../../inbound/receive';
import { generateSourceSecret, secretProblem } from '../../inbound/source-secrets';
import type { SidecarMetrics } from '../../metrics/registry';
import { maskSecret } from '../../secret-mask';
import { INBOUND_LOG_QUERY, SOURCE_CREATE, SOURCE_ROTATE, SOURCE_UPDATE } from '../../contracts/requests';
import { HttpError } from '../errors';
import { parseJsonBody } from '../json-body';
import type { QueueRouteContext } from './context';
import { iso, methodNotAllowed, parseOptionalJsonBody, parseQuery } from './helpers';

export const DEFAULT_SOURCE_ROTATION_GRACE_HOURS = 24;

/** What WordPress answered the sender of a verified delivery (202 new, 200 duplicate, 5xx not stored, with its code). */
const ANSWER_SCHEMA = z.strictObject( {
	status: z.number().int().min( 100 ).max( 599 ),
	code: z
		.string()
		.regex( /^[a-z0-9_]{1,64}$/ )
		.nullable()
		.optional(),
} );

/**
 * A verdict this close to WordPress's deadline may reach it too late: it is treated as past it,
 * so the 503 the sidecar then answers and the 503 WordPress answers the sender on its own agree.
 */
export const DEADLINE_MARGIN_MS = 100;

/** What WordPress answers the sender when it gets no verdict in time (Inbound_Route::retry_later). */
const UNREACHABLE = { status: 503, code: 'sidecar_unreachable' } as const;

const LOG_ID_PATTERN = /^[1-9][0-9]{0,15}$/;

export interface InboundRouteContext extends Pick< QueueRouteContext, 'config' | 'log' | 'store' > {
	/** Where the route counts; nothing is counted without it. */
	metrics?: Pick< SidecarMetrics, 'recordInboundVerification' | 'recordInboundTimeout' >;
}

/**
 * Inbound webhooks: the sources (scheme + secrets) WordPress receives for, the
 * verification WordPress asks for on every delivery, and the verification log, on either
 * store (QueueStore.inbound). A secret leaves in full only in the answer that generated it.
 */
export function inboundRouter( context: InboundRouteContext ): Router {
	const { config, log } = context;
	const inbound = context.store.inbound;
	const router = Router();

	const view = ( source: InboundSource ): InboundSourceView => ( {
		id: source.id,
		scheme: source.scheme,
		status: source.status,
		description: source.description,
		tolerance_seconds: source.toleranceSeconds ?? config.inboundToleranceSeconds,
		tolerance_is_default: source.toleranceSeconds === null,
		secrets: source.secrets.map( ( secret ) => ( {
			masked: maskSecret( secret.secret ),
			origin: secret.origin,
			created_at: iso( secret.createdAt ),
			expires_at: iso( secret.expiresAt ),
		} ) ),
		created_at: iso( source.createdAt ),
		updated_at: iso( source.updatedAt ),
	} );
	const find = async ( id: string ): Promise< InboundSource > => {
		const source = SOURCE_ID_PATTERN.test( id ) ? await inbound.getSource( id, Date.now() ) : undefined;
		if ( ! source ) {
			throw new HttpError( 404, 'source_not_found', `No inbound source with id "${ id }".` );
		}
		return source;
	};
	/** The given secret (checked) or a generated one. */
	const secretFor = (
		scheme: InboundScheme,
		given: string | undefined
	): { secret: string; origin: SecretOrigin } => {
		if ( given === undefined ) {
			return { secret: generateSourceSecret( scheme ), origin: 'generated' };
		}
		const problem = secretProblem( scheme, given );
		if ( problem ) {
			throw new HttpError( 400, 'invalid_secret', `secret: ${ problem }.`, { field: 'secret' } );
		}
		return { secret: given, origin: 'provided' };
	};
	/** Shown once, and only when we made it: a provider's own secret is not echoed back. */
	const withSecret = (
		source: InboundSource,
		secret: { secret: string; origin: SecretOrigin }
	): InboundSourceWithSecretView =>
		secret.origin === 'generated' ? { ...view( source ), secret: secret.secret } : view( source );

	router
		.route( '/inbound/sources' )
		.get( async ( _req, res ) => {
			res.json( {
				sources: ( await inbound.listSources( Date.now() ) ).map( view ),
			} satisfies InboundSourceListView );
		} )
		.post( async ( req, res ) => {
			const body = parseJsonBody( req, SOURCE_CREATE );
			const secret = secretFor( body.scheme, body.secret );
			const source = await inbound.createSource(
				{
					id: body.id,
					scheme: body.scheme,
					status: body.status ?? 'active',
					description: body.description ?? '',
					toleranceSeconds: body.tolerance_seconds ?? null,
					...secret,
				},
				Date.now()
			);
			if ( ! source ) {
				throw new HttpError( 409, 'source_exists', `An inbound source with id "${ body.id }" already exists.`, {
					field: 'id',
				} );
			}
			log.info( { source: source.id, scheme: source.scheme, origin: secret.origin }, 'inbound source created' );
			res.status( 201 ).set( 'cache-control', 'no-store' ).json( withSecret( source, secret ) );
		} )
		.all( methodNotAllowed( 'GET', 'POST' ) );

	router
		.route( '/inbound/sources/:id' )
		.get( async ( req, res ) => {
			res.json( view( await find( req.params.id ) ) );
		} )
		.patch( async ( req, res ) => {
			const current = await find( req.params.id );
			const body = parseJsonBody( req, SOURCE_UPDATE );
			if ( body.scheme !== undefined && body.scheme !== current.scheme ) {
				for ( const secret of current.secrets ) {
					const problem = secretProblem( body.scheme, secret.secret );
					if ( problem ) {
						throw new HttpError(
							400,
							'invalid_secret',
							`The current secret cannot be used with ${ body.scheme }: it ${ problem }; rotate the secret with the change.`,
							{
								field: 'scheme',
							}
						);
					}
				}
			}
			const source = await inbound.updateSource(
				current.id,
				{
					scheme: body.scheme,
					status: body.status,
					description: body.description,
					toleranceSeconds: body.tolerance_seconds,
				},
				Date.now()
			);
			// Deleted (through another instance) since it was read.
			res.json( view( source ?? ( await find( current.id ) ) ) );
		} )
		.delete( async ( req, res ) => {
			const source = await find( req.params.id );
			await inbound.deleteSource( source.id );
			log.info( { source: source.id }, 'inbound source deleted' );
			res.json( { deleted: true, id: source.id } satisfies DeletedView );
		} )
		.all( methodNotAllowed( 'GET', 'PATCH', 'DELETE' ) );

	/** A new current secret (given by the provider, or generated); the old one is accepted until the grace ends. */
	router
		.route( '/inbound/sources/:id/rotate-secret' )
		.post( async ( req, res ) => {
			const current = await find( req.params.id );
			const body = parseOptionalJsonBody( req, SOURCE_ROTATE );
			const secret = secretFor( current.scheme, body.secret );
			const graceMs = Math.round( ( body.grace_hours ?? DEFAULT_SOURCE_ROTATION_GRACE_HOURS ) * 3_600_000 );
			const source =
				( await inbound.rotateSourceSecret( current.id, secret.secret, secret.origin, graceMs, Date.now() ) ) ??
				// Deleted (through another instance) since it was read: find answers 404.
				( await find( current.id ) );
			log.info(
				{ source: source.id, origin: secret.origin, grace_hours: graceMs / 3_600_000 },
				'inbound source secret rotated'
			);
			res.set( 'cache-control', 'no-store' ).json( withSecret( source, secret ) );
		} )
		.all( methodNotAllowed( 'POST' ) );

	/**
	 * Body: the webhook's exact bytes. Headers: the provider's, each prefixed with
	 * x-si-fwd-, and WordPress's deadline (INBOUND_DEADLINE_HEADER). 200 with the normalised
	 * event and `log_id`, 4xx with the reason, or 503 when asked after the deadline; each
	 * time one log row (no payload, no secret) saying what the sender was told: a refusal's
	 * 4xx, WordPress's 503 past its deadline, or, for a good signature, nothing yet
	 * (unconfirmed) until WordPress reports what it answered under log_id
	 * (POST /inbound/log/<log_id>/answer).
	 */
	router
		.route( '/inbound/sources/:id/verify' )
		.post( async ( req, res ) => {
			const now = Date.now();
			const id = req.params.id;
			const known = SOURCE_ID_PATTERN.test( id );
			const source = known ? await inbound.getSource( id, now ) : undefined;
			const deadline = answerDeadline( req );
			if ( deadline !== null && Date.now() > deadline - DEADLINE_MARGIN_MS ) {
				// WordPress has stopped waiting (a frozen or overloaded sidecar, a slow database) and
				// answered the sender 503 sidecar_unreachable: nothing is verified for nobody.
				context.metrics?.recordInboundTimeout( id, source !== undefined );
				if ( known ) {
					await inbound.recordVerification( {
						at: now,
						source: id,
						outcome: 'timed_out',
						status: 503,
						code: UNREACHABLE.code,
						eventId: null,
						answerStatus: UNREACHABLE.status,
					} );
				}
				log.warn(
					{ source: id, late_ms: Date.now() - deadline },
					'inbound verification asked after WordPress stopped waiting: the sender got 503'
				);
				throw new HttpError( 503, 'deadline_passed', 'WordPress stopped waiting for this verdict.' );
			}
			const verdict = checkInbound( source, {
				rawBody: Buffer.isBuffer( req.body ) ? req.body : Buffer.alloc( 0 ),
				headers: forwardedHeaders( req ),
				nowMs: now,
				defaultToleranceSeconds: config.inboundToleranceSeconds,
			} );
			context.metrics?.recordInboundVerification( id, verdict );
			const logId = known
				? await inbound.recordVerification( {
						at: now,
						source: id,
						// A good signature says nothing yet of the sender's answer: WordPress reports it.
						outcome: verdict.ok ? 'unconfirmed' : 'refused',
						status: verdict.status,
						code: verdict.ok ? null : verdict.code,
						eventId: verdict.ok ? verdict.eventId : null,
						// WordPress passes a refusal's 4xx to the sender unchanged.
						answerStatus: verdict.ok ? null : verdict.status,
					} )
				: null;
			if ( ! verdict.ok ) {
				log.debug( { source: id, code: verdict.code }, 'inbound webhook refused' );
				throw new HttpError( verdict.status, verdict.code, verdict.message );
			}
			res.json( {
				source: id,
				event_id: verdict.eventId,
				event_id_source: verdict.eventIdSource,
				delivery_id: verdict.deliveryId,
				type: verdict.type,
				data: verdict.data,
				data_pointer: verdict.dataPointer,
				signed_at: verdict.signedAt === null ? null : iso( verdict.signedAt * 1000 ),
				log_id: logId,
			} );
		} )
		.all( methodNotAllowed( 'POST' ) );

	router
		.route( '/inbound/log' )
		.get( async ( req, res ) => {
			const query = parseQuery( req, INBOUND_LOG_QUERY );
			const { entries, total } = await inbound.listVerifications( {
				source: query.source,
				outcome: query.outcome,
				page: query.page,
				perPage: query.per_page,
			} );
			res.json( {
				entries: entries.map( logView ),
				total,
				page: query.page,
				per_page: query.per_page,
			} satisfies InboundLogPageView );
		} )
		.all( methodNotAllowed( 'GET' ) );

	/** Body: {status}, the HTTP status WordPress answered the sender of this delivery with. */
	router
		.route( '/inbound/log/:id/answer' )
		.post( async ( req, res ) => {
			const id = req.params.id;
			const notFound = () =>
				new HttpError( 404, 'log_entry_not_found', `No verification log entry with id "${ id }".` );
			if ( ! LOG_ID_PATTERN.test( id ) ) {
				throw notFound();
			}
			const body = parseJsonBody( req, ANSWER_SCHEMA );
			const entry = await inbound.recordAnswer( Number( id ), { status: body.status, code: body.code ?? null } );
			if ( ! entry ) {
				throw notFound();
			}
			res.json( logView( entry ) );
		} )
		.all( methodNotAllowed( 'POST' ) );

	return router;
}

/** WordPress's deadline for the verdict (Unix milliseconds), or null when it gave none. */
function answerDeadline( req: Request ): number | null {
	const value = req.headers[ INBOUND_DEADLINE_HEADER ];
	return typeof value === 'string' && /^[0-9]{1,16}$/.test( value ) ? Number( value ) : null;
}

/** The provider's headers WordPress forwarded, names without the prefix. */
function forwardedHeaders( req: Request ): Record< string, string > {
	const headers: Record< string, string > = {};
	for ( const [ name, value ] of Object.entries( req.headers ) ) {
		if ( name.startsWith( FORWARDED_HEADER_PREFIX ) && value !== undefined ) {
			headers[ name.slice( FORWARDED_HEADER_PREFIX.length ) ] = Array.isArray( value )
				? value.join( ', ' )
				: value;
		}
	}
	return headers;
}

function logView( entry: InboundLogEntry ): InboundLogEntryView {
	return {
		id: entry.id,
		at: iso( entry.at ),
		source: entry.source,
		outcome: entry.outcome,
		status: entry.status,
		code: entry.code,
		event_id: entry.eventId,
		/** What the sender got: a refusal's 4xx, 503 past the deadline, or as WordPress reported it (null until then). */
		answer_status: entry.answerStatus,
	};
}

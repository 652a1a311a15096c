/**
 * The verdict on one inbound webhook for one source: known and active, signature
 * (verify.ts), then shape (normalise.ts). Pure apart from the source it is given,
 * so the route, the tests and the benchmark all run exactly this.
 */
import type { InboundRefusalCode } from '../contracts/constants';
import { normaliseInbound, type JsonObject } from './normalise';
import type { InboundSource } from '../model/inbound';
import { verifyInbound, type VerifyResult } from './verify';

export interface InboundRequest {
	rawBody: Buffer;
	/** The provider's headers, names lower-cased. */
	headers: Record< string, string | undefined >;
	nowMs: number;
	/** Used when the source has no tolerance of its own. */
	defaultToleranceSeconds: number;
}

export type InboundVerdict =
	| {
			ok: true;
			status: 200;
			eventId: string;
			eventIdSource: Extract< VerifyResult, { ok: true } >[ 'eventIdSource' ];
			/** The provider's unsigned delivery id, for display (GitHub, Shopify). */
			deliveryId: string | null;
			type: string;
			data: JsonObject;
			dataPointer: '' | '/data';
			signedAt: number | null;
	  }
	| { ok: false; status: 400 | 401 | 403 | 404; code: InboundRefusalCode; message: string };

export function checkInbound( source: InboundSource | undefined, request: InboundRequest ): InboundVerdict {
	if ( ! source ) {
		return { ok: false, status: 404, code: 'unknown_source', message: 'No inbound source with this name.' };
	}
	if ( source.status !== 'active' ) {
		return { ok: false, status: 403, code: 'source_disabled', message: 'This inbound source is disabled.' };
	}
	const verified = verifyInbound( source.scheme, {
		rawBody: request.rawBody,
		headers: request.headers,
		secrets: source.secrets.map( ( secret ) => secret.secret ),
		toleranceSeconds: source.toleranceSeconds ?? request.defaultToleranceSeconds,
		nowSeconds: Math.floor( request.nowMs / 1000 ),
	} );
	if ( ! verified.ok ) {
		return { ok: false, status: 401, code: verified.code, message: verified.message };
	}
	const normalised = normaliseInbound( source.scheme, request.rawBody, request.headers );
	if ( ! normalised.ok ) {
		return { ok: false, status: 400, code: normalised.code, message: normalised.message };
	}
	return {
		ok: true,
		status: 200,
		eventId: verified.eventId,
		eventIdSource: verified.eventIdSource,
		deliveryId: verified.deliveryId ?? null,
		type: normalised.type,
		data: normalised.data,
		dataPointer: normalised.dataPointer,
		signedAt: verified.signedAt ?? null,
	};
}

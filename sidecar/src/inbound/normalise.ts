/**
 * Turns a verified webhook into the shape every inbound event has, `{type: string, data: object}`,
 * whatever the provider's own layout. Pure, like verify.ts: runs only after the
 * signature was checked, so an unauthenticated sender learns nothing from it.
 *
 * - Standard Webhooks, Stripe: the body is already `{type, data, ...}`.
 * - GitHub: the type is the `x-github-event` header, plus `.<action>` when the body has
 *   one (`issues` + `opened` = `issues.opened`); the data is the whole body.
 * - Shopify: the type is `x-shopify-topic` (`orders/create`); the data is the body.
 * - WooCommerce: the type is `x-wc-webhook-topic` (`order.created`); the data is the body.
 *
 * `dataPointer` (RFC 6901) says where `data` sits in the raw body, so WordPress can
 * decode it from the exact bytes with PHP's own JSON parser (64-bit integers intact)
 * instead of trusting a JavaScript re-serialisation (which rounds them above 2^53).
 */
import { isUtf8 } from 'node:buffer';
import type { InboundScheme } from './verify';

export const MAX_TYPE_LENGTH = 191; // what the WordPress table's indexed column holds
// Printable, no control characters; anything else in a type is a mangled header or payload.
const TYPE_PATTERN = /^[^\x00-\x1f\x7f]+$/;

export type JsonObject = Record< string, unknown >;

export type NormaliseResult =
	| { ok: true; type: string; data: JsonObject; dataPointer: '' | '/data' }
	| { ok: false; code: 'invalid_utf8' | 'invalid_json' | 'invalid_payload'; message: string };

type Headers = Record< string, string | undefined >;

const TYPE_HEADERS: Partial< Record< InboundScheme, string > > = {
	github: 'x-github-event',
	shopify: 'x-shopify-topic',
	woocommerce: 'x-wc-webhook-topic',
};

export function normaliseInbound( scheme: InboundScheme, rawBody: Buffer, headers: Headers ): NormaliseResult {
	// JSON is UTF-8 (RFC 8259). Decoding would silently replace bad bytes, and a database
	// refuses them: the sender would get 503 and retry the same body forever.
	if ( ! isUtf8( rawBody ) ) {
		return { ok: false, code: 'invalid_utf8', message: 'The webhook body is not valid UTF-8.' };
	}
	let body: unknown;
	try {
		body = JSON.parse( rawBody.toString( 'utf8' ) );
	} catch {
		return { ok: false, code: 'invalid_json', message: 'The webhook body is not valid JSON.' };
	}
	if ( ! isObject( body ) ) {
		return invalid( 'The webhook body must be a JSON object.' );
	}

	const typeHeader = TYPE_HEADERS[ scheme ];
	if ( typeHeader === undefined ) {
		// Standard Webhooks and Stripe carry {type, data} in the body.
		const problem = typeProblem( body.type, 'type' );
		if ( problem ) {
			return invalid( problem );
		}
		if ( ! isObject( body.data ) ) {
			return invalid( 'data must be a JSON object.' );
		}
		return { ok: true, type: body.type as string, data: body.data, dataPointer: '/data' };
	}

	const header = headers[ typeHeader ]?.trim();
	let type = header;
	if ( scheme === 'github' && header && typeof body.action === 'string' && body.action !== '' ) {
		type = `${ header }.${ body.action }`;
	}
	const problem = typeProblem( type, `the ${ typeHeader } header` );
	if ( problem ) {
		return invalid( problem );
	}
	return { ok: true, type: type as string, data: body, dataPointer: '' };
}

function typeProblem( type: unknown, what: string ): string | null {
	if ( typeof type !== 'string' || type === '' ) {
		return `${ what } must be a non-empty string (the event type).`;
	}
	if ( type.length > MAX_TYPE_LENGTH || ! TYPE_PATTERN.test( type ) ) {
		return `${ what } must be at most ${ MAX_TYPE_LENGTH } printable characters.`;
	}
	return null;
}

function isObject( value: unknown ): value is JsonObject {
	return typeof value === 'object' && value !== null && ! Array.isArray( value );
}

function invalid( message: string ): NormaliseResult {
	return { ok: false, code: 'invalid_payload', message };
}

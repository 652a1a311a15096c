/**
 * Shopify: x-shopify-hmac-sha256 = base64 HMAC-SHA256 of the body, keyed with
 * the app's client secret as-is. No signed timestamp; x-shopify-triggered-at is
 * an unsigned hint used only to refuse obviously old replays.
 *
 * x-shopify-webhook-id is not signed either: the event id is the body digest, so a
 * captured body resent with a fresh id and timestamp is still the same event; the
 * webhook id is kept for display only.
 */
import { createHash, createHmac } from 'node:crypto';
import { constantTimeEqual } from '../constant-time';
import type { VerifyInput, VerifyResult } from '../verify';

// 32 bytes encode to exactly 43 base64 chars plus one '='.
const SIGNATURE_PATTERN = /^[A-Za-z0-9+/]{43}=$/;
const WEBHOOK_ID_PATTERN = /^[\x21-\x7e]{1,255}$/;
// Date.parse accepts almost anything ("1" is 2001); only ISO 8601 date-times count.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export function verifyShopify( input: VerifyInput ): VerifyResult {
	const header = input.headers[ 'x-shopify-hmac-sha256' ];
	if ( header === undefined ) {
		return fail( 'missing_signature', 'Missing x-shopify-hmac-sha256 header.' );
	}
	const candidate = header.trim();
	if ( ! SIGNATURE_PATTERN.test( candidate ) ) {
		return fail( 'malformed_signature', 'x-shopify-hmac-sha256 must be a base64 HMAC-SHA256 (44 characters).' );
	}

	let matched = false;
	for ( const secret of input.secrets ) {
		// Compare canonical base64 text: decoding would accept several spellings of one MAC.
		const expected = createHmac( 'sha256', secret ).update( input.rawBody ).digest( 'base64' );
		matched = constantTimeEqual( candidate, expected ) || matched;
	}
	if ( ! matched ) {
		return fail(
			'invalid_signature',
			'x-shopify-hmac-sha256 does not match the payload for any configured secret.'
		);
	}

	const triggeredAt = parseTriggeredAt( input.headers[ 'x-shopify-triggered-at' ] );
	// Negated "within" test so a NaN tolerance fails closed.
	if ( triggeredAt !== null && ! ( input.nowSeconds - triggeredAt <= input.toleranceSeconds ) ) {
		return fail(
			'stale_timestamp',
			`x-shopify-triggered-at is older than the ${ input.toleranceSeconds }s tolerance.`
		);
	}

	const digest = createHash( 'sha256' ).update( input.rawBody ).digest( 'hex' );
	const webhookId = input.headers[ 'x-shopify-webhook-id' ]?.trim();
	return {
		ok: true,
		eventId: `sha256:${ digest }`,
		eventIdSource: 'digest',
		...( webhookId !== undefined && WEBHOOK_ID_PATTERN.test( webhookId ) ? { deliveryId: webhookId } : {} ),
	};
}

/** Unix seconds, or null when absent or not an ISO 8601 date-time. */
function parseTriggeredAt( value: string | undefined ): number | null {
	const trimmed = value?.trim();
	if ( trimmed === undefined || ! ISO_DATE_TIME.test( trimmed ) ) {
		return null;
	}
	const ms = Date.parse( trimmed );
	return Number.isFinite( ms ) ? Math.floor( ms / 1000 ) : null;
}

function fail( code: Extract< VerifyResult, { ok: false } >[ 'code' ], message: string ): VerifyResult {
	return { ok: false, code, message };
}

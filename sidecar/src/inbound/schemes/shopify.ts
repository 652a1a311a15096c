/**
 * Shopify: x-shopify-hmac-sha256 = base64 HMAC-SHA256 of the body, keyed with
 * the app's client secret as-is. No signed timestamp; x-shopify-triggered-at is
 * an unsigned hint used only to refuse obviously old replays.
 *
 * x-shopify-webhook-id is not signed either: the event id is the body digest, so a
 * captured body resent with a fresh id and timestamp is still the same event; the
 * webhook id is kept for display only.
 */
import { verifyBodyHmac } from '../body-hmac';
import type { VerifyInput, VerifyResult } from '../verify';
import { fail } from '../verify-failure';

// Date.parse accepts almost anything ("1" is 2001); only ISO 8601 date-times count.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

export function verifyShopify( input: VerifyInput ): VerifyResult {
	const verified = verifyBodyHmac(
		{ signatureHeader: 'x-shopify-hmac-sha256', encoding: 'base64', deliveryIdHeader: 'x-shopify-webhook-id' },
		input
	);
	// The signature first: a stale forgery is a forgery.
	if ( ! verified.ok ) {
		return verified;
	}
	const triggeredAt = parseTriggeredAt( input.headers[ 'x-shopify-triggered-at' ] );
	// Negated "within" test so a NaN tolerance fails closed.
	if ( triggeredAt !== null && ! ( input.nowSeconds - triggeredAt <= input.toleranceSeconds ) ) {
		return fail(
			'stale_timestamp',
			`x-shopify-triggered-at is older than the ${ input.toleranceSeconds }s tolerance.`
		);
	}
	return verified;
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

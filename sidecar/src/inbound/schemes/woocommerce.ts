/**
 * WooCommerce: x-wc-webhook-signature = base64 HMAC-SHA256 of the body, keyed
 * with the webhook secret as-is. No timestamp, and x-wc-webhook-delivery-id
 * changes on every resend, so the body digest is the only stable event id.
 */
import { createHash, createHmac } from 'node:crypto';
import { constantTimeEqual } from '../constant-time';
import type { VerifyInput, VerifyResult } from '../verify';

// 32 bytes encode to exactly 43 base64 chars plus one '='.
const SIGNATURE_PATTERN = /^[A-Za-z0-9+/]{43}=$/;

export function verifyWoocommerce( input: VerifyInput ): VerifyResult {
	const header = input.headers[ 'x-wc-webhook-signature' ];
	if ( header === undefined ) {
		return fail( 'missing_signature', 'Missing x-wc-webhook-signature header.' );
	}
	const candidate = header.trim();
	if ( ! SIGNATURE_PATTERN.test( candidate ) ) {
		return fail( 'malformed_signature', 'x-wc-webhook-signature must be a base64 HMAC-SHA256 (44 characters).' );
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
			'x-wc-webhook-signature does not match the payload for any configured secret.'
		);
	}

	const digest = createHash( 'sha256' ).update( input.rawBody ).digest( 'hex' );
	return { ok: true, eventId: `sha256:${ digest }`, eventIdSource: 'digest' };
}

function fail( code: Extract< VerifyResult, { ok: false } >[ 'code' ], message: string ): VerifyResult {
	return { ok: false, code, message };
}

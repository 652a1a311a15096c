/**
 * GitHub: x-hub-signature-256 = "sha256=<hex>" HMAC-SHA256 of the body with
 * the secret as-is. No timestamp. The legacy SHA-1 x-hub-signature is not accepted.
 *
 * x-github-delivery is not signed: keyed on it, a captured body resent with a fresh
 * id would be a new event every time. The event id is the body digest (what the
 * signature covers); the delivery id is kept for display only.
 */
import { createHash, createHmac } from 'node:crypto';
import { constantTimeEqual } from '../constant-time';
import type { VerifyInput, VerifyResult } from '../verify';

const SIGNATURE_PATTERN = /^sha256=[0-9a-f]{64}$/;
// Ids are stored and logged: bounded printable ASCII only, else use the digest.
const DELIVERY_ID_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function verifyGithub( input: VerifyInput ): VerifyResult {
	const header = input.headers[ 'x-hub-signature-256' ];
	if ( header === undefined ) {
		return fail( 'missing_signature', 'Missing x-hub-signature-256 header.' );
	}
	const candidate = header.trim();
	if ( ! SIGNATURE_PATTERN.test( candidate ) ) {
		return fail(
			'malformed_signature',
			'x-hub-signature-256 must be "sha256=" followed by 64 lowercase hex characters.'
		);
	}

	let matched = false;
	for ( const secret of input.secrets ) {
		const expected = `sha256=${ createHmac( 'sha256', secret ).update( input.rawBody ).digest( 'hex' ) }`;
		matched = constantTimeEqual( candidate, expected ) || matched;
	}
	if ( ! matched ) {
		return fail( 'invalid_signature', 'x-hub-signature-256 does not match the payload for any configured secret.' );
	}

	const digest = createHash( 'sha256' ).update( input.rawBody ).digest( 'hex' );
	const delivery = input.headers[ 'x-github-delivery' ]?.trim();
	return {
		ok: true,
		eventId: `sha256:${ digest }`,
		eventIdSource: 'digest',
		...( delivery !== undefined && DELIVERY_ID_PATTERN.test( delivery ) ? { deliveryId: delivery } : {} ),
	};
}

function fail( code: Extract< VerifyResult, { ok: false } >[ 'code' ], message: string ): VerifyResult {
	return { ok: false, code, message };
}

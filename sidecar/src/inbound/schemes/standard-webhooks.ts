/**
 * Standard Webhooks (https://www.standardwebhooks.com, also Svix):
 * webhook-id, webhook-timestamp, webhook-signature = "v1,<base64> v1,<base64> ...",
 * HMAC-SHA256 over `${id}.${timestamp}.${body}`, key = base64 of the secret
 * after an optional "whsec_" prefix (as the `standardwebhooks` npm lib does).
 */
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../constant-time';
import type { VerifyInput, VerifyResult } from '../verify';
import { fail } from '../verify-failure';

const SECRET_PREFIX = 'whsec_';
// Bounded printable ASCII without '.', which would make the signed content ambiguous.
const ID_PATTERN = /^[\x21-\x2d\x2f-\x7e]{1,256}$/;
// Digits only, no sign/leading zeros/exponent, so the signed string is the parsed value.
const TIMESTAMP_PATTERN = /^(0|[1-9][0-9]{0,11})$/;
const ENTRY_PATTERN = /^([a-z0-9]+),([A-Za-z0-9+/]+={0,2})$/;
// An HMAC-SHA256 is 32 bytes: exactly 43 base64 chars plus one '='.
const V1_SIGNATURE_PATTERN = /^[A-Za-z0-9+/]{43}=$/;
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function verifyStandardWebhooks( input: VerifyInput ): VerifyResult {
	const { headers } = input;
	const id = headers[ 'webhook-id' ];
	const timestamp = headers[ 'webhook-timestamp' ];
	const signatureHeader = headers[ 'webhook-signature' ];

	if ( signatureHeader === undefined ) {
		return fail( 'missing_signature', 'Missing webhook-signature header.' );
	}
	if ( timestamp === undefined ) {
		return fail( 'missing_signature', 'Missing webhook-timestamp header.' );
	}
	if ( id === undefined ) {
		return fail( 'missing_event_id', 'Missing webhook-id header.' );
	}
	if ( ! ID_PATTERN.test( id ) ) {
		return fail( 'malformed_signature', 'webhook-id must be 1-256 printable characters without "." or spaces.' );
	}
	if ( ! TIMESTAMP_PATTERN.test( timestamp ) ) {
		return fail( 'malformed_signature', 'webhook-timestamp must be unix seconds.' );
	}

	const candidates = parseSignatureHeader( signatureHeader );
	if ( typeof candidates === 'string' ) {
		return fail( 'malformed_signature', candidates );
	}
	if ( candidates.length === 0 ) {
		return fail( 'missing_signature', 'webhook-signature has no v1 signature.' );
	}

	const keys = input.secrets.map( decodeSecret ).filter( ( k ): k is Buffer => k !== null );
	if ( keys.length === 0 ) {
		return fail( 'invalid_signature', 'No usable Standard Webhooks secret (expected "whsec_<base64>").' );
	}

	const signedContent = Buffer.concat( [ Buffer.from( `${ id }.${ timestamp }.`, 'utf8' ), input.rawBody ] );
	let matched = false;
	// Every key x signature pair is checked (no early exit) so timing does not reveal which matched.
	for ( const key of keys ) {
		const expected = createHmac( 'sha256', key ).update( signedContent ).digest( 'base64' );
		for ( const candidate of candidates ) {
			matched = constantTimeEqual( candidate, expected ) || matched;
		}
	}
	if ( ! matched ) {
		return fail( 'invalid_signature', 'No webhook-signature entry matches the payload for any configured secret.' );
	}

	const signedAt = Number( timestamp );
	// Written as a negated "within" test so a NaN tolerance fails closed.
	if ( ! ( Math.abs( input.nowSeconds - signedAt ) <= input.toleranceSeconds ) ) {
		const direction = signedAt > input.nowSeconds ? 'in the future' : 'too old';
		return fail(
			'stale_timestamp',
			`webhook-timestamp is ${ direction } (outside the ${ input.toleranceSeconds }s tolerance).`
		);
	}

	return { ok: true, eventId: id, eventIdSource: 'header', signedAt };
}

/**
 * v1 signatures, [] when only other versions (e.g. v1a) are present, or what is wrong when
 * malformed. The message says what was expected and, for a v1 entry of the right shape but the
 * wrong size, how long it was; it never repeats the header (a sender's secret-derived value).
 */
function parseSignatureHeader( header: string ): string[] | string {
	const v1: string[] = [];
	for ( const entry of header.trim().split( / +/ ) ) {
		const match = ENTRY_PATTERN.exec( entry );
		if ( ! match ) {
			// Strict: a stray comma or junk entry (e.g. joined duplicate headers) is not ignored.
			return 'webhook-signature must be a space-separated list of entries such as "v1,<signature>", each a version, a comma and base64.';
		}
		const [ , version, value = '' ] = match;
		if ( version !== 'v1' ) {
			continue; // Other versions (v1a = ed25519) are not ours to check.
		}
		if ( ! V1_SIGNATURE_PATTERN.test( value ) ) {
			return `webhook-signature's v1 entry must be a base64 HMAC-SHA256: 44 characters ending in "=" (this one has ${ value.length }).`;
		}
		v1.push( value );
	}
	return v1;
}

/** Key bytes, or null when the secret is not strict base64 (a sender using the lib could not sign with it). */
function decodeSecret( secret: string ): Buffer | null {
	const encoded = secret.startsWith( SECRET_PREFIX ) ? secret.slice( SECRET_PREFIX.length ) : secret;
	if ( ! STRICT_BASE64.test( encoded ) ) {
		return null;
	}
	const key = Buffer.from( encoded, 'base64' );
	return key.length > 0 ? key : null;
}

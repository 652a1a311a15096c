/**
 * Stripe: stripe-signature = "t=<unix>,v1=<hex>[,v1=<hex>...][,v0=<hex>]",
 * HMAC-SHA256 hex over `${t}.${body}`, keyed with the whsec_... string as-is
 * (exactly as stripe-node does; it is NOT base64-decoded).
 */
import { createHash, createHmac } from 'node:crypto';
import { constantTimeEqual } from '../constant-time';
import type { VerifyInput, VerifyResult } from '../verify';
import { fail } from '../verify-failure';

// Strict item grammar: whitespace or empty items mean a mangled or joined header.
const ITEM_PATTERN = /^([a-z0-9]+)=([A-Za-z0-9_-]+)$/;
const TIMESTAMP_PATTERN = /^(0|[1-9][0-9]{0,11})$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/;
// Ids are stored and logged: bounded printable ASCII only.
const EVENT_ID_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function verifyStripe( input: VerifyInput ): VerifyResult {
	const header = input.headers[ 'stripe-signature' ];
	if ( header === undefined ) {
		return fail( 'missing_signature', 'Missing stripe-signature header.' );
	}
	const parsed = parseHeader( header );
	if ( typeof parsed === 'string' ) {
		return fail( 'malformed_signature', parsed );
	}
	if ( parsed.signatures.length === 0 ) {
		return fail( 'missing_signature', 'stripe-signature has no v1 signature.' );
	}

	const signedContent = Buffer.concat( [ Buffer.from( `${ parsed.timestamp }.`, 'utf8' ), input.rawBody ] );
	let matched = false;
	// No early exit: timing should not reveal which secret or entry matched.
	for ( const secret of input.secrets ) {
		const expected = createHmac( 'sha256', secret ).update( signedContent ).digest( 'hex' );
		for ( const candidate of parsed.signatures ) {
			matched = constantTimeEqual( candidate, expected ) || matched;
		}
	}
	if ( ! matched ) {
		return fail( 'invalid_signature', 'No v1 signature matches the payload for any configured secret.' );
	}

	const signedAt = Number( parsed.timestamp );
	// Stripe itself only bounds age; we also refuse the future. NaN tolerance fails closed.
	if ( ! ( Math.abs( input.nowSeconds - signedAt ) <= input.toleranceSeconds ) ) {
		const direction = signedAt > input.nowSeconds ? 'in the future' : 'too old';
		return fail(
			'stale_timestamp',
			`stripe-signature timestamp is ${ direction } (outside the ${ input.toleranceSeconds }s tolerance).`
		);
	}

	const payloadId = readPayloadId( input.rawBody );
	if ( payloadId !== null ) {
		return { ok: true, eventId: payloadId, eventIdSource: 'payload', signedAt };
	}
	const digest = createHash( 'sha256' ).update( signedContent ).digest( 'hex' );
	return { ok: true, eventId: `sha256:${ digest }`, eventIdSource: 'digest', signedAt };
}

/** Parsed header, or an error message when malformed. */
function parseHeader( header: string ): { timestamp: string; signatures: string[] } | string {
	let timestamp: string | undefined;
	const signatures: string[] = [];
	for ( const item of header.trim().split( ',' ) ) {
		const match = ITEM_PATTERN.exec( item );
		if ( ! match ) {
			return 'stripe-signature must be a comma-separated list of key=value items.';
		}
		const [ , key, value = '' ] = match;
		if ( key === 't' ) {
			// A second t= (e.g. two joined headers) would make the signed timestamp ambiguous.
			if ( timestamp !== undefined ) {
				return 'stripe-signature has more than one timestamp.';
			}
			if ( ! TIMESTAMP_PATTERN.test( value ) ) {
				return 'stripe-signature timestamp must be unix seconds.';
			}
			timestamp = value;
		} else if ( key === 'v1' ) {
			if ( ! HEX_SHA256.test( value ) ) {
				return 'stripe-signature v1 must be 64 lowercase hex characters.';
			}
			signatures.push( value );
		}
		// v0 (test-mode legacy) and unknown keys are ignored, as stripe-node does.
	}
	if ( timestamp === undefined ) {
		return 'stripe-signature has no timestamp.';
	}
	return { timestamp, signatures };
}

/** Stripe event id (evt_...) from the JSON body, or null when absent or unparseable. */
function readPayloadId( rawBody: Buffer ): string | null {
	try {
		const body: unknown = JSON.parse( rawBody.toString( 'utf8' ) );
		if ( body !== null && typeof body === 'object' && ! Array.isArray( body ) ) {
			const id = ( body as { id?: unknown } ).id;
			if ( typeof id === 'string' && EVENT_ID_PATTERN.test( id ) ) {
				return id;
			}
		}
	} catch {
		// Not JSON: fall back to the digest id.
	}
	return null;
}

/**
 * The schemes whose one header carries an HMAC-SHA256 of the raw body, keyed with the
 * secret as-is, and nothing else signed (GitHub, Shopify, WooCommerce). They differ only
 * in the header's name, how the MAC is written (hex or base64) and a prefix before it.
 *
 * With nothing but the body signed, the event id is the body's digest: a captured body
 * resent with fresh unsigned headers is still the same event. A provider's delivery id
 * header is unsigned, so it is kept for display only.
 */
import { createHash, createHmac } from 'node:crypto';
import { constantTimeEqual } from './constant-time';
import type { VerifyInput, VerifyResult } from './verify';
import { fail } from './verify-failure';

export interface BodyHmacScheme {
	/** The header carrying the MAC, lower-cased. */
	signatureHeader: string;
	encoding: 'hex' | 'base64';
	/** Written before the MAC, e.g. "sha256=". */
	prefix?: string;
	/** The provider's unsigned delivery id header, when it has a stable one. */
	deliveryIdHeader?: string;
}

// The exact spelling of a 32-byte MAC in each encoding, and how a message names it.
const MAC_SHAPES = {
	hex: { pattern: /^[0-9a-f]{64}$/, described: '64 lowercase hex characters' },
	// 32 bytes encode to exactly 43 base64 chars plus one '='.
	base64: { pattern: /^[A-Za-z0-9+/]{43}=$/, described: 'a base64 HMAC-SHA256 (44 characters)' },
} as const;
// Ids are stored and logged: bounded printable ASCII only, else none is shown.
const DELIVERY_ID_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function verifyBodyHmac( scheme: BodyHmacScheme, input: VerifyInput ): VerifyResult {
	const { signatureHeader: name, encoding, prefix = '' } = scheme;
	const header = input.headers[ name ];
	if ( header === undefined ) {
		return fail( 'missing_signature', `Missing ${ name } header.` );
	}
	const candidate = header.trim();
	const shape = MAC_SHAPES[ encoding ];
	if ( ! candidate.startsWith( prefix ) || ! shape.pattern.test( candidate.slice( prefix.length ) ) ) {
		const expected = prefix === '' ? shape.described : `"${ prefix }" followed by ${ shape.described }`;
		return fail( 'malformed_signature', `${ name } must be ${ expected }.` );
	}

	let matched = false;
	// No early exit: timing should not reveal which secret matched. The canonical text is
	// compared, not decoded bytes: decoding base64 would accept several spellings of one MAC.
	for ( const secret of input.secrets ) {
		const expected = prefix + createHmac( 'sha256', secret ).update( input.rawBody ).digest( encoding );
		matched = constantTimeEqual( candidate, expected ) || matched;
	}
	if ( ! matched ) {
		return fail( 'invalid_signature', `${ name } does not match the payload for any configured secret.` );
	}

	const digest = createHash( 'sha256' ).update( input.rawBody ).digest( 'hex' );
	const deliveryId =
		scheme.deliveryIdHeader === undefined ? undefined : input.headers[ scheme.deliveryIdHeader ]?.trim();
	return {
		ok: true,
		eventId: `sha256:${ digest }`,
		eventIdSource: 'digest',
		...( deliveryId !== undefined && DELIVERY_ID_PATTERN.test( deliveryId ) ? { deliveryId } : {} ),
	};
}

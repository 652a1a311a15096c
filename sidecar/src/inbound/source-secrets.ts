/**
 * Secrets of inbound sources: generated here, or given by the provider (Stripe,
 * GitHub, Shopify and WooCommerce issue their own), checked for a usable shape,
 * and only ever shown masked (sidecar/src/secret-mask.ts) after the answer that set them.
 */
import { randomBytes } from 'crypto';
import type { InboundScheme } from './verify';

const WHSEC = 'whsec_';
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// Printable ASCII plus any non-ASCII character; no control characters.
const NO_CONTROL = /^[^\x00-\x1f\x7f]+$/;

export const MIN_SECRET_LENGTH = 8;
export const MAX_SECRET_LENGTH = 1024;

/** A fresh secret in the shape the scheme's senders expect to be configured with. */
export function generateSourceSecret( scheme: InboundScheme ): string {
	switch ( scheme ) {
		case 'standard-webhooks':
			// whsec_ + base64 of 32 random bytes (the spec allows 24 to 64).
			return WHSEC + randomBytes( 32 ).toString( 'base64' );
		case 'stripe':
			// Stripe issues whsec_… strings and uses them as-is as the HMAC key.
			return WHSEC + randomBytes( 24 ).toString( 'hex' );
		default:
			// GitHub, Shopify, WooCommerce: an opaque string pasted into the provider's settings.
			return randomBytes( 32 ).toString( 'hex' );
	}
}

/** null when the secret can be used with the scheme, else why not (for a 400). */
export function secretProblem( scheme: InboundScheme, secret: string ): string | null {
	if ( secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH ) {
		return `must be ${ MIN_SECRET_LENGTH } to ${ MAX_SECRET_LENGTH } characters`;
	}
	if ( secret.trim() !== secret ) {
		return 'has leading or trailing white space (a copy-paste accident?)';
	}
	if ( ! NO_CONTROL.test( secret ) ) {
		return 'contains control characters';
	}
	if ( scheme === 'standard-webhooks' ) {
		const encoded = secret.startsWith( WHSEC ) ? secret.slice( WHSEC.length ) : secret;
		if ( ! STRICT_BASE64.test( encoded ) || Buffer.from( encoded, 'base64' ).length < 16 ) {
			return 'must be "whsec_" followed by the base64 of at least 16 bytes (Standard Webhooks)';
		}
	}
	return null;
}

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com).
 *
 * Signed content is `${id}.${timestamp}.${body}`, HMAC-SHA256 keyed with the
 * base64-decoded part of a `whsec_` secret. During rotation we sign with every
 * active secret so receivers that know either the old or the new one accept.
 */
import { createHmac, randomBytes } from 'crypto';
import { maskSecret } from '../secret-mask';
import { SIDECAR_VERSION } from '../version';

const PREFIX = 'whsec_';
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Sent with every delivery and notice: the package's version, the one /health reports. */
export const USER_AGENT = `wp-service-integration-sidecar/${ SIDECAR_VERSION }`;

export function generateSecret(): string {
	return PREFIX + randomBytes( 32 ).toString( 'base64' );
}

export function isValidSecret( secret: string ): boolean {
	if ( typeof secret !== 'string' || ! secret.startsWith( PREFIX ) ) {
		return false;
	}
	const encoded = secret.slice( PREFIX.length );
	// Buffer's base64 decoder is lenient, so check the alphabet/padding first
	// and require a canonical round trip (no stray bits in the last char).
	if ( encoded === '' || ! BASE64.test( encoded ) ) {
		return false;
	}
	const key = Buffer.from( encoded, 'base64' );
	return key.length >= MIN_KEY_BYTES && key.length <= MAX_KEY_BYTES && key.toString( 'base64' ) === encoded;
}

// Decoded keys of the secrets in use: every attempt signs with them, so validating and
// decoding once per secret rather than once per delivery. Bounded: cleared when full.
const decodedKeys = new Map< string, Buffer >();
const MAX_DECODED_KEYS = 1024;

function secretKey( secret: string ): Buffer {
	const cached = decodedKeys.get( secret );
	if ( cached ) {
		return cached;
	}
	if ( ! isValidSecret( secret ) ) {
		// Never echo the secret itself into an error that may be logged.
		throw new Error( `Invalid webhook secret ${ maskSecret( secret ) }` );
	}
	const key = Buffer.from( secret.slice( PREFIX.length ), 'base64' );
	if ( decodedKeys.size >= MAX_DECODED_KEYS ) {
		decodedKeys.clear();
	}
	decodedKeys.set( secret, key );
	return key;
}

export interface SignArgs {
	id: string;
	timestampSeconds: number;
	body: string;
	/** Active secrets, newest first. */
	secrets: string[];
}

/** Value for the `webhook-signature` header: `v1,<sig>` per secret, space-separated. */
export function signStandardWebhook( args: SignArgs ): string {
	const { id, timestampSeconds, body, secrets } = args;
	if ( id === '' ) {
		throw new Error( 'Webhook id must not be empty' );
	}
	if ( ! Number.isSafeInteger( timestampSeconds ) || timestampSeconds < 0 ) {
		throw new Error( 'Webhook timestamp must be a non-negative integer number of seconds' );
	}
	if ( secrets.length === 0 ) {
		throw new Error( 'At least one webhook secret is required' );
	}
	const content = `${ id }.${ timestampSeconds }.${ body }`;
	return secrets
		.map(
			( secret ) =>
				'v1,' + createHmac( 'sha256', secretKey( secret ) ).update( content, 'utf8' ).digest( 'base64' )
		)
		.join( ' ' );
}

export interface DeliveryHeaderArgs extends SignArgs {
	/** When set, also emit WooCommerce-style `x-wc-webhook-*` headers for legacy consumers. */
	wooCompatSecret?: string;
	topic?: string;
	sourceUrl?: string;
	/** WooCommerce's `X-WC-Webhook-ID` is the webhook (endpoint) id, not the message id. */
	wooWebhookId?: string | number;
}

export function buildDeliveryHeaders( args: DeliveryHeaderArgs ): Record< string, string > {
	const headers: Record< string, string > = {
		'content-type': 'application/json',
		'user-agent': USER_AGENT,
		'webhook-id': args.id,
		'webhook-timestamp': String( args.timestampSeconds ),
		'webhook-signature': signStandardWebhook( args ),
	};
	if ( args.wooCompatSecret !== undefined ) {
		if ( args.wooCompatSecret === '' ) {
			throw new Error( 'wooCompatSecret must not be empty' );
		}
		// WooCommerce: base64_encode(hash_hmac('sha256', $payload, $secret, true)),
		// keyed with the secret string as-is (no whsec_ decoding).
		headers[ 'x-wc-webhook-signature' ] = createHmac( 'sha256', args.wooCompatSecret )
			.update( args.body, 'utf8' )
			.digest( 'base64' );
		if ( args.topic !== undefined ) {
			headers[ 'x-wc-webhook-topic' ] = args.topic;
		}
		if ( args.sourceUrl !== undefined ) {
			headers[ 'x-wc-webhook-source' ] = args.sourceUrl;
		}
		if ( args.wooWebhookId !== undefined ) {
			headers[ 'x-wc-webhook-id' ] = String( args.wooWebhookId );
		}
	}
	for ( const [ name, value ] of Object.entries( headers ) ) {
		// Header injection guard: values come partly from site configuration.
		if ( /[\r\n\0]/.test( value ) ) {
			throw new Error( `Header ${ name } contains a control character` );
		}
	}
	return headers;
}

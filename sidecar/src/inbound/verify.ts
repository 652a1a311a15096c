/**
 * Inbound webhook signature verification: shared types and the dispatcher.
 * Pure (no I/O, injected clock) so every rule is unit-testable.
 */
import type { InboundScheme } from '../contracts/constants';
import { verifyGithub } from './schemes/github';
import { verifyShopify } from './schemes/shopify';
import { verifyStandardWebhooks } from './schemes/standard-webhooks';
import { verifyStripe } from './schemes/stripe';
import { verifyWoocommerce } from './schemes/woocommerce';

export type { InboundScheme };

export interface VerifyInput {
	rawBody: Buffer; // exact bytes received
	headers: Record< string, string | undefined >; // header names already lower-cased
	secrets: string[]; // 1 or 2 secrets (2 during rotation); try each
	toleranceSeconds: number; // e.g. 300; applies to schemes that carry a timestamp
	nowSeconds: number; // injected clock (unix seconds)
}

export type VerifyFailureCode =
	'missing_signature' | 'malformed_signature' | 'invalid_signature' | 'stale_timestamp' | 'missing_event_id';

export type VerifyResult =
	| {
			ok: true;
			/** What deduplication keys on: signed material only, so a replay cannot change it. */
			eventId: string;
			eventIdSource: 'header' | 'payload' | 'digest';
			/** The provider's own delivery id when it is not signed (GitHub, Shopify): shown, never trusted. */
			deliveryId?: string;
			signedAt?: number;
	  }
	| { ok: false; code: VerifyFailureCode; message: string };

type SchemeVerifier = ( input: VerifyInput ) => VerifyResult;

const VERIFIERS: Record< InboundScheme, SchemeVerifier > = {
	'standard-webhooks': verifyStandardWebhooks,
	stripe: verifyStripe,
	github: verifyGithub,
	shopify: verifyShopify,
	woocommerce: verifyWoocommerce,
};

/**
 * Never throws: anything unexpected (unknown scheme from config, a body that
 * was parsed instead of kept raw, no usable secret) fails closed.
 */
export function verifyInbound( scheme: InboundScheme, input: VerifyInput ): VerifyResult {
	// Own-property lookup so a config value like "constructor" is not a verifier.
	const verifier = Object.prototype.hasOwnProperty.call( VERIFIERS, scheme ) ? VERIFIERS[ scheme ] : undefined;
	if ( ! verifier ) {
		return { ok: false, code: 'invalid_signature', message: 'Unsupported inbound signature scheme.' };
	}
	if ( ! Buffer.isBuffer( input.rawBody ) ) {
		// A parsed JSON body can never be verified: the signature covers exact bytes.
		return { ok: false, code: 'invalid_signature', message: 'Raw request body is not available as bytes.' };
	}
	// Empty secrets are skipped: an empty HMAC key would be forgeable by anyone.
	const secrets = Array.isArray( input.secrets )
		? input.secrets.filter( ( s ): s is string => typeof s === 'string' && s.length > 0 )
		: [];
	if ( secrets.length === 0 ) {
		return { ok: false, code: 'invalid_signature', message: 'No signing secret is configured for this endpoint.' };
	}
	return verifier( { ...input, headers: input.headers ?? {}, secrets } );
}

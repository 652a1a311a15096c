/**
 * WooCommerce: x-wc-webhook-signature = base64 HMAC-SHA256 of the body, keyed
 * with the webhook secret as-is. No timestamp, and x-wc-webhook-delivery-id
 * changes on every resend, so the body digest is the only stable event id
 * (and no delivery id is shown).
 */
import { verifyBodyHmac } from '../body-hmac';
import type { VerifyInput, VerifyResult } from '../verify';

export function verifyWoocommerce( input: VerifyInput ): VerifyResult {
	return verifyBodyHmac( { signatureHeader: 'x-wc-webhook-signature', encoding: 'base64' }, input );
}

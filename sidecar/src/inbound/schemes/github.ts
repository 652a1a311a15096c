/**
 * GitHub: x-hub-signature-256 = "sha256=<hex>" HMAC-SHA256 of the body with
 * the secret as-is. No timestamp. The legacy SHA-1 x-hub-signature is not accepted.
 *
 * x-github-delivery is not signed: keyed on it, a captured body resent with a fresh
 * id would be a new event every time. The event id is the body digest (what the
 * signature covers); the delivery id is kept for display only.
 */
import { verifyBodyHmac } from '../body-hmac';
import type { VerifyInput, VerifyResult } from '../verify';

export function verifyGithub( input: VerifyInput ): VerifyResult {
	return verifyBodyHmac(
		{
			signatureHeader: 'x-hub-signature-256',
			encoding: 'hex',
			prefix: 'sha256=',
			deliveryIdHeader: 'x-github-delivery',
		},
		input
	);
}

/**
 * The one way a secret is shown after the answer that set it, for outbound endpoints
 * and inbound sources alike: `whsec_…wxyz` (the prefix, if any, and the last 4 characters).
 * Enough to tell two secrets apart, never enough to use one.
 */
const PREFIX = 'whsec_';

/** Below this many characters after the prefix, even 4 would reveal too much: none are shown. */
const MIN_REVEALING_LENGTH = 16;

export function maskSecret( secret: string ): string {
	const prefix = secret.startsWith( PREFIX ) ? PREFIX : '';
	const rest = secret.slice( prefix.length );
	return rest.length < MIN_REVEALING_LENGTH ? `${ prefix }…` : `${ prefix }…${ rest.slice( -4 ) }`;
}

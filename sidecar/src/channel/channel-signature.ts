import crypto from 'crypto';

/**
 * The PHP <-> sidecar channel signature. Must stay byte-for-byte identical to
 * plugin/includes/Sidecar/class-channel-signature.php.
 */
export const CHANNEL_HEADERS = {
	timestamp: 'x-si-timestamp',
	requestId: 'x-si-request-id',
	signature: 'x-si-signature',
} as const;

export const CHANNEL_TOLERANCE_SECONDS = 300;

function hmac( key: string, content: Buffer ): string {
	return 'v1=' + crypto.createHmac( 'sha256', key ).update( content ).digest( 'hex' );
}

export function signChannelRequest(
	key: string,
	timestamp: number,
	requestId: string,
	method: string,
	path: string,
	body: Buffer
): string {
	return hmac(
		key,
		Buffer.concat( [
			Buffer.from( `req.${ timestamp }.${ requestId }.${ method.toUpperCase() }.${ path }.` ),
			body,
		] )
	);
}

export function signChannelResponse(
	key: string,
	timestamp: number,
	requestId: string,
	status: number,
	body: Buffer
): string {
	return hmac( key, Buffer.concat( [ Buffer.from( `res.${ timestamp }.${ requestId }.${ status }.` ), body ] ) );
}

/** Constant-time comparison that does not throw on length mismatch. */
export function signaturesMatch( expected: string, received: string ): boolean {
	const a = Buffer.from( expected );
	const b = Buffer.from( received );
	return a.length === b.length && crypto.timingSafeEqual( a, b );
}

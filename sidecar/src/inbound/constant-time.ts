import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time equality for secrets-derived strings or bytes.
 *
 * crypto.timingSafeEqual throws when lengths differ, and an early `false` on a
 * length mismatch would itself be a (small) timing signal. Both sides are
 * hashed to a fixed 32 bytes first, so the comparison never throws and its
 * cost does not depend on where, or whether, the inputs differ. The final
 * length check only rules out the (practically impossible) hash collision.
 */
export function constantTimeEqual( a: string | Uint8Array, b: string | Uint8Array ): boolean {
	const left = toBytes( a );
	const right = toBytes( b );
	const same = timingSafeEqual( sha256( left ), sha256( right ) );
	return same && left.length === right.length;
}

function toBytes( value: string | Uint8Array ): Buffer {
	return typeof value === 'string' ? Buffer.from( value, 'utf8' ) : Buffer.from( value );
}

function sha256( bytes: Buffer ): Buffer {
	return createHash( 'sha256' ).update( bytes ).digest();
}

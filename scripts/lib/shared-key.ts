import crypto from 'crypto';
import fs from 'fs';
import path from 'path';

/**
 * The PHP <-> sidecar shared key: SERVICE_INTEGRATION_SIDECAR_KEY when set, else the
 * key already in `file`, else a new random one. The file (0600) always ends up
 * holding it, because the sidecar reads its key from there.
 */
export function ensureSharedKey( file: string ): string {
	const existing = fs.existsSync( file ) ? fs.readFileSync( file, 'utf8' ).trim() : '';
	const key =
		process.env.SERVICE_INTEGRATION_SIDECAR_KEY || existing || crypto.randomBytes( 32 ).toString( 'base64url' );
	if ( key !== existing ) {
		fs.mkdirSync( path.dirname( file ), { recursive: true } );
		fs.writeFileSync( file, key + '\n', { mode: 0o600 } );
	}
	return key;
}

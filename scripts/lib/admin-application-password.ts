import fs from 'fs';
import path from 'path';
import { createApplicationPassword, loginCookies } from './wp-login';

/** The local site's administrator, as `npm start` creates it. */
export const LOCAL_ADMIN = { login: 'admin', password: 'password' } as const;

/**
 * An administrator application password for the local site, for curl and scripts (the admin
 * routes, WooCommerce's /wc/v3). Kept in `file` (mode 0600) and reused while the site
 * still accepts it; minted anew, the way wp-admin's profile screen does (wp-login.php, then
 * the REST route with the cookie and a nonce), when the file is missing or the site no longer
 * knows it (a fresh database).
 */
export async function ensureAdminApplicationPassword( siteUrl: string, file: string ): Promise< string > {
	const kept = fs.existsSync( file ) ? fs.readFileSync( file, 'utf8' ).trim() : '';
	if ( kept && ( await accepted( siteUrl, kept ) ) ) {
		return kept;
	}
	const cookie = await loginCookies( siteUrl, LOCAL_ADMIN.login, LOCAL_ADMIN.password );
	const password = await createApplicationPassword( siteUrl, cookie, 'local development (npm start)' );
	fs.mkdirSync( path.dirname( file ), { recursive: true } );
	fs.writeFileSync( file, password + '\n', { mode: 0o600 } );
	return password;
}

async function accepted( siteUrl: string, password: string ): Promise< boolean > {
	const authorization = 'Basic ' + Buffer.from( `${ LOCAL_ADMIN.login }:${ password }` ).toString( 'base64' );
	const response = await fetch( `${ siteUrl }/wp-json/wp/v2/users/me?context=edit`, { headers: { authorization } } );
	await response.arrayBuffer();
	return response.status === 200;
}

import { PLAYGROUND_COOKIE } from './wp-env';

/**
 * Logs in through wp-login.php like a person would, then mints an application
 * password for the administrator over the REST API with the cookie + nonce, the
 * same way wp-admin's profile screen does. No test back door into WordPress.
 */
export async function loginCookies( siteUrl: string, username: string, password: string ): Promise< string > {
	const response = await fetch( `${ siteUrl }/wp-login.php`, {
		method: 'POST',
		redirect: 'manual',
		headers: {
			'content-type': 'application/x-www-form-urlencoded',
			cookie: `${ PLAYGROUND_COOKIE }; wordpress_test_cookie=WP%20Cookie%20check`,
		},
		body: new URLSearchParams( {
			log: username,
			pwd: password,
			testcookie: '1',
			'wp-submit': 'Log In',
		} ).toString(),
	} );
	const cookies = response.headers
		.getSetCookie()
		.map( ( line ) => line.split( ';' )[ 0 ] as string )
		.filter( ( pair ) => pair.startsWith( 'wordpress_' ) && ! pair.endsWith( '=deleted' ) );
	if ( ! cookies.some( ( pair ) => pair.startsWith( 'wordpress_logged_in_' ) ) ) {
		throw new Error( `Logging in as ${ username } failed (HTTP ${ response.status })` );
	}
	return [ PLAYGROUND_COOKIE, ...cookies ].join( '; ' );
}

export async function restNonce( siteUrl: string, cookie: string ): Promise< string > {
	const response = await fetch( `${ siteUrl }/wp-admin/admin-ajax.php?action=rest-nonce`, { headers: { cookie } } );
	const nonce = ( await response.text() ).trim();
	if ( ! /^[a-f0-9]{10}$/.test( nonce ) ) {
		throw new Error( `Could not get a REST nonce (HTTP ${ response.status })` );
	}
	return nonce;
}

export async function createApplicationPassword( siteUrl: string, cookie: string, name: string ): Promise< string > {
	const nonce = await restNonce( siteUrl, cookie );
	const response = await fetch( `${ siteUrl }/wp-json/wp/v2/users/me/application-passwords`, {
		method: 'POST',
		headers: { cookie, 'x-wp-nonce': nonce, 'content-type': 'application/json' },
		body: JSON.stringify( { name } ),
	} );
	const body = ( await response.json() ) as { password?: string; message?: string };
	if ( response.status !== 201 || ! body.password ) {
		throw new Error(
			`Could not create an application password (HTTP ${ response.status }: ${ body.message ?? '' })`
		);
	}
	return body.password;
}

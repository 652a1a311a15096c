import { loginCookies, restNonce } from '../../../scripts/lib/wp-login';
import { readState } from './environment';
import { RestClient } from '../../../scripts/lib/rest-client';

/**
 * Switches a plugin on or off as the administrator with a cookie + nonce (works even
 * while a test plugin has turned Application Passwords off).
 */
export async function cookieAdminClient(): Promise< RestClient > {
	const { siteUrl } = readState();
	const cookie = await loginCookies( siteUrl, 'admin', 'password' );
	return new RestClient( siteUrl, { cookie, nonce: await restNonce( siteUrl, cookie ) } );
}

export async function setPluginActive( plugin: string, active: boolean ): Promise< void > {
	const admin = await cookieAdminClient();
	const response = await admin.post< { status: string } >( `/wp/v2/plugins/${ plugin }`, {
		status: active ? 'active' : 'inactive',
	} );
	if ( response.status !== 200 || response.body.status !== ( active ? 'active' : 'inactive' ) ) {
		throw new Error(
			`Could not set ${ plugin } ${ active ? 'active' : 'inactive' }: HTTP ${ response.status } ${ JSON.stringify( response.body ) }`
		);
	}
}

/** Runs `fn` with a test plugin active, and always switches it off again. */
export async function withPluginActive< T >( plugin: string, fn: () => Promise< T > ): Promise< T > {
	await setPluginActive( plugin, true );
	try {
		return await fn();
	} finally {
		await setPluginActive( plugin, false );
	}
}

import { readState } from './environment';
import { RestClient } from '../../../scripts/lib/rest-client';

/** Ready-made clients for the common identities of the suite. */
export function adminClient(): RestClient {
	const state = readState();
	return new RestClient( state.siteUrl, {
		username: state.admin.username,
		password: state.admin.applicationPassword,
	} );
}

export function anonymousClient(): RestClient {
	return new RestClient( readState().siteUrl, null );
}

import { adminClient } from './clients';
import { readState } from './environment';
import { RestClient } from '../../../scripts/lib/rest-client';

export interface ServiceAccount {
	username: string;
	password: string;
	uuid: string;
	client: RestClient;
}

/**
 * Provisions the service account the way a site owner does (administrator REST
 * routes), then returns an automation client authenticated with a fresh
 * application password of that account.
 */
export async function provisionServiceAccount( passwordName = 'e2e' ): Promise< ServiceAccount > {
	const admin = adminClient();
	const account = await admin.post< { username: string } >( '/service-integration/v1/service-account' );
	if ( account.status !== 201 && account.status !== 200 ) {
		throw new Error(
			`Could not create the service account: HTTP ${ account.status } ${ JSON.stringify( account.body ) }`
		);
	}
	const created = await admin.post< { username: string; password: string; uuid: string } >(
		'/service-integration/v1/service-account/application-passwords',
		{ name: passwordName }
	);
	if ( created.status !== 201 ) {
		throw new Error(
			`Could not create an application password: HTTP ${ created.status } ${ JSON.stringify( created.body ) }`
		);
	}
	const { username, password, uuid } = created.body;
	return { username, password, uuid, client: new RestClient( readState().siteUrl, { username, password } ) };
}

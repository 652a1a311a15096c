import crypto from 'crypto';
import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import { loginCookies } from '../../../scripts/lib/wp-login';
import { waitUntil } from '../../support/wait-until';
import { adminClient } from '../support/clients';
import { signedHeaders } from '../support/channel';
import { readState } from '../support/environment';
import { setPluginActive } from '../support/plugins';

interface Endpoint {
	id: string;
	url: string;
}

interface Mail {
	to: string | string[];
	subject: string;
	message: string;
}

const CALLBACK_ROUTE = '/service-integration/v1/sidecar/callback';
const MAIL_RECORDER = 'mail-recorder/mail-recorder';

/**
 * Deleting an endpoint makes the sidecar send WordPress an endpoint.deleted notice, which takes
 * the endpoint's admin notice away. A disabled notice that still reaches WordPress after it (one
 * already in flight, or from a sidecar restored from a backup) must not bring back the admin
 * notice of an endpoint that no longer exists, nor mail the site owner about it; WordPress still
 * acknowledges it (202), so the sidecar stops sending it.
 */
describe( 'endpoint.disabled notices that arrive after the endpoint was deleted', () => {
	const { siteUrl, sharedKey } = readState();
	let adminCookie: string;

	beforeAll( async () => {
		await setPluginActive( MAIL_RECORDER, true );
		adminCookie = await loginCookies( siteUrl, 'admin', 'password' );
	} );

	afterAll( async () => {
		await setPluginActive( MAIL_RECORDER, false );
	} );

	beforeEach( async () => {
		expect( ( await adminClient().request( { method: 'DELETE', path: '/mail-recorder/v1/mails' } ) ).status ).toBe(
			200
		);
	} );

	/** What the sidecar posts: signed with the shared key over the REST route. */
	const deliverNotice = async ( endpoint: Endpoint, reason: string ) => {
		const body = JSON.stringify( {
			type: 'endpoint.disabled',
			endpoint_id: endpoint.id,
			url: endpoint.url,
			reason,
		} );
		const response = await fetch( `${ siteUrl }/wp-json${ CALLBACK_ROUTE }`, {
			method: 'POST',
			headers: {
				cookie: PLAYGROUND_COOKIE,
				'content-type': 'application/json',
				...signedHeaders( sharedKey, 'POST', CALLBACK_ROUTE, body ),
			},
			body,
		} );
		return response.status;
	};

	/** The admin notices the site owner sees on the dashboard, as the URLs they name. */
	const noticesShown = async (): Promise< string[] > => {
		const response = await fetch( `${ siteUrl }/wp-admin/index.php`, {
			headers: { cookie: adminCookie },
			redirect: 'manual',
		} );
		expect( response.status ).toBe( 200 );
		const html = await response.text();
		return [
			...html.matchAll(
				/class="notice notice-error service-integration-endpoint-disabled"><p>.*?<code>([^<]*)<\/code>/g
			),
		].map( ( match ) => match[ 1 ] as string );
	};

	const mails = async (): Promise< Mail[] > => {
		const response = await adminClient().get< Mail[] >( '/mail-recorder/v1/mails' );
		expect( response.status ).toBe( 200 );
		return response.body;
	};

	const createEndpoint = async (): Promise< Endpoint > => {
		const url = `https://receiver.example/notices-after-delete/${ crypto.randomUUID() }`;
		const created = await adminClient().post< Endpoint >( '/service-integration/v1/webhooks/endpoints', {
			url,
			event_types: [ 'order.paid' ],
			description: 'notices after delete',
		} );
		expect( created.status ).toBe( 201 );
		return { id: created.body.id, url: created.body.url };
	};

	const deleteEndpoint = async ( endpoint: Endpoint ) => {
		const deleted = await adminClient().request( {
			method: 'DELETE',
			path: `/service-integration/v1/webhooks/endpoints/${ endpoint.id }`,
		} );
		expect( deleted.status ).toBe( 200 );
	};

	it( 'a notice for a live endpoint is shown and mailed once; after the DELETE a retried copy brings back neither', async () => {
		const endpoint = await createEndpoint();

		expect( await deliverNotice( endpoint, 'the endpoint answered 410 Gone' ) ).toBe( 202 );
		expect( await noticesShown() ).toContain( endpoint.url );
		expect( ( await mails() ).filter( ( mail ) => mail.message.includes( endpoint.url ) ) ).toHaveLength( 1 );

		await deleteEndpoint( endpoint );
		// The sidecar's endpoint.deleted notice reaches WordPress after the DELETE.
		await waitUntil(
			async () => ! ( await noticesShown() ).includes( endpoint.url ),
			60_000,
			'the admin notice to go',
			1000
		);

		// A copy of the disabled notice, arriving after the deletion.
		expect( await deliverNotice( endpoint, 'the endpoint answered 410 Gone' ) ).toBe( 202 );
		expect( await noticesShown() ).not.toContain( endpoint.url );
		expect( ( await mails() ).filter( ( mail ) => mail.message.includes( endpoint.url ) ) ).toHaveLength( 1 );
	} );

	it( 'a notice that first arrives after the DELETE is acknowledged, not shown and not mailed', async () => {
		const endpoint = await createEndpoint();
		// The sidecar sends its notices one at a time, in order: once the notice of an endpoint
		// deleted after this one is gone, this one's endpoint.deleted notice has arrived too.
		const marker = await createEndpoint();
		expect( await deliverNotice( marker, 'the endpoint answered 410 Gone' ) ).toBe( 202 );
		await deleteEndpoint( endpoint );
		await deleteEndpoint( marker );
		await waitUntil(
			async () => ! ( await noticesShown() ).includes( marker.url ),
			60_000,
			"the marker's admin notice to go",
			1000
		);
		expect( await adminClient().request( { method: 'DELETE', path: '/mail-recorder/v1/mails' } ) ).toMatchObject( {
			status: 200,
		} );

		expect( await deliverNotice( endpoint, 'failing without a success since yesterday' ) ).toBe( 202 );
		expect( await noticesShown() ).not.toContain( endpoint.url );
		expect( await mails() ).toEqual( [] );
	} );

	it( 'other endpoints are not affected: a notice for one that still exists is shown and mailed', async () => {
		const deleted = await createEndpoint();
		const live = await createEndpoint();
		await deleteEndpoint( deleted );

		expect( await deliverNotice( live, 'the endpoint answered 410 Gone' ) ).toBe( 202 );
		expect( await noticesShown() ).toContain( live.url );
		expect(
			( await mails() ).filter( ( mail ) => mail.message.includes( live.url ) ).map( ( mail ) => mail.subject )
		).toEqual( [ expect.stringMatching( /^\[.+\] A webhook endpoint was disabled$/ ) ] );
		await deleteEndpoint( live );
	} );
} );

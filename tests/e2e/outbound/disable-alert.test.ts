import crypto from 'crypto';
import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import { loginCookies } from '../../../scripts/lib/wp-login';
import { startReceiver, type ReceivedRequest, type Receiver } from '../../sidecar/support/receiver';
import { waitUntil } from '../../support/wait-until';
import { signedHeaders } from '../support/channel';
import { adminClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { readState } from '../support/environment';
import { setPluginActive } from '../support/plugins';

interface Endpoint {
	id: string;
	url: string;
	status: string;
}

interface Mail {
	to: string | string[];
	subject: string;
	message: string;
}

const MAIL_RECORDER = 'mail-recorder/mail-recorder';
const RECIPIENTS_FILTER = 'disable-alert-recipients/disable-alert-recipients';
const CALLBACK_ROUTE = '/service-integration/v1/sidecar/callback';

async function mailsAbout( url: string ): Promise< Mail[] > {
	const response = await adminClient().get< Mail[] >( '/mail-recorder/v1/mails' );
	expect( response.status ).toBe( 200 );
	return response.body.filter( ( mail ) => mail.message.includes( url ) );
}

const recipients = ( mail: Mail ) => ( Array.isArray( mail.to ) ? mail.to : [ mail.to ] ).slice().sort();

/** "Failing since: 2026-11-24 16:40:05 UTC" → epoch ms. */
function mailedTime( message: string, label: string ): number {
	const match = new RegExp( `^${ label }: (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d) UTC`, 'm' ).exec( message );
	if ( ! match ) {
		throw new Error( `no "${ label }" line in the mail:\n${ message }` );
	}
	return Date.parse( `${ ( match[ 1 ] as string ).replace( ' ', 'T' ) }Z` );
}

/**
 * When the sidecar disables an endpoint, the site owner gets one email that says what failed,
 * since when, the last error and where to act; site code chooses the recipients or turns it off.
 */
describe( 'the email about a disabled endpoint', () => {
	const { siteUrl, sharedKey } = readState();
	let adminEmail: string;

	beforeAll( async () => {
		await setPluginActive( MAIL_RECORDER, true );
		adminEmail = ( await adminClient().get< { email: string } >( '/wp/v2/settings' ) ).body.email;
		expect( adminEmail ).toContain( '@' );
	} );

	afterAll( async () => {
		await setPluginActive( MAIL_RECORDER, false );
	} );

	it( 'names the endpoint, the reason, when it started failing, its last error and the admin page, once', async () => {
		// The first delivery fails with a 500 (the streak begins), the retry gets 410 Gone (disabled).
		let calls = 0;
		const receiver: Receiver = await startReceiver( ( _request, res ) => {
			calls++;
			void ( calls === 1
				? res.writeHead( 500 ).end( 'upstream down' )
				: res.writeHead( 410 ).end( 'this hook is gone' ) );
		} );
		const url = `${ receiver.url }/alert/${ crypto.randomUUID() }`;
		const created = await adminClient().post< Endpoint >( '/service-integration/v1/webhooks/endpoints', {
			url,
			event_types: [ 'order.created' ],
		} );
		expect( created.status ).toBe( 201 );
		try {
			const shop = commerce();
			const [ product ] = await shop.createProducts( [
				{ name: 'Beech stool', sku: `STOOL-${ Date.now() }`, price: '80.00' },
			] );
			await shop.createOrders( [
				{ status: 'pending', line_items: [ { product_id: ( product as { id: number } ).id, quantity: 1 } ] },
			] );

			await receiver.waitFor( ( requests ) => requests.length >= 2, 60_000 );
			// The notice goes out after the disable commits, and again until WordPress acknowledges it.
			let mails: Mail[] = [];
			await waitUntil( async () => ( mails = await mailsAbout( url ) ).length > 0, 60_000, 'the alert mail' );
			const [ mail ] = mails as [ Mail ];

			expect( recipients( mail ) ).toEqual( [ adminEmail ] );
			expect( mail.subject ).toMatch( /^\[.+\] A webhook endpoint was disabled$/ );
			expect( mail.message ).toContain( `The sidecar disabled the webhook endpoint ${ url }.` );
			expect( mail.message ).toMatch( /^Reason: .*410/m );
			expect( mail.message ).toMatch(
				/^Last error: HTTP 410: this hook is gone \(at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/m
			);
			// The streak began with the first (500) attempt, the last error is the second's.
			const [ first, second ] = receiver.requests as [ ReceivedRequest, ReceivedRequest, ...ReceivedRequest[] ];
			expect( Math.abs( mailedTime( mail.message, 'Failing since' ) - first.at ) ).toBeLessThan( 2_000 );
			expect( mail.message ).toContain(
				`${ siteUrl }/wp-admin/admin.php?page=service-integration&tab=endpoints`
			);
			const lastErrorAt = Date.parse(
				`${ /\(at (\S+ \S+) UTC\)/.exec( mail.message )?.[ 1 ]?.replace( ' ', 'T' ) }Z`
			);
			expect( Math.abs( lastErrorAt - second.at ) ).toBeLessThan( 2_000 );

			// The endpoint's own view agrees with what the mail says.
			const endpoint = await adminClient().get< Endpoint & { disabled_reason: string } >(
				`/service-integration/v1/webhooks/endpoints/${ created.body.id }`
			);
			expect( endpoint.body.status ).toBe( 'disabled' );
			expect( mail.message ).toContain( `Reason: ${ endpoint.body.disabled_reason }` );

			// A retried notice (the sidecar resends until acknowledged) mails nobody again.
			const again = await sendNotice( { id: created.body.id, url }, 'the endpoint answered 410 Gone' );
			expect( again ).toBe( 202 );
			expect( await mailsAbout( url ) ).toHaveLength( 1 );
		} finally {
			await adminClient().request( {
				method: 'DELETE',
				path: `/service-integration/v1/webhooks/endpoints/${ created.body.id }`,
			} );
			await receiver.close();
		}
	} );

	it( 'goes to the recipients a filter chooses, or to nobody', async () => {
		await setPluginActive( RECIPIENTS_FILTER, true );
		const endpoints: Endpoint[] = [];
		try {
			for ( const kind of [ 'loud', 'quiet' ] ) {
				const url = `https://receiver.example/${ kind }/${ crypto.randomUUID() }`;
				const created = await adminClient().post< Endpoint >( '/service-integration/v1/webhooks/endpoints', {
					url,
					event_types: [ 'order.paid' ],
				} );
				expect( created.status ).toBe( 201 );
				endpoints.push( created.body );
				expect( await sendNotice( created.body, 'failing without a success since yesterday' ) ).toBe( 202 );
			}
			const [ loud, quiet ] = endpoints as [ Endpoint, Endpoint ];
			const loudMails = await mailsAbout( loud.url );
			expect( loudMails.map( recipients ) ).toEqual( [ [ adminEmail, 'ops@example.com' ].sort() ] );
			expect( await mailsAbout( quiet.url ) ).toEqual( [] );
			// Turned off, the mail only: the admin notice still shows.
			const dashboard = await fetch( `${ siteUrl }/wp-admin/index.php`, {
				headers: { cookie: await loginCookies( siteUrl, 'admin', 'password' ) },
			} );
			const html = await dashboard.text();
			expect( html ).toContain( quiet.url );
			// The notice says the events are held, and how to send them.
			expect( html ).toContain( 'Its events are kept, none is lost' );
			expect( html ).toContain( `<code>wp service-integration endpoint enable ${ quiet.id }</code>` );
		} finally {
			await setPluginActive( RECIPIENTS_FILTER, false );
			for ( const endpoint of endpoints ) {
				await adminClient().request( {
					method: 'DELETE',
					path: `/service-integration/v1/webhooks/endpoints/${ endpoint.id }`,
				} );
			}
		}
	} );

	it( 'takes a notice without the failure details (a sidecar of an earlier version) and still mails it', async () => {
		const url = `https://receiver.example/older-sidecar/${ crypto.randomUUID() }`;
		const created = await adminClient().post< Endpoint >( '/service-integration/v1/webhooks/endpoints', {
			url,
			event_types: [ 'order.paid' ],
		} );
		expect( created.status ).toBe( 201 );
		try {
			expect(
				await sendNotice( created.body, 'the endpoint answered 410 Gone', {
					failing_since: 'not a time',
					last_error: [ 'not', 'an', 'object' ],
				} )
			).toBe( 202 );
			const [ mail ] = ( await mailsAbout( url ) ) as [ Mail ];
			expect( mail.message ).toContain( 'Reason: the endpoint answered 410 Gone' );
			expect( mail.message ).not.toMatch( /^(Failing since|Last error):/m );
		} finally {
			await adminClient().request( {
				method: 'DELETE',
				path: `/service-integration/v1/webhooks/endpoints/${ created.body.id }`,
			} );
		}
	} );

	/** What the sidecar posts: a signed endpoint.disabled notice over the callback route. */
	async function sendNotice(
		endpoint: Pick< Endpoint, 'id' | 'url' >,
		reason: string,
		extra: Record< string, unknown > = {}
	): Promise< number > {
		const body = JSON.stringify( {
			type: 'endpoint.disabled',
			endpoint_id: endpoint.id,
			url: endpoint.url,
			reason,
			...extra,
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
	}
} );

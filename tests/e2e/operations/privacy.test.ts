import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import { loginCookies } from '../../../scripts/lib/wp-login';
import { redactionMarker } from '../../../sidecar/src/privacy/personal-data';
import { signStandardWebhook } from '../../support/inbound-signers';
import { startReceiver, type Receiver } from '../../sidecar/support/receiver';
import { waitUntil } from '../../support/wait-until';
import { adminClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { readState } from '../support/environment';
import { ADMIN, createSource, eventsFor, sendWebhook } from '../support/inbound';
import { setPluginActive } from '../support/plugins';
import { startSidecar, stopSidecar } from '../support/sidecar-control';

const PROBE = 'privacy-probe/privacy-probe';
const SOURCE = 'privacy-e2e';

interface ExportItem {
	group_id: string;
	item_id: string;
	data: Array< { name: string; value: string } >;
}

interface AjaxAnswer< T > {
	success: boolean;
	data: T;
}

interface ErasePage {
	items_removed: boolean;
	items_retained: boolean;
	messages: string[];
	done: boolean;
}

interface SidecarEventView {
	event: {
		id: string;
		type: string;
		data: { order: { id: number; customer: { first_name: string; last_name: string; email: string } } };
	};
	deliveries: Array< { endpoint_id: string; attempts: Array< { response_excerpt: string | null } > } >;
}

/** A customer with paid orders delivered by the sidecar (whose receiver echoes the email) and an inbound webhook naming them. */
interface Customer {
	email: string;
	/** As the orders and the webhook spell it: another case than the request's. */
	storedEmail: string;
	lastName: string;
	orderIds: number[];
	/** The paid events' ids (the sidecar's events, delivered to the receiver). */
	paidEventIds: string[];
	inboundEventId: string;
	inboundRowId: number;
	inboundWebhook: { body: string; headers: Record< string, string > };
}

let cookie = '';
let receiver: Receiver;
let endpointId = '';
let sourceSecret = '';

async function seedCustomer( label: string ): Promise< Customer > {
	const stamp = `${ Date.now() }${ Math.floor( Math.random() * 1000 ) }`;
	const email = `${ label }.${ stamp }@example.com`;
	const storedEmail = `${ label.toUpperCase() }.${ stamp }@Example.com`;
	const lastName = `Privacy${ stamp }`;
	const shop = commerce();
	const [ product ] = await shop.createProducts( [
		{ name: 'Walnut stool', sku: `STOOL-${ stamp }`, price: '45.00' },
	] );
	const billing = { first_name: 'Ada', last_name: lastName, email: storedEmail, city: 'London', country: 'GB' };
	const line = [ { product_id: ( product as { id: number } ).id, quantity: 1 } ];
	const orderIds = await shop.createOrders( [
		{ status: 'processing', set_paid: true, billing, line_items: line },
		{ status: 'processing', set_paid: true, billing, line_items: line },
	] );
	const flushed = await adminClient().post< { pending: number; error: string | null } >(
		'/service-integration/v1/webhooks/outbox'
	);
	expect( flushed.body ).toMatchObject( { error: null, pending: 0 } );
	const ofOrder = ( id: number ) => ( body: string ) => body.includes( `"id":${ id },` );
	await receiver.waitFor(
		( requests ) => orderIds.every( ( id ) => requests.some( ( r ) => ofOrder( id )( r.body ) ) ),
		30_000
	);
	const paidEventIds = orderIds.map(
		( id ) => receiver.requests.find( ( r ) => ofOrder( id )( r.body ) )?.headers[ 'webhook-id' ] as string
	);
	// The sidecar records each attempt (with the receiver's answer) once the answer is in.
	await waitUntil(
		async () => {
			for ( const eventId of paidEventIds ) {
				const view = await adminClient().get< SidecarEventView >(
					`/service-integration/v1/webhooks/events/${ eventId }`
				);
				if (
					view.status !== 200 ||
					! view.body.deliveries.some( ( d ) => d.attempts.some( ( a ) => a.response_excerpt !== null ) )
				) {
					return false;
				}
			}
			return true;
		},
		20_000,
		'attempts recorded'
	);

	const inboundEventId = `msg_privacy_${ stamp }`;
	const body = JSON.stringify( {
		type: 'customer.updated',
		timestamp: new Date().toISOString(),
		data: { customer: { first_name: 'Ada', last_name: lastName, email: storedEmail } },
	} );
	const inboundWebhook = signStandardWebhook( sourceSecret, inboundEventId, body );
	expect( ( await sendWebhook( SOURCE, inboundWebhook ) ).status ).toBe( 202 );
	const [ row ] = await eventsFor( SOURCE, inboundEventId );
	expect( row ).toBeDefined();
	return {
		email,
		storedEmail,
		lastName,
		orderIds,
		paidEventIds,
		inboundEventId,
		inboundRowId: ( row as { id: number } ).id,
		inboundWebhook,
	};
}

/** Tools > Export / Erase Personal Data: "Add request" without a confirmation email (core marks it confirmed). */
async function addRequest(
	kind: 'export' | 'erase',
	email: string
): Promise< { id: string; nonce: string; count: number } > {
	const { siteUrl } = readState();
	const screen = `${ siteUrl }/wp-admin/${ kind === 'export' ? 'export' : 'erase' }-personal-data.php`;
	const action = kind === 'export' ? 'add_export_personal_data_request' : 'add_remove_personal_data_request';
	const page = await ( await fetch( screen, { headers: { cookie } } ) ).text();
	const form = page.split( '<form' ).find( ( part ) => part.includes( `value="${ action }"` ) ) as string;
	const nonce = /name="_wpnonce" value="([^"]+)"/.exec( form )?.[ 1 ];
	expect( nonce ).toBeDefined();
	const added = await fetch( screen, {
		method: 'POST',
		headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
		// No send_confirmation_email: the request is confirmed at once.
		body: new URLSearchParams( {
			_wpnonce: nonce as string,
			action,
			type_of_action: kind === 'export' ? 'export_personal_data' : 'remove_personal_data',
			username_or_email_for_privacy_request: email,
		} ).toString(),
	} );
	const listed = await added.text();
	expect( listed ).toContain( 'Request added successfully.' );
	const row = listed.slice( listed.indexOf( `mailto:${ email }` ) );
	const attribute = kind === 'export' ? 'exporters' : 'erasers';
	const match = new RegExp( `data-${ attribute }-count="(\\d+)" data-request-id="(\\d+)" data-nonce="([^"]+)"` ).exec(
		row
	);
	expect( match ).not.toBeNull();
	const [ , count, id, rowNonce ] = match as RegExpExecArray;
	return { id: id as string, nonce: rowNonce as string, count: Number( count ) };
}

/** What wp-admin's privacy script does: each exporter or eraser, page after page, through admin-ajax. */
async function ajax< T >( fields: Record< string, string > ): Promise< AjaxAnswer< T > > {
	const response = await fetch( `${ readState().siteUrl }/wp-admin/admin-ajax.php`, {
		method: 'POST',
		headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams( fields ).toString(),
	} );
	const text = await response.text();
	try {
		return JSON.parse( text ) as AjaxAnswer< T >;
	} catch {
		throw new Error( `admin-ajax answered ${ response.status }: ${ text.slice( 0, 300 ) }` );
	}
}

async function runExport( email: string ): Promise< {
	items: ExportItem[];
	answers: AjaxAnswer< { data: ExportItem[]; done: boolean; url?: string } | string >[];
} > {
	const request = await addRequest( 'export', email );
	const items: ExportItem[] = [];
	const answers: AjaxAnswer< { data: ExportItem[]; done: boolean; url?: string } | string >[] = [];
	for ( let exporter = 1; exporter <= request.count; exporter++ ) {
		for ( let page = 1; page < 50; page++ ) {
			const answer = await ajax< { data: ExportItem[]; done: boolean; url?: string } | string >( {
				action: 'wp-privacy-export-personal-data',
				exporter: String( exporter ),
				id: request.id,
				page: String( page ),
				security: request.nonce,
				sendAsEmail: 'false',
			} );
			answers.push( answer );
			if ( ! answer.success || typeof answer.data === 'string' ) {
				return { items, answers };
			}
			items.push( ...answer.data.data );
			if ( answer.data.done ) {
				break;
			}
		}
	}
	return { items, answers };
}

/**
 * Every eraser's answers, each page tagged with its eraser's key. Only the plugin's
 * (`service-integration-*`) are asserted: other plugins' erasers keep what their own settings
 * say (real WooCommerce retains orders unless its "remove order data" option is on).
 */
async function runErase( email: string ): Promise< Array< AjaxAnswer< ErasePage | string > & { eraser: string } > > {
	const request = await addRequest( 'erase', email );
	const keys = ( await adminClient().get< string[] >( '/privacy-probe/v1/erasers' ) ).body;
	expect( keys ).toHaveLength( request.count );
	const answers: Array< AjaxAnswer< ErasePage | string > & { eraser: string } > = [];
	for ( let eraser = 1; eraser <= request.count; eraser++ ) {
		for ( let page = 1; page < 50; page++ ) {
			const answer = {
				...( await ajax< ErasePage | string >( {
					action: 'wp-privacy-erase-personal-data',
					eraser: String( eraser ),
					id: request.id,
					page: String( page ),
					security: request.nonce,
				} ) ),
				eraser: keys[ eraser - 1 ] as string,
			};
			answers.push( answer );
			if ( ! answer.success || typeof answer.data === 'string' || answer.data.done ) {
				break;
			}
		}
	}
	return answers;
}

const values = ( item: ExportItem ) => Object.fromEntries( item.data.map( ( pair ) => [ pair.name, pair.value ] ) );

describe( 'Privacy: Tools > Export / Erase Personal Data cover the plugin and the sidecar', () => {
	beforeAll( async () => {
		const { siteUrl } = readState();
		cookie = await loginCookies( siteUrl, 'admin', 'password' );
		await setPluginActive( PROBE, true );
		// The receiver answers with the customer's email: the sidecar keeps it in the attempt's excerpt.
		receiver = await startReceiver( ( request, res ) => {
			const email =
				( JSON.parse( request.body ) as { data?: { order?: { customer?: { email?: string } } } } ).data?.order
					?.customer?.email ?? '';
			res.writeHead( 200, { 'content-type': 'text/plain' } ).end( `thanks, receipt sent to ${ email }` );
		} );
		const created = await adminClient().post< { id: string } >( '/service-integration/v1/webhooks/endpoints', {
			url: `${ receiver.url }/privacy`,
			event_types: [ 'order.paid' ],
		} );
		expect( created.status ).toBe( 201 );
		endpointId = created.body.id;
		sourceSecret = ( await createSource( SOURCE, 'standard-webhooks' ) ).secret;
	} );

	afterAll( async () => {
		await adminClient().request( {
			method: 'DELETE',
			path: `/service-integration/v1/webhooks/endpoints/${ endpointId }`,
		} );
		await adminClient().request( { method: 'DELETE', path: `${ ADMIN }/sources/${ SOURCE }` } );
		await setPluginActive( PROBE, false );
		await receiver.close();
	} );

	it( "exports the outbox rows, the inbound webhook and the sidecar events and attempts holding the email (any case), and nobody else's", async () => {
		const customer = await seedCustomer( 'export' );
		const other = await seedCustomer( 'bystander' );
		const { items, answers } = await runExport( customer.email );
		expect( answers.filter( ( answer ) => ! answer.success ) ).toEqual( [] );
		const last = answers[ answers.length - 1 ] as AjaxAnswer< { url?: string } >;
		expect( last.data.url ).toMatch( /wp-personal-data-exports\/wp-personal-data-file-.+\.zip$/ ); // core wrote the zip

		const group = ( id: string ) => items.filter( ( item ) => item.group_id === id ).map( values );
		const outbox = group( 'service-integration-outbox' );
		expect( outbox.length ).toBeGreaterThanOrEqual( 2 ); // created and paid events of both orders
		for ( const row of outbox ) {
			expect( row ).toMatchObject( { Name: `Ada ${ customer.lastName }`, Email: customer.storedEmail } );
		}
		expect( outbox.map( ( row ) => row[ 'Event id' ] ) ).toEqual( expect.arrayContaining( customer.paidEventIds ) );
		expect( group( 'service-integration-inbound' ) ).toEqual( [
			expect.objectContaining( {
				'Event id': customer.inboundEventId,
				Source: SOURCE,
				Name: `Ada ${ customer.lastName }`,
				Email: customer.storedEmail,
			} ),
		] );
		const sidecar = group( 'service-integration-sidecar' );
		const events = sidecar.filter( ( row ) => row.Record === 'Event' );
		expect( events.map( ( row ) => row[ 'Event id' ] ) ).toEqual( expect.arrayContaining( customer.paidEventIds ) );
		expect(
			events.every( ( row ) => row.Name === `Ada ${ customer.lastName }` && row.Email === customer.storedEmail )
		).toBe( true );
		const attempts = sidecar.filter( ( row ) => row.Record === 'Delivery attempt' );
		expect( attempts.map( ( row ) => row[ 'Event id' ] ).sort() ).toEqual( [ ...customer.paidEventIds ].sort() );
		expect( attempts[ 0 ]?.[ "Endpoint's answer" ] ).toBe( `thanks, receipt sent to ${ customer.storedEmail }` );

		const everything = JSON.stringify( items ).toLowerCase();
		expect( everything ).not.toContain( other.email );
		expect( everything ).not.toContain( other.lastName.toLowerCase() );
	} );

	it( "erases (force erase, no confirmation): markers replace the values in WordPress's rows and the sidecar's, ids and dedupe stay", async () => {
		const customer = await seedCustomer( 'erase' );
		const other = await seedCustomer( 'keeper' );
		const answers = ( await runErase( customer.email ) ).filter( ( answer ) =>
			answer.eraser.startsWith( 'service-integration-' )
		);
		expect( new Set( answers.map( ( answer ) => answer.eraser ) ).size ).toBe( 3 );
		expect( answers.every( ( answer ) => answer.success ) ).toBe( true );
		const pages = answers.map( ( answer ) => answer.data as ErasePage );
		expect( pages.filter( ( page ) => page.items_retained ) ).toEqual( [] );
		expect( pages.filter( ( page ) => page.items_removed ).length ).toBeGreaterThanOrEqual( 3 ); // outbox, inbound, sidecar

		const email = redactionMarker( customer.email );
		const lastName = redactionMarker( customer.lastName );
		// The sidecar's events: same ids, markers in the payload and in what the receiver answered.
		for ( const eventId of customer.paidEventIds ) {
			const view = await adminClient().get< SidecarEventView >(
				`/service-integration/v1/webhooks/events/${ eventId }`
			);
			expect( view.status ).toBe( 200 );
			expect( view.body.event.id ).toBe( eventId );
			expect( view.body.event.data.order.customer ).toEqual( {
				first_name: redactionMarker( 'Ada' ),
				last_name: lastName,
				email,
			} );
			const delivery = view.body.deliveries.find( ( candidate ) => candidate.endpoint_id === endpointId );
			expect( delivery?.attempts[ 0 ]?.response_excerpt ).toBe( `thanks, receipt sent to ${ email }` );
			expect( JSON.stringify( view.body ).toLowerCase() ).not.toContain( customer.email );
		}
		// WordPress's outbox rows: still there under their event ids, with markers.
		const outbox = await adminClient().get< { rows: Array< { event_id: string; payload: string } > } >(
			`/privacy-probe/v1/outbox?contains=${ encodeURIComponent( email ) }`
		);
		expect( outbox.body.rows.map( ( row ) => row.event_id ) ).toEqual(
			expect.arrayContaining( customer.paidEventIds )
		);
		for ( const row of outbox.body.rows ) {
			expect( row.payload ).toContain( lastName );
			expect( row.payload.toLowerCase() ).not.toContain( customer.email );
			expect( row.payload ).not.toContain( customer.lastName );
		}
		// The inbound event: markers in its payload, and its event id still dedupes a redelivery.
		const inbound = await adminClient().get< { payload: string; event_id: string } >(
			`${ ADMIN }/events/${ customer.inboundRowId }`
		);
		expect( inbound.body.event_id ).toBe( customer.inboundEventId );
		expect( inbound.body.payload ).toContain( email );
		expect( inbound.body.payload.toLowerCase() ).not.toContain( customer.email );
		expect( inbound.body.payload ).not.toContain( customer.lastName );
		expect( ( await sendWebhook( SOURCE, customer.inboundWebhook ) ).status ).toBe( 200 ); // a duplicate

		// Another customer's data is untouched, and nothing is left to export for this one.
		const kept = await adminClient().get< SidecarEventView >(
			`/service-integration/v1/webhooks/events/${ other.paidEventIds[ 0 ] }`
		);
		expect( kept.body.event.data.order.customer.email ).toBe( other.storedEmail );
		const again = await runExport( customer.email );
		expect( again.items.filter( ( item ) => item.group_id.startsWith( 'service-integration' ) ) ).toEqual( [] );
	} );

	it( "reports the sidecar's data as retained, with a message to retry, when the sidecar is down; the export fails rather than skipping it", async () => {
		const email = `down.${ Date.now() }@example.com`;
		await stopSidecar();
		try {
			const answers = ( await runErase( email ) ).filter( ( answer ) =>
				answer.eraser.startsWith( 'service-integration-' )
			);
			const pages = answers.filter( ( answer ) => answer.success ).map( ( answer ) => answer.data as ErasePage );
			const retained = pages.filter( ( page ) => page.items_retained );
			expect( retained ).toHaveLength( 1 );
			expect( retained[ 0 ]?.messages.join( ' ' ) ).toMatch(
				/sidecar's delivery history was not erased.*Run the erasure again once the sidecar is reachable/
			);
			const exported = await runExport( email );
			const failed = exported.answers.filter( ( answer ) => ! answer.success );
			expect( failed ).toHaveLength( 1 );
			expect( JSON.stringify( failed[ 0 ]?.data ) ).toMatch( /delivery history could not be exported/ );
		} finally {
			await startSidecar();
		}
	} );

	it( 'keeps the privacy tools to their owners: no anonymous admin-ajax call, no unsigned sidecar call', async () => {
		const { siteUrl, sidecarUrl } = readState();
		const anonymous = await fetch( `${ siteUrl }/wp-admin/admin-ajax.php`, {
			method: 'POST',
			headers: { cookie: PLAYGROUND_COOKIE, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams( {
				action: 'wp-privacy-export-personal-data',
				exporter: '1',
				id: '1',
				page: '1',
				security: 'x',
				sendAsEmail: 'false',
			} ).toString(),
		} );
		expect( await anonymous.text() ).not.toContain( '"success":true' );
		const unsigned = await fetch( `${ sidecarUrl }/v1/privacy/export`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify( { email: 'a@example.com' } ),
		} );
		expect( unsigned.status ).toBe( 401 );
	} );
} );

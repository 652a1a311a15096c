import { startReceiver, type Receiver } from '../../sidecar/support/receiver';
import {
	app,
	openSession,
	requireRoute,
	SETUP_TIMEOUT,
	shot,
	waitForLoaded,
	type AdminSession,
} from '../support/admin-page';
import { adminClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { sleep, waitUntil } from '../../support/wait-until';

interface Endpoint {
	id: string;
	url: string;
}

const ROUTE = '/service-integration/v1/webhooks/endpoints';

/** Hands every order event waiting in WordPress's outbox over to the sidecar. */
async function handOverOutbox(): Promise< void > {
	let flushed = '';
	await waitUntil(
		async () => {
			const answer = await adminClient().post< { pending: number } >( '/service-integration/v1/webhooks/outbox' );
			flushed = `HTTP ${ answer.status } ${ JSON.stringify( answer.body ) }`;
			return answer.status === 200 && answer.body.pending === 0;
		},
		60_000,
		() => `the outbox handed over (last answer: ${ flushed })`,
		1000
	);
}

/**
 * "Replay events" from the admin page: an endpoint added after some orders were paid gets
 * them, counted first (dry run), then replayed: exactly those events, each once, in order.
 */
describe( 'replaying a time range of events to an endpoint from the admin page', () => {
	let session: AdminSession;
	let receiver: Receiver;
	let url: string;
	let endpoint: Endpoint;
	let orderIds: number[];
	let from: Date;

	beforeAll( async () => {
		await requireRoute( ROUTE, 'Outbound endpoints screen' );
		receiver = await startReceiver();
		url = `${ receiver.url }/replay-range-${ Date.now().toString( 36 ) }`;

		// The range counts every event the sidecar received in it: order events an earlier file
		// left in the outbox are handed over first, and the range starts a whole second later
		// (the form takes it to the second), so it holds this file's events only.
		await handOverOutbox();
		await sleep( 2000 );

		// Orders created and paid before the endpoint exists: it got none of their events.
		from = new Date( Date.now() - 1000 );
		const shop = commerce();
		const [ product ] = await shop.createProducts( [
			{ name: 'Oak shelf', sku: `SHELF-${ Date.now() }`, price: '120.00' },
		] );
		const item = { product_id: ( product as { id: number } ).id, quantity: 1 };
		orderIds = await shop.createOrders( [
			{ status: 'pending', line_items: [ item ] },
			{ status: 'pending', line_items: [ item ] },
		] );
		await shop.pay( orderIds );
		// Hand the outbox over now rather than at the next cron run.
		await handOverOutbox();

		// Subscribed to order.paid only: the order.created events were left out by its filter too.
		const created = await adminClient().post< Endpoint >( ROUTE, { url, event_types: [ 'order.paid' ] } );
		expect( created.status ).toBe( 201 );
		endpoint = created.body;
		session = await openSession( { tab: 'endpoints' } );
	}, SETUP_TIMEOUT );

	afterAll( async () => {
		await session?.close();
		const list = await adminClient().get< { endpoints: Endpoint[] } >( ROUTE );
		for ( const each of list.body.endpoints ?? [] ) {
			if ( each.url === url ) {
				await adminClient().request( { method: 'DELETE', path: `${ ROUTE }/${ each.id }` } );
			}
		}
		await receiver?.close();
	} );

	const ofOurs = () =>
		receiver.requests
			.map( ( request ) => ( {
				id: request.headers[ 'webhook-id' ] as string,
				type: ( JSON.parse( request.body ) as { type: string } ).type,
				body: request.body,
			} ) )
			.map( ( event ) => ( {
				...event,
				order: orderIds.find( ( id ) => event.body.includes( `"id":${ id },` ) ),
			} ) );

	it( 'counts (dry run), then replays the events the endpoint never got: each once, in order per order', async () => {
		const { page } = session;
		await waitForLoaded( page );
		expect( receiver.requests ).toHaveLength( 0 );
		await page.getByRole( 'button', { name: `Replay events to ${ url }` } ).click();
		const form = page.getByRole( 'form', { name: `Replay events to ${ url }` } );
		await form.waitFor();
		// The endpoint's own types are ticked; add the order.created events its filter left out.
		expect( await form.getByLabel( 'Order paid (order.paid)' ).isChecked() ).toBe( true );
		expect( await form.getByLabel( 'Order created (order.created)' ).isChecked() ).toBe( false );
		await form.getByLabel( 'Order created (order.created)' ).check();

		// Local time in the browser's zone, to the second.
		const local = ( date: Date ) =>
			page.evaluate( ( ms ) => {
				const d = new Date( ms );
				const pad = ( n: number ) => String( n ).padStart( 2, '0' );
				return `${ d.getFullYear() }-${ pad( d.getMonth() + 1 ) }-${ pad( d.getDate() ) }T${ pad( d.getHours() ) }:${ pad( d.getMinutes() ) }:${ pad( d.getSeconds() ) }`;
			}, date.getTime() );
		const fromField = form.getByLabel( 'From (your local time)' );
		const toField = form.getByLabel( 'To (your local time, not included)' );

		// Checked before anything is sent: the range must end after it starts.
		await fromField.fill( await local( new Date( Date.now() + 60_000 ) ) );
		await toField.fill( await local( from ) );
		await form.getByRole( 'button', { name: 'Count' } ).click();
		await app( page ).getByText( 'The range must end after it starts.' ).waitFor();

		await fromField.fill( await local( from ) );
		await toField.fill( await local( new Date( Date.now() + 2000 ) ) );
		await form.getByRole( 'button', { name: 'Count' } ).click();
		await form.getByText( '4 events match.' ).waitFor();
		await shot( session, 'replay-range-counted' );
		// Counting sends nothing: give a wrong send the time to arrive.
		await sleep( 1000 );
		expect( receiver.requests ).toHaveLength( 0 );

		await form.getByRole( 'button', { name: 'Replay', exact: true } ).click();
		await form.getByText( '4 events queued again.' ).waitFor();
		await receiver.waitFor( ( requests ) => requests.length >= 4, 60_000 );
		// And no fifth: what arrives late would show here.
		await sleep( 2000 );
		const got = ofOurs();
		expect( got ).toHaveLength( 4 );
		expect( new Set( got.map( ( event ) => event.id ) ).size ).toBe( 4 );
		for ( const orderId of orderIds ) {
			expect( got.filter( ( event ) => event.order === orderId ).map( ( event ) => event.type ) ).toEqual( [
				'order.created',
				'order.paid',
			] );
		}
		await shot( session, 'replay-range-replayed' );
		expect( session.errors ).toEqual( [] );
	} );

	it( 'validates the REST route: documented arguments, 400 naming the field, 404, 405', async () => {
		const client = adminClient();
		const replay = `${ ROUTE }/${ endpoint.id }/replay`;
		const options = await client.request< {
			endpoints: Array< { methods: string[]; args: Record< string, unknown > } >;
		} >( { method: 'OPTIONS', path: replay } );
		const post = options.body.endpoints.find( ( each ) => each.methods.includes( 'POST' ) );
		expect( Object.keys( post?.args ?? {} ).sort() ).toEqual( [ 'dry_run', 'from', 'limit', 'to', 'types' ] );

		const range = { from: from.toISOString(), to: new Date().toISOString() };
		const badType = await client.post< { code: string; data: { params: Record< string, string > } } >( replay, {
			...range,
			types: [ 'order.shipped' ],
		} );
		expect( badType.status ).toBe( 400 );
		expect( Object.keys( badType.body.data.params ) ).toEqual( [ 'types' ] );
		const backwards = await client.post< { code: string; data: { field: string } } >( replay, {
			from: range.to,
			to: range.from,
		} );
		expect( backwards.status ).toBe( 400 );
		expect( backwards.body ).toMatchObject( { code: 'invalid_to', data: { field: 'to' } } );
		const dry = await client.post< { matched: number; queued: number; already_queued: number } >( replay, {
			...range,
			types: [ 'order.created', 'order.paid' ],
			dry_run: true,
		} );
		expect( dry.body ).toMatchObject( { matched: 4, queued: 4, already_queued: 0 } );
		const unknown = await client.post< { code: string } >( `${ ROUTE }/ep_000000000000000000000000/replay`, range );
		expect( unknown.status ).toBe( 404 );
		expect( unknown.body.code ).toBe( 'endpoint_not_found' );
		const wrong = await client.get< { code: string } >( replay );
		expect( wrong.status ).toBe( 405 );
		expect( wrong.body.code ).toBe( 'method_not_allowed' );
	} );
} );

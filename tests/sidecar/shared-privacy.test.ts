import { redactionMarker } from '../../sidecar/src/privacy/personal-data';
import { startMariaDb, type RunningMariaDb } from '../support/mariadb';
import { waitUntil } from '../support/wait-until';
import { startReceiver, type Receiver } from './support/receiver';
import { startDeliveringInstance, type DeliveringInstance } from './support/delivering-instance';

const EMAIL = 'Grace.Hopper@Example.com';

function paidOrder( id: string, email: string, first = 'Grace', last = 'Hopper' ) {
	return {
		id,
		type: 'order.paid',
		timestamp: new Date().toISOString(),
		ordering_key: `order:${ id }`,
		data: { order_id: id, billing: { first_name: first, last_name: last, email, city: 'Arlington' } },
	};
}

/**
 * Privacy requests on the shared store: what one instance stored and delivered, another
 * exports and erases, and the first then serves only the markers.
 */
describe( 'privacy export and erasure through two instances on one MariaDB', () => {
	let database: RunningMariaDb;
	let receiver: Receiver;
	let a: DeliveringInstance;
	let b: DeliveringInstance;

	beforeAll( async () => {
		database = await startMariaDb( { name: 'shared_privacy_test' } );
		// The receiver answers with the customer's email and name: the attempt's excerpt holds them.
		receiver = await startReceiver( ( request, res ) => {
			const { billing } = ( JSON.parse( request.body ) as { data: { billing: Record< string, string > } } ).data;
			res.writeHead( 200, { 'content-type': 'text/plain' } ).end(
				`ok, mailed ${ billing.email } (${ billing.first_name } ${ billing.last_name })`
			);
		} );
		a = await startDeliveringInstance( database.url, 'instance-a', 60_000 );
		b = await startDeliveringInstance( database.url, 'instance-b', 60_000 );
		a.dispatcher.start();
		await a.api( 'POST', '/v1/endpoints', { url: receiver.url, event_types: [ 'order.paid' ] } );
		expect(
			(
				await a.api( 'POST', '/v1/events', {
					events: [
						paidOrder( 'evt_1', EMAIL ),
						paidOrder( 'evt_keep', 'someone@example.com', 'Al', 'Other' ),
					],
				} )
			).status
		).toBe( 202 );
		await waitUntil(
			async () =>
				( await a.api( 'GET', '/v1/deliveries?status=succeeded' ) ).body.total === 2 &&
				( await a.api( 'GET', '/v1/events/evt_1' ) ).body.deliveries[ 0 ].attempts.length === 1,
			10_000,
			'deliveries recorded'
		);
	} );

	afterAll( async () => {
		await a?.close();
		await b?.close();
		await receiver?.close();
		await database?.stop();
	} );

	it( 'exports through B what A stored and delivered, page by page', async () => {
		const all = await b.api( 'POST', '/v1/privacy/export', { email: 'grace.hopper@EXAMPLE.com' } );
		expect( all.status ).toBe( 200 );
		expect( all.body ).toMatchObject( { total: 2, done: true } );
		expect( all.body.records ).toEqual( [
			{
				kind: 'event',
				id: 'evt_1',
				type: 'order.paid',
				received_at: expect.any( String ),
				fields: { name: 'Grace Hopper', email: EMAIL },
			},
			expect.objectContaining( {
				kind: 'attempt',
				event_id: 'evt_1',
				fields: { email: 'grace.hopper@EXAMPLE.com', response_excerpt: `ok, mailed ${ EMAIL } (Grace Hopper)` },
			} ),
		] );
		const first = await b.api( 'POST', '/v1/privacy/export', { email: EMAIL, page: 1, per_page: 1 } );
		expect( [ first.body.records.length, first.body.done ] ).toEqual( [ 1, false ] );
	} );

	it( 'erases through B; A then serves the markers, ids and ordering keys unchanged, and the other customer untouched', async () => {
		const erased = await b.api( 'POST', '/v1/privacy/erase', { email: EMAIL.toUpperCase() } );
		expect( erased.status ).toBe( 200 );
		expect( erased.body ).toEqual( { redacted_events: 1, redacted_attempts: 1 } );

		const event = await a.api( 'GET', '/v1/events/evt_1' );
		expect( event.body.event ).toMatchObject( {
			id: 'evt_1',
			ordering_key: 'order:evt_1',
			redacted_at: expect.any( String ),
		} );
		expect( event.body.event.data.billing ).toEqual( {
			first_name: redactionMarker( 'Grace' ),
			last_name: redactionMarker( 'Hopper' ),
			email: redactionMarker( EMAIL ),
			city: redactionMarker( 'Arlington' ),
		} );
		expect( event.body.deliveries[ 0 ].attempts[ 0 ].response_excerpt ).toBe(
			`ok, mailed ${ redactionMarker( EMAIL ) } (${ redactionMarker( 'Grace Hopper' ) })`
		);
		const kept = await a.api( 'GET', '/v1/events/evt_keep' );
		expect( kept.body.event.data.billing.email ).toBe( 'someone@example.com' );
		expect( ( await a.api( 'POST', '/v1/privacy/export', { email: EMAIL } ) ).body.total ).toBe( 0 );
		// The id stays known: the event handed over again through A is a duplicate.
		expect(
			( await a.api( 'POST', '/v1/events', { events: [ paidOrder( 'evt_1', EMAIL ) ] } ) ).body.duplicates
		).toEqual( [ 'evt_1' ] );
	} );

	it.each( [
		[ '/v1/privacy/export', {}, 'email' ],
		[ '/v1/privacy/export', { email: 'not-an-email' }, 'email: must be an email address' ],
		[ '/v1/privacy/export', { email: EMAIL, per_page: 101 }, 'per_page' ],
		[ '/v1/privacy/erase', { email: EMAIL, extra: 1 }, 'extra' ],
	] )( 'POST %s with %j: 400 invalid_body naming %s', async ( path, body, named ) => {
		const answer = await b.api( 'POST', path, body );
		expect( answer.status ).toBe( 400 );
		expect( answer.body.code ).toBe( 'invalid_body' );
		expect( answer.body.message ).toContain( named );
	} );

	it( 'answers malformed JSON with 400 invalid_json and another method with 405', async () => {
		const malformed = await b.api( 'POST', '/v1/privacy/erase', '{ not json' );
		expect( malformed.status ).toBe( 400 );
		expect( malformed.body.code ).toBe( 'invalid_json' );
		const wrong = await b.api( 'GET', '/v1/privacy/export' );
		expect( wrong.status ).toBe( 405 );
		expect( wrong.headers.get( 'allow' ) ).toBe( 'POST' );
	} );
} );

import { redactionMarker } from '../../sidecar/src/privacy/personal-data';
import { startHarness, type Harness } from './support/harness';
import { ManualClock } from './support/manual-clock';
import { startReceiver, type Receiver } from './support/receiver';
import { waitUntil } from '../support/wait-until';

const EMAIL = 'Grace.Hopper@Example.com';

function paidOrder( id: string, email: string, first = 'Grace', last = 'Hopper' ) {
	return {
		id,
		type: 'order.paid',
		timestamp: new Date().toISOString(),
		ordering_key: `order:${ id }`,
		data: {
			order_id: id,
			billing: { first_name: first, last_name: last, email, city: 'Arlington' },
			total: '10.00',
		},
	};
}

describe( 'privacy: export and erase over the signed channel', () => {
	let sidecar: Harness;
	let receiver: Receiver;

	beforeEach( async () => {
		// The receiver answers with the customer's email in its body: the attempt's excerpt holds it.
		receiver = await startReceiver( ( request, res ) => {
			const { billing } = (
				JSON.parse( request.body ) as {
					data: { billing: { email: string; first_name: string; last_name: string } };
				}
			 ).data;
			res.writeHead( 200, { 'content-type': 'text/plain' } ).end(
				`ok, mailed ${ billing.email } (${ billing.first_name } ${ billing.last_name })`
			);
		} );
		sidecar = await startHarness();
		await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url, event_types: [ 'order.paid' ] } );
	} );

	afterEach( async () => {
		await sidecar.close();
		await receiver.close();
	} );

	async function deliver( events: ReturnType< typeof paidOrder >[] ): Promise< void > {
		expect( ( await sidecar.api( 'POST', '/v1/events', { events } ) ).status ).toBe( 202 );
		const count = () =>
			(
				sidecar.stores.db
					.prepare( "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'succeeded'" )
					.get() as { n: number }
			 ).n;
		await waitUntil( () => count() === events.length, 10_000, 'deliveries recorded' );
	}

	it( 'exports the events and attempts holding the email, case-insensitively, page by page', async () => {
		await deliver( [
			paidOrder( 'evt_p1', EMAIL ),
			paidOrder( 'evt_p2', EMAIL.toLowerCase() ),
			paidOrder( 'evt_other', 'someone@example.com', 'Al', 'Other' ),
		] );
		const all = await sidecar.api( 'POST', '/v1/privacy/export', { email: 'GRACE.HOPPER@example.com' } );
		expect( all.status ).toBe( 200 );
		expect( all.body.total ).toBe( 4 );
		expect( all.body.done ).toBe( true );
		expect( all.body.records.filter( ( r: { kind: string } ) => r.kind === 'event' ) ).toEqual( [
			{
				kind: 'event',
				id: 'evt_p1',
				type: 'order.paid',
				received_at: expect.any( String ),
				fields: { name: 'Grace Hopper', email: EMAIL },
			},
			{
				kind: 'event',
				id: 'evt_p2',
				type: 'order.paid',
				received_at: expect.any( String ),
				fields: { name: 'Grace Hopper', email: EMAIL.toLowerCase() },
			},
		] );
		expect( all.body.records.filter( ( r: { kind: string } ) => r.kind === 'attempt' ) ).toEqual( [
			expect.objectContaining( {
				kind: 'attempt',
				event_id: 'evt_p1',
				fields: expect.objectContaining( { response_excerpt: `ok, mailed ${ EMAIL } (Grace Hopper)` } ),
			} ),
			expect.objectContaining( { kind: 'attempt', event_id: 'evt_p2' } ),
		] );

		const first = await sidecar.api( 'POST', '/v1/privacy/export', { email: EMAIL, page: 1, per_page: 3 } );
		const second = await sidecar.api( 'POST', '/v1/privacy/export', { email: EMAIL, page: 2, per_page: 3 } );
		expect( [ first.body.records.length, first.body.done, second.body.records.length, second.body.done ] ).toEqual(
			[ 3, false, 1, true ]
		);
		expect( ( await sidecar.api( 'POST', '/v1/privacy/export', { email: 'nobody@example.com' } ) ).body ).toEqual( {
			records: [],
			total: 0,
			done: true,
		} );
	} );

	it( 'erases: markers replace the values in payloads and excerpts; ids, types and other customers stay', async () => {
		await deliver( [
			paidOrder( 'evt_e1', EMAIL ),
			paidOrder( 'evt_e2', EMAIL ),
			paidOrder( 'evt_keep', 'someone@example.com', 'Al', 'Other' ),
		] );
		const erased = await sidecar.api( 'POST', '/v1/privacy/erase', { email: EMAIL.toUpperCase() } );
		expect( erased.status ).toBe( 200 );
		expect( erased.body ).toEqual( { redacted_events: 2, redacted_attempts: 2 } );

		const event = await sidecar.api( 'GET', '/v1/events/evt_e1' );
		expect( event.status ).toBe( 200 );
		expect( event.body.event ).toMatchObject( {
			id: 'evt_e1',
			type: 'order.paid',
			ordering_key: 'order:evt_e1',
			redacted_at: expect.any( String ),
			payload_cleared_at: null,
		} );
		expect( event.body.event.data ).toEqual( {
			order_id: 'evt_e1',
			billing: {
				first_name: redactionMarker( 'Grace' ),
				last_name: redactionMarker( 'Hopper' ),
				email: redactionMarker( EMAIL ),
				city: redactionMarker( 'Arlington' ),
			},
			total: '10.00',
		} );
		const excerpt = event.body.deliveries[ 0 ].attempts[ 0 ].response_excerpt as string;
		expect( excerpt ).toBe( `ok, mailed ${ redactionMarker( EMAIL ) } (${ redactionMarker( 'Grace Hopper' ) })` );
		const text =
			JSON.stringify( sidecar.stores.db.prepare( 'SELECT * FROM events' ).all() ) +
			JSON.stringify( sidecar.stores.db.prepare( 'SELECT * FROM attempts' ).all() );
		expect( text.toLowerCase() ).not.toContain( EMAIL.toLowerCase() );
		expect( text ).not.toContain( 'Hopper' );
		expect( text ).toContain( 'someone@example.com' ); // another customer's data is untouched

		// Nothing left to export or erase; the event ids stay known (a re-sent batch is still a duplicate).
		expect( ( await sidecar.api( 'POST', '/v1/privacy/export', { email: EMAIL } ) ).body.total ).toBe( 0 );
		expect( ( await sidecar.api( 'POST', '/v1/privacy/erase', { email: EMAIL } ) ).body ).toEqual( {
			redacted_events: 0,
			redacted_attempts: 0,
		} );
		expect(
			( await sidecar.api( 'POST', '/v1/events', { events: [ paidOrder( 'evt_e1', EMAIL ) ] } ) ).body.duplicates
		).toEqual( [ 'evt_e1' ] );
		expect( sidecar.logText() ).not.toContain( EMAIL );
	} );

	it.each( [
		[ '/v1/privacy/export', {}, /email/ ],
		[ '/v1/privacy/export', { email: 'not-an-email' }, /email: must be an email address/ ],
		[ '/v1/privacy/export', { email: EMAIL, page: 0 }, /page/ ],
		[ '/v1/privacy/export', { email: EMAIL, per_page: 101 }, /per_page/ ],
		[ '/v1/privacy/export', { email: EMAIL, extra: 1 }, /extra/ ],
		[ '/v1/privacy/erase', { email: 7 }, /email/ ],
		[ '/v1/privacy/erase', '{ not json', /not valid JSON/ ],
	] )( 'answers 400 naming the bad field: %s %j', async ( path, body, message ) => {
		const response = await sidecar.api( 'POST', path, body );
		expect( response.status ).toBe( 400 );
		expect( response.body.message ).toMatch( message );
	} );

	it( 'answers 405 for another method and 401 without the channel signature, never showing a payload', async () => {
		await deliver( [ paidOrder( 'evt_s1', EMAIL ) ] );
		const get = await sidecar.api( 'GET', '/v1/privacy/export' );
		expect( get.status ).toBe( 405 );
		expect( get.headers.get( 'allow' ) ).toBe( 'POST' );
		expect( ( await sidecar.api( 'DELETE', '/v1/privacy/erase' ) ).status ).toBe( 405 );
		const unsigned = await sidecar.api( 'POST', '/v1/privacy/export', { email: EMAIL }, { key: false } );
		expect( unsigned.status ).toBe( 401 );
		expect( unsigned.text ).not.toContain( 'Hopper' );
		const forged = await sidecar.api(
			'POST',
			'/v1/privacy/erase',
			{ email: EMAIL },
			{ key: 'wrong-key-0123456789abcdef' }
		);
		expect( forged.status ).toBe( 401 );
		expect( ( await sidecar.api( 'POST', '/v1/privacy/export', { email: EMAIL } ) ).body.total ).toBe( 2 ); // nothing erased
	} );
} );

describe( 'payload retention', () => {
	it( 'clears payloads and response excerpts past SIDECAR_PAYLOAD_RETENTION_DAYS, keeps the metadata and pending payloads', async () => {
		const ok = await startReceiver(
			( _request, res ) => void res.writeHead( 200 ).end( 'thanks grace.hopper@example.com' )
		);
		const down = await startReceiver( ( _request, res ) => void res.writeHead( 500 ).end() );
		const clock = new ManualClock();
		const sidecar = await startHarness(
			{
				SIDECAR_PAYLOAD_RETENTION_DAYS: '0.00001', // 0.9 s
				SIDECAR_RETENTION_DAYS: '30',
				SIDECAR_MAINTENANCE_INTERVAL_SECONDS: '3600',
				SIDECAR_RETRY_SCHEDULE: '0,3600',
			},
			{ clock }
		);
		try {
			expect( sidecar.config.payloadRetentionDays ).toBe( 0.00001 );
			await sidecar.api( 'POST', '/v1/endpoints', { url: ok.url, event_types: [ 'order.paid' ] } );
			await sidecar.api( 'POST', '/v1/endpoints', { url: down.url, event_types: [ 'order.refunded' ] } );
			await sidecar.api( 'POST', '/v1/events', {
				events: [
					paidOrder( 'evt_old', EMAIL ),
					{ ...paidOrder( 'evt_pending', EMAIL ), type: 'order.refunded' },
				],
			} );
			await ok.waitFor( ( r ) => r.length === 1 );
			await down.waitFor( ( r ) => r.length === 1 );
			const count = ( sql: string ) => ( sidecar.stores.db.prepare( sql ).get() as { n: number } ).n;
			await waitUntil( () => count( 'SELECT COUNT(*) AS n FROM attempts' ) === 2, 10_000, 'attempts recorded' );
			await clock.advance( 1200 ); // past the payload retention
			await sidecar.outbound.maintenance.tick();

			const old = await sidecar.api( 'GET', '/v1/events/evt_old' );
			expect( old.status ).toBe( 200 );
			expect( old.body.event ).toMatchObject( {
				id: 'evt_old',
				type: 'order.paid',
				data: {},
				payload_cleared_at: expect.any( String ),
			} );
			expect( old.body.deliveries ).toEqual( [
				expect.objectContaining( {
					status: 'succeeded',
					attempts: [ expect.objectContaining( { status_code: 200, response_excerpt: null } ) ],
				} ),
			] );
			const pending = await sidecar.api( 'GET', '/v1/events/evt_pending' );
			expect( pending.body.event.payload_cleared_at ).toBeNull();
			expect( pending.body.event.data.billing.email ).toBe( EMAIL ); // still to be sent
			expect( ( await sidecar.api( 'POST', '/v1/events/evt_old/replay', {} ) ).body.code ).toBe(
				'payload_cleared'
			);
			// Nor does the recovery replay send an emptied event again.
			sidecar.stores.db.prepare( "UPDATE deliveries SET status = 'failed' WHERE event_id = 'evt_old'" ).run();
			expect( ( await sidecar.api( 'POST', '/v1/replay', { since: '2000-01-01T00:00:00Z' } ) ).body ).toEqual( {
				requeued: 0,
			} );
			// Nor a range replay to an endpoint.
			const endpoints = ( await sidecar.api( 'GET', '/v1/endpoints' ) ).body.endpoints as Array< {
				id: string;
				url: string;
			} >;
			const okEndpoint = endpoints.find( ( endpoint ) => endpoint.url.startsWith( ok.url ) ) as { id: string };
			const range = await sidecar.api( 'POST', `/v1/endpoints/${ okEndpoint.id }/replay`, {
				from: '2000-01-01T00:00:00Z',
				to: '2100-01-01T00:00:00Z',
				types: [ 'order.paid' ],
			} );
			expect( range.body ).toMatchObject( { matched: 0, queued: 0 } );
			expect( sidecar.logText() ).toMatch(
				/"msg":"cleared payloads and response excerpts past payload retention"/
			);
		} finally {
			await sidecar.close();
			await ok.close();
			await down.close();
		}
	} );

	it( 'refuses a payload retention longer than the metadata retention, naming the key', async () => {
		await expect( startHarness( { SIDECAR_PAYLOAD_RETENTION_DAYS: '31' } ) ).rejects.toThrow(
			/SIDECAR_PAYLOAD_RETENTION_DAYS: must not exceed .*SIDECAR_RETENTION_DAYS/
		);
		await expect( startHarness( { SIDECAR_PAYLOAD_RETENTION_DAYS: '0' } ) ).rejects.toThrow(
			/SIDECAR_PAYLOAD_RETENTION_DAYS/
		);
	} );
} );

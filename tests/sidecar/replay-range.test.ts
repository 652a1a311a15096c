import { orderEvent } from './support/api-client';
import { startHarness, type Harness } from './support/harness';
import { startReceiver, type Receiver } from './support/receiver';
import { sleep, waitUntil } from '../support/wait-until';

/**
 * POST /v1/endpoints/:id/replay: the events of some types received in a time range go to
 * one endpoint, including those it never got a delivery for, in order, each once.
 */
describe( 'replaying a time range to an endpoint', () => {
	let sidecar: Harness;
	let receiver: Receiver;

	beforeAll( async () => {
		receiver = await startReceiver();
		sidecar = await startHarness( { SIDECAR_RETRY_SCHEDULE: '0' } );
	} );

	afterAll( async () => {
		await sidecar.close();
		await receiver.close();
	} );

	const idsAt = ( path: string ) =>
		receiver.requests.filter( ( r ) => r.path === path ).map( ( r ) => r.headers[ 'webhook-id' ] );
	const receivedAt = async ( eventId: string ): Promise< string > =>
		( await sidecar.api( 'GET', `/v1/events/${ eventId }` ) ).body.event.received_at;
	const deliveriesOf = async ( endpointId: string ) =>
		( await sidecar.api( 'GET', `/v1/deliveries?endpoint_id=${ endpointId }&per_page=100` ) ).body as {
			total: number;
			deliveries: { event_id: string; status: string }[];
		};
	const settled = async ( endpointId: string ) =>
		waitUntil(
			async () =>
				( await deliveriesOf( endpointId ) ).deliveries.every(
					( d ) => d.status === 'succeeded' || d.status === 'failed'
				),
			10_000,
			'deliveries settled'
		);
	/** One event per batch, a few ms apart, so each has its own received_at. */
	const send = async ( ...events: ReturnType< typeof orderEvent >[] ) => {
		for ( const event of events ) {
			await sidecar.api( 'POST', '/v1/events', { events: [ event ] } );
			await sleep( 5 );
		}
	};
	const later = ( iso: string, ms = 1 ) => new Date( Date.parse( iso ) + ms ).toISOString();

	it( 'delivers, in order, the events an endpoint left out by its type filter, mixing new and requeued deliveries of one order', async () => {
		const endpoint = (
			await sidecar.api( 'POST', '/v1/endpoints', {
				url: receiver.url + '/filtered',
				event_types: [ 'order.paid' ],
			} )
		).body;
		await send(
			orderEvent( 'f_created', 'order.created', 10 ),
			orderEvent( 'f_paid', 'order.paid', 10 ),
			orderEvent( 'f_refunded', 'order.refunded', 10 )
		);
		await receiver.waitFor( () => idsAt( '/filtered' ).length === 1 );
		await settled( endpoint.id );
		expect( idsAt( '/filtered' ) ).toEqual( [ 'f_paid' ] );

		// f_paid's delivery is the oldest; the new ones for f_created and f_refunded surround it.
		const from = await receivedAt( 'f_created' );
		const to = later( await receivedAt( 'f_refunded' ) );
		const body = { from, to, types: [ 'order.created', 'order.paid', 'order.refunded' ] };
		const dry = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, { ...body, dry_run: true } );
		expect( dry.status ).toBe( 200 );
		expect( dry.body ).toEqual( {
			matched: 3,
			queued: 3,
			already_queued: 0,
			more: false,
			next_from: null,
			types: body.types,
			dry_run: true,
		} );

		const replay = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, body );
		expect( replay.body ).toMatchObject( {
			matched: 3,
			queued: 3,
			already_queued: 0,
			more: false,
			dry_run: false,
		} );
		await receiver.waitFor( () => idsAt( '/filtered' ).length === 4 );
		// Nothing left to send: nothing more arrives.
		await settled( endpoint.id );
		expect( idsAt( '/filtered' ) ).toEqual( [ 'f_paid', 'f_created', 'f_paid', 'f_refunded' ] );
		// The requeued delivery kept its attempt history when it moved to its new place.
		const paid = ( await sidecar.api( 'GET', '/v1/events/f_paid' ) ).body.deliveries.find(
			( d: { endpoint_id: string } ) => d.endpoint_id === endpoint.id
		);
		expect( paid.attempts ).toHaveLength( 2 );
		expect( paid.attempts.map( ( a: { trigger: string } ) => a.trigger ) ).toEqual( [ 'scheduled', 'manual' ] );
		await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
	} );

	it( 'delivers to an endpoint created later what arrived before it, by default of the types it subscribes to, within the bounds', async () => {
		await send(
			orderEvent( 'l_1', 'order.created', 20 ),
			orderEvent( 'l_2', 'order.paid', 20 ),
			orderEvent( 'l_3', 'order.created', 21 ),
			orderEvent( 'l_4', 'order.paid', 21 ),
			orderEvent( 'l_5', 'order.refunded', 20 )
		);
		const endpoint = (
			await sidecar.api( 'POST', '/v1/endpoints', {
				url: receiver.url + '/later',
				event_types: [ 'order.paid', 'order.refunded' ],
			} )
		).body;
		const [ t1, t2, t4, t5 ] = ( await Promise.all( [ 'l_1', 'l_2', 'l_4', 'l_5' ].map( receivedAt ) ) ) as [
			string,
			string,
			string,
			string,
		];

		// from inclusive, to exclusive; default types: the endpoint's (order.created left out).
		const replay = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, { from: t1, to: t5 } );
		expect( replay.body ).toMatchObject( {
			matched: 2,
			queued: 2,
			already_queued: 0,
			more: false,
			types: [ 'order.paid', 'order.refunded' ],
		} );
		await receiver.waitFor( () => idsAt( '/later' ).length === 2 );
		expect( idsAt( '/later' ) ).toEqual( [ 'l_2', 'l_4' ] );

		// An explicit type list, bounds on the events themselves.
		const created = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, {
			from: t2,
			to: later( t5 ),
			types: [ 'order.created' ],
		} );
		expect( created.body ).toMatchObject( { matched: 1, queued: 1, types: [ 'order.created' ] } );
		await receiver.waitFor( () => idsAt( '/later' ).length === 3 );
		expect( idsAt( '/later' )[ 2 ] ).toBe( 'l_3' );
		const onlyT4 = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, {
			from: t4,
			to: later( t4 ),
			types: [ 'order.paid', 'order.refunded' ],
			dry_run: true,
		} );
		expect( onlyT4.body ).toMatchObject( { matched: 1, queued: 1, dry_run: true } );
		await settled( endpoint.id );
		await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
	} );

	it( 'stops at the limit and says where the rest starts; a dry run writes nothing', async () => {
		await send( ...[ 1, 2, 3, 4, 5 ].map( ( n ) => orderEvent( `m_${ n }`, 'order.created', 30 + n ) ) );
		const endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/limit' } ) ).body;
		const [ t1, t3, t5 ] = ( await Promise.all( [ 'm_1', 'm_3', 'm_5' ].map( receivedAt ) ) ) as [
			string,
			string,
			string,
		];
		const range = { from: t1, to: later( t5 ), types: [ 'order.created' ] };

		const dry = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, {
			...range,
			limit: 2,
			dry_run: true,
		} );
		expect( dry.body ).toMatchObject( { matched: 2, queued: 2, more: true, next_from: t3, dry_run: true } );
		// The API writes before it answers: a dry run left no delivery to send.
		expect( ( await deliveriesOf( endpoint.id ) ).total ).toBe( 0 );
		expect( idsAt( '/limit' ) ).toEqual( [] );

		const first = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, { ...range, limit: 2 } );
		expect( first.body ).toMatchObject( { matched: 2, queued: 2, more: true, next_from: t3 } );
		const rest = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, {
			...range,
			from: first.body.next_from,
			limit: 2,
		} );
		expect( rest.body ).toMatchObject( { matched: 2, more: true } );
		const last = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, {
			...range,
			from: rest.body.next_from,
			limit: 2,
		} );
		expect( last.body ).toMatchObject( { matched: 1, queued: 1, more: false, next_from: null } );
		await receiver.waitFor( () => idsAt( '/limit' ).length === 5 );
		expect( [ ...idsAt( '/limit' ) ].sort() ).toEqual( [ 'm_1', 'm_2', 'm_3', 'm_4', 'm_5' ] );
		await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
	} );

	it( 'never queues an event twice: what is still pending counts as already queued and goes out once', async () => {
		// A receiver that holds every request until released: the first delivery stays in flight.
		let release: () => void = () => undefined;
		const held = new Promise< void >( ( resolve ) => ( release = resolve ) );
		receiver.setHandler( async ( request, res ) => {
			if ( request.path === '/held' ) {
				await held;
			}
			res.writeHead( 200 ).end( 'ok' );
		} );
		try {
			await send(
				orderEvent( 'h_1', 'order.created', 40 ),
				orderEvent( 'h_2', 'order.paid', 40 ),
				orderEvent( 'h_3', 'order.refunded', 40 )
			);
			const endpoint = ( await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/held' } ) ).body;
			const range = { from: await receivedAt( 'h_1' ), to: later( await receivedAt( 'h_3' ) ) };
			const first = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, range );
			expect( first.body ).toMatchObject( { matched: 3, queued: 3, already_queued: 0 } );
			await receiver.waitFor( () => idsAt( '/held' ).length === 1 );
			const again = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, range );
			expect( again.body ).toMatchObject( { matched: 3, queued: 0, already_queued: 3 } );
			release();
			await receiver.waitFor( () => idsAt( '/held' ).length === 3 );
			await settled( endpoint.id ); // nothing left to send: nothing more arrives
			expect( idsAt( '/held' ) ).toEqual( [ 'h_1', 'h_2', 'h_3' ] );
			await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
		} finally {
			release();
			receiver.setHandler( ( _request, res ) => void res.writeHead( 200 ).end( 'ok' ) );
		}
	} );

	it( 'keeps order when a delivery already pending sits between requeued and new ones', async () => {
		// Endpoint subscribed to order.paid only, answering 500 once: the paid event's delivery
		// stays pending (a retry far away) while its order's other events are replayed around it.
		const store = sidecar.stores;
		const endpoint = (
			await sidecar.api( 'POST', '/v1/endpoints', {
				url: receiver.url + '/pending',
				event_types: [ 'order.paid' ],
			} )
		).body;
		await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/disable` );
		await send(
			orderEvent( 'p_1', 'order.created', 50 ),
			orderEvent( 'p_2', 'order.paid', 50 ),
			orderEvent( 'p_3', 'order.refunded', 50 )
		);
		// While disabled: p_2 gets no delivery. Give it one, pending, due now, by hand (the oldest id of the three).
		store.db
			.prepare(
				`INSERT INTO deliveries (event_id, endpoint_id, ordering_key, status, next_attempt_at, created_at, updated_at) VALUES ('p_2', ?, 'order:50', 'cancelled', NULL, 0, 0)`
			)
			.run( endpoint.id );
		await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/enable`, { redeliver: false } );
		store.db
			.prepare(
				`UPDATE deliveries SET status = 'pending', next_attempt_at = ? WHERE event_id = 'p_2' AND endpoint_id = ?`
			)
			.run( Date.now() + 60_000, endpoint.id );

		const range = {
			from: await receivedAt( 'p_1' ),
			to: later( await receivedAt( 'p_3' ) ),
			types: [ 'order.created', 'order.paid', 'order.refunded' ],
		};
		const replay = await sidecar.api( 'POST', `/v1/endpoints/${ endpoint.id }/replay`, range );
		expect( replay.body ).toMatchObject( { matched: 3, queued: 2, already_queued: 1 } );
		// p_1 went; p_3 waits behind p_2, whose retry is not due yet. The round that records p_1's
		// attempt claims in the same transaction what that unblocks: once p_1 reads succeeded, the
		// other two were left pending.
		await waitUntil(
			async () =>
				( await deliveriesOf( endpoint.id ) ).deliveries.some(
					( d ) => d.event_id === 'p_1' && d.status === 'succeeded'
				),
			10_000,
			'p_1 recorded'
		);
		expect(
			( await deliveriesOf( endpoint.id ) ).deliveries
				.filter( ( d ) => d.event_id !== 'p_1' )
				.map( ( d ) => [ d.event_id, d.status ] )
				.sort()
		).toEqual( [
			[ 'p_2', 'pending' ],
			[ 'p_3', 'pending' ],
		] );
		expect( idsAt( '/pending' ) ).toEqual( [ 'p_1' ] );
		store.db
			.prepare( `UPDATE deliveries SET next_attempt_at = ? WHERE event_id = 'p_2' AND endpoint_id = ?` )
			.run( Date.now(), endpoint.id );
		sidecar.dispatcher.wake( [ endpoint.id ] );
		await receiver.waitFor( () => idsAt( '/pending' ).length === 3 );
		expect( idsAt( '/pending' ) ).toEqual( [ 'p_1', 'p_2', 'p_3' ] );
		await sidecar.api( 'DELETE', `/v1/endpoints/${ endpoint.id }` );
	} );

	describe( 'bad input', () => {
		let endpointId: string;
		const good = { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' };

		beforeAll( async () => {
			endpointId = ( await sidecar.api( 'POST', '/v1/endpoints', { url: receiver.url + '/bad' } ) ).body.id;
		} );

		it.each( [
			[ 'no body', 'invalid_from', 'from', undefined ],
			[ 'a bad from', 'invalid_from', 'from', { ...good, from: 'yesterday' } ],
			[ 'a time without zone', 'invalid_to', 'to', { ...good, to: '2026-01-02T00:00:00' } ],
			[ 'from after to', 'invalid_to', 'to', { from: good.to, to: good.from } ],
			[ 'from equal to to', 'invalid_to', 'to', { from: good.from, to: good.from } ],
			[ 'no type', 'invalid_types', 'types', { ...good, types: [] } ],
			[ 'types not a list', 'invalid_types', 'types', { ...good, types: 'order.paid' } ],
			[
				'an unknown type',
				'invalid_event_type',
				'types.1',
				{ ...good, types: [ 'order.paid', 'order.shipped' ] },
			],
			[ 'limit 0', 'invalid_limit', 'limit', { ...good, limit: 0 } ],
			[ 'limit over 10000', 'invalid_limit', 'limit', { ...good, limit: 10_001 } ],
			[ 'a fractional limit', 'invalid_limit', 'limit', { ...good, limit: 1.5 } ],
			[ 'dry_run not a boolean', 'invalid_dry_run', 'dry_run', { ...good, dry_run: 'yes' } ],
		] )( '%s: 400 %s naming %s', async ( _label, code, field, body ) => {
			const answer = await sidecar.api( 'POST', `/v1/endpoints/${ endpointId }/replay`, body );
			expect( answer.status ).toBe( 400 );
			expect( answer.body ).toMatchObject( { code, data: { status: 400, field } } );
		} );

		it( 'an unknown field: 400 invalid_body; not JSON: 400 invalid_json', async () => {
			expect(
				( await sidecar.api( 'POST', `/v1/endpoints/${ endpointId }/replay`, { ...good, since: good.from } ) )
					.body
			).toMatchObject( { code: 'invalid_body' } );
			expect(
				( await sidecar.api( 'POST', `/v1/endpoints/${ endpointId }/replay`, '{"from":' ) ).body
			).toMatchObject( { code: 'invalid_json' } );
		} );

		it( 'an unknown endpoint: 404; a disabled one: 409; another method: 405 with Allow', async () => {
			const missing = await sidecar.api( 'POST', '/v1/endpoints/ep_nope/replay', good );
			expect( missing.status ).toBe( 404 );
			expect( missing.body ).toMatchObject( { code: 'endpoint_not_found' } );

			const wrong = await sidecar.api( 'GET', `/v1/endpoints/${ endpointId }/replay` );
			expect( wrong.status ).toBe( 405 );
			expect( wrong.headers.get( 'allow' ) ).toBe( 'POST' );
			expect( wrong.body ).toMatchObject( { code: 'method_not_allowed' } );

			await sidecar.api( 'POST', `/v1/endpoints/${ endpointId }/disable` );
			const disabled = await sidecar.api( 'POST', `/v1/endpoints/${ endpointId }/replay`, good );
			expect( disabled.status ).toBe( 409 );
			expect( disabled.body ).toMatchObject( { code: 'endpoint_disabled' } );
			expect( ( await deliveriesOf( endpointId ) ).total ).toBe( 0 );
		} );
	} );
} );
